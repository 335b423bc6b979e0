import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { serverUrlOf, SiteUrlNotice } from '../src/lib/widget-server.js';

describe('the widget server the console reads from /livechat', () => {
  it("reads SERVER_URL from the widget page, null when it has none", () => {
    expect(serverUrlOf("<html><body><script>SERVER_URL = 'https://chat.example.com';</script><script src=x>")).toBe('https://chat.example.com');
    expect(serverUrlOf('<html><body>no script</body></html>')).toBeNull();
  });

  it('says so when SITE_URL differs from the address the console is opened at, and is silent when they agree', () => {
    const { unmount } = render(<SiteUrlNotice serverUrl="https://elsewhere.example" />);
    const note = screen.getByRole('note');
    expect(note.textContent).toContain('The widget will call https://elsewhere.example');
    expect(note.textContent).toContain(`you opened this console at ${window.location.origin}`);
    unmount();
    const same = render(<SiteUrlNotice serverUrl={window.location.origin} />);
    expect(same.container.textContent).toBe('');
    same.unmount();
    expect(render(<SiteUrlNotice serverUrl={null} />).container.textContent).toBe('');
  });
});
