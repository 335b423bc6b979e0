import { describe, expect, it } from 'vitest';
import { creatableScopes, estimateText, mayWriteCanned, ordinal, parseLimit, parseTagList, queuePlaces, takeBlocked } from '../src/lib/desk.js';

const permits = (...held: string[]) => (p: string) => held.includes(p);

describe('queuePlaces (DESK.md D2 position, computed from the list on screen)', () => {
  it('0-based per department, oldest first, ties by id in code point order; no department is a queue of its own', () => {
    const places = queuePlaces([
      { _id: 'c', ts: '2030-01-01T10:00:03.000Z', department: 'sales' },
      { _id: 'b', ts: '2030-01-01T10:00:01.000Z', department: 'sales' },
      { _id: 'n2', ts: '2030-01-01T10:00:05.000Z' },
      { _id: 'a', ts: '2030-01-01T10:00:01.000Z', department: 'sales' },
      { _id: 'n1', ts: '2030-01-01T10:00:04.000Z' },
      { _id: 's', ts: '2030-01-01T09:00:00.000Z', department: 'support' },
    ]);
    expect(Object.fromEntries(places)).toEqual({ a: 0, b: 1, c: 2, n1: 0, n2: 1, s: 0 });
  });

  it('a chat taken from the list moves everyone behind it up', () => {
    const list = [
      { _id: 'x', ts: '2030-01-01T10:00:00.000Z', department: 'd' },
      { _id: 'y', ts: '2030-01-01T10:00:01.000Z', department: 'd' },
    ];
    expect(queuePlaces(list).get('y')).toBe(1);
    expect(queuePlaces(list.slice(1)).get('y')).toBe(0);
    expect(queuePlaces([]).size).toBe(0);
  });
});

describe('ordinal and estimateText', () => {
  it('English ordinals of a 0-based place', () => {
    expect([0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 100, 110, 111].map(ordinal)).toEqual([
      '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '14th', '21st', '22nd', '101st', '111th', '112th',
    ]);
  });

  it('the estimate in words; nothing for 0 or no estimate', () => {
    expect(estimateText(0)).toBeNull();
    expect(estimateText(undefined)).toBeNull();
    expect(estimateText(-5)).toBeNull();
    expect(estimateText(30)).toBe('about 1 min');
    expect(estimateText(90)).toBe('about 2 min');
    expect(estimateText(59 * 60)).toBe('about 59 min');
    expect(estimateText(3600)).toBe('about 1 h');
    expect(estimateText(3600 + 25 * 60)).toBe('about 1 h 25 min');
  });
});

describe('parseLimit (chat limits as typed, DESK.md D2)', () => {
  it('whole numbers from 0; empty is 0 (no limit); anything else null', () => {
    expect(parseLimit('')).toBe(0);
    expect(parseLimit('  ')).toBe(0);
    expect(parseLimit('0')).toBe(0);
    expect(parseLimit(' 3 ')).toBe(3);
    expect(parseLimit('007')).toBe(7);
    for (const bad of ['-1', '1.5', '2e3', 'abc', '1 2', '9999999999']) expect(parseLimit(bad)).toBeNull();
  });
});

describe('mayWriteCanned and creatableScopes (DESK.md D4 W)', () => {
  const agent = { id: 'ann', departments: ['sales'] };
  it('user scope: only the owner, with save-canned-responses', () => {
    expect(mayWriteCanned({ scope: 'user', userId: 'ann' }, agent, permits('save-canned-responses'))).toBe(true);
    expect(mayWriteCanned({ scope: 'user', userId: 'bob' }, agent, permits('save-canned-responses', 'save-all-canned-responses'))).toBe(false);
    expect(mayWriteCanned({ scope: 'user', userId: 'ann' }, agent, permits())).toBe(false);
  });

  it('department scope: save-all, or save-department for a department of its own', () => {
    expect(mayWriteCanned({ scope: 'department', departmentId: 'sales' }, agent, permits('save-department-canned-responses'))).toBe(true);
    expect(mayWriteCanned({ scope: 'department', departmentId: 'support' }, agent, permits('save-department-canned-responses'))).toBe(false);
    expect(mayWriteCanned({ scope: 'department', departmentId: 'support' }, agent, permits('save-all-canned-responses'))).toBe(true);
    expect(mayWriteCanned({ scope: 'department', departmentId: 'sales' }, agent, permits('save-canned-responses'))).toBe(false);
    // Full scope (a manager's departments are all of them).
    expect(mayWriteCanned({ scope: 'department', departmentId: 'x' }, { id: 'm', departments: null }, permits('save-department-canned-responses'))).toBe(true);
  });

  it('global scope: save-all only', () => {
    expect(mayWriteCanned({ scope: 'global' }, agent, permits('save-all-canned-responses'))).toBe(true);
    expect(mayWriteCanned({ scope: 'global' }, agent, permits('save-canned-responses', 'save-department-canned-responses'))).toBe(false);
  });

  it('the scopes offered to create in', () => {
    expect(creatableScopes(permits('save-canned-responses'))).toEqual(['user']);
    expect(creatableScopes(permits('save-canned-responses', 'save-department-canned-responses'))).toEqual(['user', 'department']);
    expect(creatableScopes(permits('save-canned-responses', 'save-all-canned-responses'))).toEqual(['user', 'department', 'global']);
    expect(creatableScopes(permits())).toEqual([]);
  });
});

describe('parseTagList', () => {
  it('comma-separated, trimmed, empty dropped, each once (case-insensitive), first spelling kept', () => {
    expect(parseTagList(' vip, Billing ,,billing, VIP,refund ')).toEqual(['vip', 'Billing', 'refund']);
    expect(parseTagList('')).toEqual([]);
  });
});

describe('takeBlocked (DESK.md D2 capacity, for the Take button)', () => {
  const sales = { _id: 'sales', name: 'Sales', open: 2, limit: 2 };
  const support = { _id: 'support', name: 'Support', open: 1, limit: null };
  it('the total against the limit that bounds it, then the department against its own', () => {
    expect(takeBlocked(undefined, 'sales')).toBeNull();
    expect(takeBlocked({ open: 3, limit: 3, departments: [] }, undefined)).toBe('You have 3 open chats, your limit of 3: close one to take another.');
    expect(takeBlocked({ open: 1, limit: 1, departments: [] }, undefined)).toBe('You have 1 open chat, your limit of 1: close one to take another.');
    expect(takeBlocked({ open: 3, limit: 4, departments: [sales, support] }, 'sales')).toBe(
      'You have 2 open chats of Sales, its limit of 2: close one of them to take another.',
    );
    expect(takeBlocked({ open: 3, limit: 4, departments: [sales, support] }, 'support')).toBeNull();
    expect(takeBlocked({ open: 3, limit: 4, departments: [sales, support] }, undefined)).toBeNull();
    expect(takeBlocked({ open: 30, limit: null, departments: [support] }, 'support')).toBeNull();
    // A department the caller is not in: the server decides.
    expect(takeBlocked({ open: 0, limit: null, departments: [] }, 'elsewhere')).toBeNull();
  });
});
