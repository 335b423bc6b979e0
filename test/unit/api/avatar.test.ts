/** The avatar service's pure helpers (the route is tested in avatar.test.ts). */
import { describe, expect, it } from 'vitest';
import { avatarSvg, colourFor, initialsOf } from '../../../src/services/avatar.service.js';

describe('avatar helpers', () => {
  it('takes up to two initials from letters and digits', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('  Grace   Brewster Hopper ')).toBe('GB');
    expect(initialsOf('guest-12')).toBe('G');
    expect(initialsOf('élodie')).toBe('É');
    expect(initialsOf('--- ***')).toBe('?');
    expect(initialsOf('(bob) [smith]')).toBe('BS');
  });

  it('escapes what it draws and keeps a stable colour', () => {
    expect(avatarSvg('<&', '#000000')).toContain('>&#60;&#38;</text>');
    expect(colourFor('someone')).toBe(colourFor('someone'));
    expect(colourFor('someone')).toMatch(/^#[0-9A-F]{6}$/);
  });
});
