import { launchBrowser } from './test/support/browser.js';
const base = process.argv[2]!;
const browser = await launchBrowser();
for (const path of ['/livechat?mode=popout', '/livechat/?mode=popout', '/livechat/index.html?mode=popout']) {
  const page = await browser.newPage();
  const failed: string[] = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  await page.goto(base + path, { waitUntil: 'networkidle0' });
  await new Promise((r) => setTimeout(r, 1500));
  const text = await page.evaluate(() => document.body.innerText.slice(0, 300) + ' | ' + [...document.querySelectorAll('[placeholder],[data-placeholder]')].map((e) => e.getAttribute('placeholder') ?? e.getAttribute('data-placeholder')).join(','));
  console.log(path, JSON.stringify(text), failed.slice(0, 5));
  await page.close();
}
await browser.close();
