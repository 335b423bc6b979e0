import { describe, expect, it } from 'vitest';
import { generatePassword } from '../src/api/admin.js';
import { typingLine } from '../src/lib/format.js';
import { openChatTiming } from '../src/pages/OpenChats.js';
import { matches } from '../src/pages/Permissions.js';

describe('generatePassword', () => {
  it('is 16 characters with a lowercase and an uppercase letter, a digit and a symbol, and no look-alikes', () => {
    for (let i = 0; i < 200; i += 1) {
      const password = generatePassword();
      expect(password).toHaveLength(16);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[!#%+\-=?@]/);
      expect(password).not.toMatch(/[lIO01\s]/);
    }
  });

  it('takes its randomness from the source it is given (the secure one by default)', () => {
    const zeros = generatePassword((n) => new Uint32Array(n));
    expect(zeros).toHaveLength(16);
    expect(new Set(Array.from({ length: 20 }, () => generatePassword())).size).toBe(20);
  });
});

describe('openChatTiming', () => {
  const now = Date.parse('2026-11-23T10:00:00.000Z');
  it('says how long the visitor has waited for a reply, else how long the chat is open', () => {
    expect(openChatTiming({ ts: '2026-11-23T09:50:00.000Z', lm: '2026-11-23T09:58:30.000Z', waitingResponse: true }, now)).toEqual({
      label: 'waiting for a reply 1m 30s',
      waiting: true,
    });
    expect(openChatTiming({ ts: '2026-11-23T09:50:00.000Z', lm: '2026-11-23T09:58:30.000Z', waitingResponse: false }, now)).toEqual({ label: 'open 10m 00s', waiting: false });
  });
});

describe('typingLine', () => {
  const visitor = { username: 'guest-1', name: 'Vera Visitor' };
  it('names the visitor by the chat name, others by username', () => {
    expect(typingLine([], visitor)).toBe('');
    expect(typingLine(['guest-1'], visitor)).toBe('Vera Visitor is typing…');
    expect(typingLine(['guest-1', 'bob'], visitor)).toBe('Vera Visitor, bob are typing…');
    expect(typingLine(['guest-1'], { username: 'guest-1' })).toBe('The visitor is typing…');
  });
});

describe('the Permissions filter', () => {
  it("keeps the permissions whose words or id hold the text, any case; empty keeps all", () => {
    const entry = (id: string) => ({ _id: id, roles: [] });
    expect(matches(entry('transfer-livechat-guest'), 'TRANSFER')).toBe(true);
    expect(matches(entry('transfer-livechat-guest'), 'another agent')).toBe(true);
    expect(matches(entry('close-livechat-room'), 'transfer')).toBe(false);
    expect(matches(entry('close-livechat-room'), '  ')).toBe(true);
  });
});
