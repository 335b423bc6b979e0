/** The widget page's SERVER_URL script (src/http/routes/widget.routes.ts; the route is tested in widget.test.ts). */
import { describe, expect, it } from 'vitest';
import { preferredLanguage, translationFiles, widgetLanguage } from '../../../src/http/assets/widget-translations.js';
import { widgetPage } from '../../../src/http/routes/widget.routes.js';

describe('widgetPage', () => {
  it('keeps SERVER_URL a plain JavaScript string whatever SITE_URL holds', () => {
    const page = widgetPage('<html><body></body></html>', "https://x.test/a'b\\c</script>\n");
    expect(page).toBe("<html><body><script>SERVER_URL = 'https://x.test/a\\u0027b\\u005cc\\u003c/script>\\u000a';</script></body></html>");
  });
});

describe('the translations listed with the widget page', () => {
  it("derive the widget's language from the browser's as the widget does", () => {
    expect(['de_at', 'DE-at', 'en-US@posix', 'pt-BR', 'zh', 'fil', 'x', ''].map(widgetLanguage)).toEqual(['de-AT', 'de-AT', 'en', 'pt-BR', 'zh', 'en', 'en', 'en']);
    expect(preferredLanguage('fr-CA,fr;q=0.9')).toBe('fr-CA');
    expect(preferredLanguage(' es ;q=1, en')).toBe('es');
    expect(preferredLanguage(undefined)).toBe('en');
  });

  it('name the chunks of the language, its base language and English, once each, and only existing ones', () => {
    const chunks = new Map([['de-AT', '17.chunk.a.js'], ['de', '19.chunk.b.js'], ['en', '21.chunk.c.js']]);
    expect(translationFiles(chunks, 'de-AT')).toEqual(['17.chunk.a.js', '19.chunk.b.js', '21.chunk.c.js']);
    expect(translationFiles(chunks, 'de-CH')).toEqual(['19.chunk.b.js', '21.chunk.c.js']);
    expect(translationFiles(chunks, 'en')).toEqual(['21.chunk.c.js']);
    expect(translationFiles(new Map(), 'de')).toEqual([]);
  });

  it('go into the page after SERVER_URL, before the widget\'s scripts', () => {
    expect(widgetPage('<body><script src="livechat/bundle.js"></script></body>', 'https://x.test', ['21.chunk.c.js'])).toBe(
      "<body><script>SERVER_URL = 'https://x.test';</script><script src=\"livechat/21.chunk.c.js\"></script><script src=\"livechat/bundle.js\"></script></body>",
    );
  });
});
