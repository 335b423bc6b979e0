/** The start-up note `npm start` prints on a terminal (src/lib/banner.ts). */
import { describe, expect, it } from 'vitest';
import { startBanner } from '../../../src/lib/banner.js';

describe('the start-up note (npm start on a terminal)', () => {
  it('names the console URL, the admin login and the embed script', () => {
    const first = startBanner({ siteUrl: 'http://localhost:3000/', adminUsername: 'admin', generatedPassword: 'Gen-Pass-123' });
    expect(first).toContain('Agent console   http://localhost:3000/\n');
    expect(first).toContain('Admin user      admin\n');
    expect(first).toMatch(/Admin password {2}Gen-Pass-123 {3}\(generated now and shown once/);
    expect(first).toContain('Widget script   http://localhost:3000/livechat/rocketchat-livechat.min.js\n');
    const later = startBanner({ siteUrl: 'https://chat.example.com', adminUsername: 'boss' });
    expect(later).toContain('Admin password  (the one set on first start)');
    expect(later).toContain('https://chat.example.com/livechat/rocketchat-livechat.min.js');
    expect(later).not.toContain('Gen-Pass');
  });
});
