import { describe, expect, it } from 'vitest';
import type { Message, RoomEntry } from '../src/api/types.js';
import { clockTime, countdown, embedSnippet, isSendKey, preview, sortMyChats, systemText, timerLine, titleWithUnread, waitingTime } from '../src/lib/format.js';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');

describe('waiting time', () => {
  it('ticks in seconds, then minutes, hours and days', () => {
    const since = new Date(T0).toISOString();
    expect(waitingTime(since, T0)).toBe('0s');
    expect(waitingTime(since, T0 + 42_000)).toBe('42s');
    expect(waitingTime(since, T0 + 185_000)).toBe('3m 05s');
    expect(waitingTime(since, T0 + 3_720_000)).toBe('1h 02m');
    expect(waitingTime(since, T0 + 3 * 86_400_000)).toBe('3d');
    // A clock a little behind the server never shows a negative wait.
    expect(waitingTime(since, T0 - 5_000)).toBe('0s');
  });
});

describe('list order', () => {
  it('lists only open livechat rooms under My chats, most recent activity first', () => {
    const room = (id: string, extra: Partial<RoomEntry>): RoomEntry => ({ _id: id, t: 'l', open: true, ts: new Date(T0).toISOString(), _updatedAt: new Date(T0).toISOString(), usersCount: 1, msgs: 0, ...extra });
    const rooms = [
      room('old', { lm: new Date(T0 + 1000).toISOString() }),
      room('new', { lm: new Date(T0 + 9000).toISOString() }),
      room('closed', { open: undefined, lm: new Date(T0 + 99_000).toISOString() }),
      { _id: 'GENERAL', t: 'c', ts: new Date(T0).toISOString(), _updatedAt: new Date(T0 + 50_000).toISOString(), usersCount: 1, msgs: 0 } satisfies RoomEntry,
      room('no-lm', { _updatedAt: new Date(T0 + 5000).toISOString() }),
    ];
    expect(sortMyChats(rooms).map((r) => r._id)).toEqual(['new', 'no-lm', 'old']);
  });
});

describe('messages', () => {
  const message = (t: string | undefined, msg = '', extra: Partial<Message> = {}): Message => ({ _id: 'm', rid: 'r', msg, ts: new Date(T0).toISOString(), _updatedAt: new Date(T0).toISOString(), t: t as Message['t'], u: { _id: 'u', username: 'u' }, ...extra });

  it('renders the livechat system messages as lines', () => {
    expect(systemText(message(undefined, 'hello'))).toBeNull();
    expect(systemText(message('livechat-started'))).toBe('Chat started');
    // A private note is a message of its author (marked as a note), not a system line.
    expect(systemText(message('livechat-note' as never, 'Refund approved'))).toBeNull();
    expect(systemText(message('livechat-close', 'Solved, thanks'))).toBe('Chat closed: Solved, thanks');
    expect(systemText(message('livechat-close', ''))).toBe('Chat closed');
    expect(
      systemText(message('livechat_transfer_history', '', { transferData: { transferredBy: { _id: 'a', username: 'ann', type: 'user' }, nextDepartment: { _id: 's', name: 'Sales' }, scope: 'department' } })),
    ).toBe('Chat transferred by ann to Sales');
    expect(systemText(message('livechat_transfer_history', '', { transferData: { transferredBy: { _id: 'a', username: 'ann', type: 'user' }, transferredTo: { _id: 'b', username: 'bob' }, scope: 'agent' } }))).toBe(
      'Chat transferred by ann to bob',
    );
    // History read over REST: the room's transfer history entry of that moment says where to, and the note.
    const entry = { type: 'agent' as const, scope: 'agent', ts: new Date(T0).toISOString(), transferredBy: { _id: 'u', username: 'ann', type: 'user' }, transferredTo: { _id: 'b', username: 'bob' }, comment: 'VIP' };
    expect(systemText(message('livechat_transfer_history', '', { u: { _id: 'u', username: 'ann' } }), entry)).toBe('Chat transferred by ann to bob: “VIP”');
    expect(systemText(message('livechat_transfer_history', '', { u: { _id: 'u', username: 'ann', name: 'Ann' } }))).toBe('Chat transferred by Ann');
  });

  it('flattens previews and cuts long ones', () => {
    expect(preview('  two\nlines  ')).toBe('two lines');
    expect(preview('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(preview(undefined)).toBe('');
  });

  it('sends on Enter only: Shift+Enter and IME composition insert a line', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });
});

describe('title and embed snippet', () => {
  it('shows the unread count in the tab title', () => {
    expect(titleWithUnread('Parley console', 0)).toBe('Parley console');
    expect(titleWithUnread('Parley console', 3)).toBe('(3) Parley console');
    expect(titleWithUnread('Parley console', 250)).toBe('(99+) Parley console');
  });

  it('points the snippet at this server’s /livechat and its script', () => {
    const snippet = embedSnippet('https://chat.example.com/');
    expect(snippet).toContain("j.src = 'https://chat.example.com/livechat/rocketchat-livechat.min.js");
    expect(snippet).toContain("'script', 'https://chat.example.com/livechat')");
    expect(snippet).not.toContain('.com//');
  });
});

describe('the room header\'s timer line (DESK.md D3)', () => {
  const at = (ms: number) => new Date(T0 + ms).toISOString();
  it('counts the auto-transfer down, never below 0:00', () => {
    expect(countdown(at(42_000), T0)).toBe('0:42');
    expect(countdown(at(42_001), T0)).toBe('0:43');
    expect(countdown(at(3_725_000), T0)).toBe('1:02:05');
    expect(countdown(at(-5_000), T0)).toBe('0:00');
    expect(timerLine([{ kind: 'autoTransfer', dueAt: at(42_000) }], T0, false)).toBe('reassigned in 0:42 unless you reply');
  });

  it('says the other timers at their clock time; nothing without a timer', () => {
    const due = at(3_600_000);
    expect(timerLine([{ kind: 'onHoldClose', dueAt: due }], T0, true)).toBe(`closes ${clockTime(due)} — on hold`);
    expect(timerLine([{ kind: 'inactivity', dueAt: due }], T0, false)).toBe(`inactive at ${clockTime(due)} unless the visitor replies`);
    expect(timerLine([{ kind: 'queueTimeout', dueAt: due }], T0, false)).toBe(`closes ${clockTime(due)} unless someone takes it`);
    expect(timerLine([], T0, false)).toBeNull();
    expect(timerLine(undefined, T0, false)).toBeNull();
  });

  it('the on-hold lines show their comment', () => {
    const base = { _id: 'm', rid: 'r', msg: '', ts: at(0), _updatedAt: at(0), u: { _id: 'u', username: 'ann' } };
    expect(systemText({ ...base, t: 'omnichannel_placed_chat_on_hold', comment: 'Chat placed on hold by ann' } as unknown as Message)).toBe('Chat placed on hold by ann');
    expect(systemText({ ...base, t: 'omnichannel_on_hold_chat_resumed' } as unknown as Message)).toBe('Chat resumed');
  });
});
