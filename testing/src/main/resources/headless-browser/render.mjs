// Renders one HTML file in a real headless Chromium and prints what the page shows, as JSON on stdout:
// {"tables": {id: [[cell text, ...], ...]}, "texts": {id: text}, "windowValues": {window: label},
//  "versionPoints": n}. Usage: node render.mjs <page.html> [<screenshot.png>]
// The Chromium binary ships inside @sparticuz/chromium and unpacks into $TMPDIR on first use.
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { pathToFileURL } from 'node:url';

const [page, screenshot] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: await chromium.executablePath(),
  args: [...chromium.args, '--no-first-run', '--disable-background-networking', '--disable-sync'],
  headless: true,
});
try {
  const tab = await browser.newPage();
  const offline = [];
  // Self-contained means no request leaves the page: any is recorded and fails the test.
  await tab.setRequestInterception(true);
  tab.on('request', request => {
    if (request.url().startsWith('file:')) { request.continue(); } else { offline.push(request.url()); request.abort(); }
  });
  const errors = [];
  tab.on('pageerror', error => errors.push(String(error)));
  await tab.setViewport({ width: 1100, height: 900 });
  await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' });
  await tab.waitForSelector('body[data-rendered="true"]', { timeout: 30000 });
  const shown = await tab.evaluate(() => {
    const tables = {};
    for (const table of document.querySelectorAll('table[id]')) {
      tables[table.id] = [...table.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent));
    }
    const texts = {};
    for (const el of document.querySelectorAll('span[id], div[id]')) { texts[el.id] = el.textContent; }
    const windowValues = {};
    for (const el of document.querySelectorAll('#chart-windows text.window-value')) {
      windowValues[el.getAttribute('data-window')] = el.textContent;
    }
    return { tables, texts, windowValues, versionPoints: document.querySelectorAll('#chart-versions circle').length };
  });
  if (screenshot) {
    await tab.screenshot({ path: screenshot, fullPage: true });
  }
  process.stdout.write(JSON.stringify({ ...shown, errors, requests: offline }));
} finally {
  await browser.close();
}
