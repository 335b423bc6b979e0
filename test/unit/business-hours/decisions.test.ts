/**
 * Business-hours decisions (src/services/business-hours/business-hours.service.ts `decideFrom`,
 * `outOfOfficeMessage`, desk contract D1) over schedule sets written out here: which schedule decides for a
 * department in `Single` and `Multiple` mode, a room without department, and the agents routable for it.
 */
import { describe, expect, it } from 'vitest';
import { BusinessHoursService } from '../../../src/services/business-hours/business-hours.service.js';
import type { SettingsService } from '../../../src/services/settings.service.js';
import type { BusinessHourRecord, ScheduleSet, Store } from '../../../src/store/store.js';
import { eligible } from '../../../src/services/routing/choice.js';

const t = (isoString: string) => Date.parse(isoString);
// Monday 2030-01-07 12:00 UTC.
const NOON = t('2030-01-07T12:00:00.000Z');
const WEEK = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

const schedule = (id: string, timezone: string, start: string, finish: string, overrides: Partial<BusinessHourRecord> = {}): BusinessHourRecord => ({
  id,
  name: id,
  type: id === 'default' ? 'default' : 'custom',
  active: true,
  timezone,
  workHours: WEEK.map((day) => ({ day, start, finish, open: day !== 'Sunday' && day !== 'Saturday' })),
  holidays: [],
  ts: 0,
  updatedAt: 0,
  ...overrides,
});

function service(values: Record<string, unknown>) {
  const settings = { get: (id: string) => values[id] } as unknown as SettingsService;
  return new BusinessHoursService({} as Store, settings, { now: () => NOON }, { revision: 0 });
}

const on = (mode: 'Single' | 'Multiple') => ({
  Livechat_enable_business_hours: true,
  Livechat_business_hour_type: mode,
  Livechat_out_of_office_message: 'Closed; back at {{nextOpen | "our next opening"}}.',
});

// The default (UTC 08:00–20:00) is open at noon; Tokyo (09:00–17:00 Asia/Tokyo = 00:00–08:00 UTC) is closed.
const set: ScheduleSet = {
  defaultSchedule: schedule('default', 'UTC', '08:00', '20:00'),
  custom: [{ schedule: schedule('tokyo', 'Asia/Tokyo', '09:00', '17:00'), departmentIds: ['dep-tokyo'] }],
};

describe('business-hours decisions', () => {
  it('hours off: always open, no gate', () => {
    expect(service({ Livechat_enable_business_hours: false }).decideFrom(set, 'dep-tokyo', NOON)).toMatchObject({ open: true, gate: null });
  });

  it('Single: every department follows the default', () => {
    expect(service(on('Single')).decideFrom(set, 'dep-tokyo', NOON)).toMatchObject({ open: true, gate: null });
    const closed = service(on('Single')).decideFrom(set, null, t('2030-01-07T21:00:00.000Z'));
    expect(closed).toEqual({ open: false, nextOpen: t('2030-01-08T08:00:00.000Z'), zone: 'UTC', openingScheduleId: 'default', gate: null });
  });

  it('Multiple: a department follows its custom schedule, in its zone; an inactive one is always open', () => {
    const s = service(on('Multiple'));
    const tokyo = s.decideFrom(set, 'dep-tokyo', NOON);
    // Monday 21:00 in Tokyo: next opening Tuesday 09:00 JST = 00:00 UTC.
    expect(tokyo).toMatchObject({ open: false, nextOpen: t('2030-01-08T00:00:00.000Z'), zone: 'Asia/Tokyo', openingScheduleId: 'tokyo' });
    expect(s.outOfOfficeMessage(tokyo)).toBe('Closed; back at 2030-01-08 09:00 Asia/Tokyo.');
    expect(s.decideFrom(set, 'dep-other', NOON)).toMatchObject({ open: true });
    const inactive: ScheduleSet = { defaultSchedule: set.defaultSchedule, custom: [{ schedule: { ...set.custom[0]!.schedule, active: false }, departmentIds: ['dep-tokyo'] }] };
    expect(s.decideFrom(inactive, 'dep-tokyo', NOON)).toMatchObject({ open: true });
  });

  it('a schedule that never opens: the fallback text, no opening job', () => {
    const never: ScheduleSet = { defaultSchedule: { ...set.defaultSchedule!, workHours: [] }, custom: [] };
    const s = service(on('Single'));
    const decision = s.decideFrom(never, null, NOON);
    expect(decision).toMatchObject({ open: false, nextOpen: null, openingScheduleId: null });
    expect(s.outOfOfficeMessage(decision)).toBe('Closed; back at our next opening.');
  });

  it('Multiple, no department: open while any schedule in use is; routable are agents of an open department, or in none while the default is', async () => {
    const s = service(on('Multiple'));
    const decision = s.decideFrom(set, null, NOON);
    expect(decision.open).toBe(true);
    const memberships = new Map([
      ['tokyo-only', ['dep-tokyo']],
      ['both', ['dep-tokyo', 'dep-other']],
      ['other', ['dep-other']],
    ]);
    const tx = { businessHours: { departmentsOfAgents: async () => memberships } } as unknown as Store;
    const candidates = ['tokyo-only', 'both', 'other', 'nobody'].map((id) => ({ id, username: id, openRooms: 0, lastAssignedAt: null, maxChats: 0, departmentOpen: 0, departmentLimit: 0 }));
    const routable = await decision.gate!(tx, candidates);
    expect([...routable!].sort()).toEqual(['both', 'nobody', 'other']);
    expect(eligible(candidates, { departmentId: null, now: NOON, routable }).map((c) => c.id)).toEqual(['both', 'other', 'nobody']);
    // At 21:00 UTC the default is closed and Tokyo (06:00 JST Tuesday) too: closed, opening at Tokyo's 09:00.
    expect(s.decideFrom(set, null, t('2030-01-07T21:00:00.000Z'))).toMatchObject({ open: false, nextOpen: t('2030-01-08T00:00:00.000Z'), openingScheduleId: 'tokyo' });
  });
});
