/**
 * The order rules of the token cache's refresh (AuthService): a user's new state reported with a change
 * replaces the cached one only when it is newer, a change without the state drops the entry, and a lookup
 * that raced a refresh is not cached over it. The reports are fed by hand, in the orders a pool of
 * PostgreSQL connections can deliver them; the API behaviour is in caches.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LocalChangeBus } from '../../../src/events/change-bus.js';
import { AuthService } from '../../../src/services/auth.service.js';
import type { SettingsService } from '../../../src/services/settings.service.js';
import { hashLoginToken } from '../../../src/services/passwords.js';
import type { DataChangeListener } from '../../../src/store/changes-store.js';
import type { Store, UserRecord } from '../../../src/store/store.js';
import { ManualClock } from '../../support/clock.js';

const TOKEN = 'token-of-the-test-user-0123456789';

function user(updatedAt: number, name: string, active = true): UserRecord {
  return {
    id: 'u1', createdAt: 1, updatedAt, username: 'u1', name, email: null, type: 'user', status: 'online',
    statusConnection: 'online', statusText: null, active, roles: ['user'], lastLogin: null, utcOffset: null, bio: null,
    nickname: null, customFields: {}, language: null, preferences: {},
  } as UserRecord;
}

/** An AuthService over a store whose token look-up answers `stored` (after `gate`, when set). */
function setup() {
  let emit: DataChangeListener = () => {};
  const state = { stored: user(10, 'stored'), gate: null as Promise<void> | null, reads: 0 };
  const store = {
    onChange: (listener: DataChangeListener) => {
      emit = listener;
      return () => {};
    },
    tokens: {
      findUserByToken: async (userId: string, hashed: string) => {
        state.reads++;
        const answer = state.stored; // read now, as the statement would
        if (state.gate) await state.gate;
        return userId === 'u1' && hashed === hashLoginToken(TOKEN) ? { user: structuredClone(answer), tokenCreatedAt: 1 } : null;
      },
    },
  } as unknown as Store;
  const settings = { get: () => 0 } as unknown as SettingsService;
  const auth = new AuthService(store, settings, new ManualClock(), new LocalChangeBus());
  return { auth, state, report: (rows?: UserRecord[]) => emit({ users: ['u1'], livechat: false, rooms: [], ...(rows && { userRows: rows }) }) };
}

describe('AuthService refresh order', () => {
  it('takes a newer state, keeps the cached one over an older state reported later, and drops on a change without state', async () => {
    const { auth, state, report } = setup();
    expect((await auth.authenticate('u1', TOKEN))?.user.name).toBe('stored');
    report([user(12, 'newer')]);
    expect(auth.cachedCaller('u1', TOKEN)?.user.name).toBe('newer');
    report([user(11, 'older, reported late')]);
    expect(auth.cachedCaller('u1', TOKEN)?.user.name).toBe('newer');
    report([user(12, 'same time')]);
    expect(auth.cachedCaller('u1', TOKEN)?.user.name).toBe('newer');
    report([user(13, 'deactivated', false)]);
    expect(auth.cachedCaller('u1', TOKEN)).toBeNull();
    report();
    expect(auth.cachedCaller('u1', TOKEN)).toBeUndefined();
    expect(state.reads).toBe(1);
  });

  it('a taken state is a frozen copy: the writer may go on changing the row it reported', async () => {
    const { auth, report } = setup();
    await auth.authenticate('u1', TOKEN);
    const row = user(12, 'newer');
    row.preferences = { highlights: ['a', { b: 1 }], ['__proto__']: { polluted: true } };
    row.customFields = { team: 'x' };
    row.email = { address: 'u1@example.com', verified: false };
    report([row]);
    row.roles.push('admin');
    (row.preferences.highlights as unknown[]).push('c');
    ((row.preferences.highlights as unknown[])[1] as { b: number }).b = 2;
    row.customFields.team = 'y';
    row.email.verified = true;
    const cached = auth.cachedCaller('u1', TOKEN)!.user;
    expect(cached.roles).toEqual(['user']);
    expect(cached.preferences).toEqual({ highlights: ['a', { b: 1 }], ['__proto__']: { polluted: true } });
    expect(Object.getPrototypeOf(cached.preferences)).toBe(Object.prototype);
    expect(cached.customFields).toEqual({ team: 'x' });
    expect(cached.email).toEqual({ address: 'u1@example.com', verified: false });
    for (const part of [cached, cached.roles, cached.preferences, cached.customFields, cached.email]) expect(Object.isFrozen(part)).toBe(true);
  });

  it('a state reported for a user with nothing cached is not cached (the next request reads)', () => {
    const { auth, report } = setup();
    report([user(12, 'newer')]);
    expect(auth.cachedCaller('u1', TOKEN)).toBeUndefined();
  });

  it('a look-up that read before a refresh does not replace the refreshed state', async () => {
    const { auth, state, report } = setup();
    await auth.authenticate('u1', TOKEN);
    // A refresh while a read is in flight: the read's older state must not be cached over it.
    let open!: () => void;
    state.gate = new Promise((resolve) => (open = resolve));
    const racing = auth.authenticate('u1', TOKEN);
    await Promise.resolve();
    report([user(20, 'refreshed')]);
    open();
    expect((await racing)?.user.name).toBe('stored'); // that request saw the state it read
    expect(auth.cachedCaller('u1', TOKEN)?.user.name).toBe('refreshed');
    expect(state.reads).toBe(2);
  });
});
