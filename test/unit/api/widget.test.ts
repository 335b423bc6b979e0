/** The widget page's SERVER_URL script (src/http/routes/widget.routes.ts; the route is tested in widget.test.ts). */
import { describe, expect, it } from 'vitest';
import { widgetPage } from '../../../src/http/routes/widget.routes.js';

describe('widgetPage', () => {
  it('keeps SERVER_URL a plain JavaScript string whatever SITE_URL holds', () => {
    const page = widgetPage('<html><body></body></html>', "https://x.test/a'b\\c</script>\n");
    expect(page).toBe("<html><body><script>SERVER_URL = 'https://x.test/a\\u0027b\\u005cc\\u003c/script>\\u000a';</script></body></html>");
  });
});
