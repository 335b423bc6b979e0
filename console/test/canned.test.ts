import { describe, expect, it } from 'vitest';
import { cannedTrigger, expandCanned, rankCanned, type CannedEntry } from '../src/lib/canned.js';

const context = {
  visitor: { name: 'Maria José Pérez', email: 'maria@example.com', username: 'guest-7', customFields: { order: '4711' } },
  agent: { name: 'Ann Agent', username: 'ann' },
  department: { name: 'Support' },
};

describe('expandCanned (DESK.md D4 variables)', () => {
  it('replaces known variables, RC contact aliases and custom fields; spaces optional', () => {
    expect(expandCanned('Hi {{visitor.firstName}}, I am {{ agent.name }} from {{department.name}}. Order {{ visitor.customFields.order }}; mail {{contact.email}}', context)).toEqual({
      text: 'Hi Maria, I am Ann Agent from Support. Order 4711; mail maria@example.com',
      unfilled: [],
    });
  });

  it('uses the fallback for an unknown or empty value, with its escapes', () => {
    expect(expandCanned('Call {{ visitor.phone | "our \\"hotline\\" \\\\ 030" }}', context).text).toBe('Call our "hotline" \\ 030');
    expect(expandCanned('{{ agent.email | "us" }} / {{ visitor.nickname | "you" }}', context).text).toBe('us / you');
  });

  it('leaves a variable without value or fallback as written and names it', () => {
    expect(expandCanned('Your number: {{ visitor.phone }}', context)).toEqual({ text: 'Your number: {{ visitor.phone }}', unfilled: ['{{ visitor.phone }}'] });
  });

  it('keeps other brace text literal', () => {
    expect(expandCanned('{ not } {{ 1x }} {{}}', context)).toEqual({ text: '{ not } {{ 1x }} {{}}', unfilled: [] });
  });
});

describe('cannedTrigger and rankCanned', () => {
  it('finds a !query at the start or after white space, up to the caret', () => {
    expect(cannedTrigger('!he', 3)).toEqual({ start: 0, query: 'he' });
    expect(cannedTrigger('Hello !tha', 10)).toEqual({ start: 6, query: 'tha' });
    expect(cannedTrigger('Hello!tha', 9)).toBeNull();
    expect(cannedTrigger('!tha nks', 8)).toBeNull();
    expect(cannedTrigger('!', 1)).toEqual({ start: 0, query: '' });
  });

  it('orders shortcut prefix, substring, then text; own before department before global', () => {
    const r = (shortcut: string, text: string, scope: CannedEntry['scope']): CannedEntry => ({ _id: `${scope}-${shortcut}`, shortcut, text, scope });
    const all = [r('thanks', 'Thank you!', 'global'), r('thanks', 'Thanks from me', 'user'), r('bye-thx', 'Bye', 'department'), r('xyz', 'thanks again', 'global'), r('hello', 'Hi', 'global')];
    expect(rankCanned(all, 'THAN').map((x) => x._id)).toEqual(['user-thanks', 'global-thanks', 'global-xyz']);
    expect(rankCanned(all, 'th').map((x) => x._id)).toEqual(['user-thanks', 'global-thanks', 'department-bye-thx', 'global-xyz']);
    expect(rankCanned(all, '').length).toBe(5);
    expect(rankCanned(all, '%')).toEqual([]);
  });
});
