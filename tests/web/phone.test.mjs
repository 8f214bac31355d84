/**
 * The demo page on a phone (issue 53): a 390×844 touch viewport in Debian's Chromium (Firefox
 * cannot emulate touch: tests/web/_browsers.mjs), the real WASM engine and the shipped models (or
 * the fixture model). While one types, the first translated words show in the top half of the
 * screen (above where the keyboard opens); a tapped word's menu neither covers its sentence nor
 * leaves the screen; the attention map fits the screen or says that it scrolls and keeps its
 * scrollbar drawn. Positions only: no model's words are written down here.
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { engineSkip, requireEngine, resultsDir } from './_helpers.mjs';
import { launchBrowser, serveSite, SharedPage, waitFor } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const WORDLIKE = /[\p{L}\p{N}]/u;

let server;
let browser;

before(async () => {
  if (skip) return;
  ({ server } = await serveSite('phone'));
  browser = await launchBrowser('chromium');
});

after(async () => {
  await shared.close();
  if (browser) await browser.close();
  if (server) await server.close();
});

/** The phone page with the model loaded, shared by the cases (restarted for each: _browsers.mjs); its errors fail the test. */
const shared = new SharedPage();
const phonePage = (t) => shared.get(t, browser, server.url, PHONE);

/**
 * Waits for the translation of the whole text in the box (typed on after a translation, the box
 * keeps saying 'done' of the text before until the typing pause has passed).
 */
const waitDone = (page) => waitFor(page, 'the translation of the text in the box (state done, aria-busy false, data-input-length its length)',
  () => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false' && !!document.querySelector('#target .w')
    && document.getElementById('target').dataset.inputLength === String(document.getElementById('source').value.length), null, { timeout: 120000 });

/** The box of the first translated word, and the page's scroll. */
const firstWord = (page) => page.evaluate(() => {
  const r = document.querySelector('#target .w').getBoundingClientRect();
  return { top: r.top, bottom: r.bottom, scrollY: window.scrollY, height: window.innerHeight };
});

test('phone: while typing, the first translated words are in the top half of the screen', { skip, timeout: 240000 }, async (t) => {
  const page = await phonePage(t);
  await page.tap('#source');
  await page.keyboard.type('The house is small. ', { delay: 5 });
  await waitDone(page);
  const w = await firstWord(page);
  assert.equal(w.scrollY, 0, 'the page did not have to scroll');
  assert.ok(w.bottom <= w.height / 2, `the first word ends at y=${w.bottom}, above half the screen (${w.height / 2})`);
  // Three more lines of text: the text box grows, and the translation still starts in the top half.
  await page.keyboard.type('My sister bought a new car yesterday. It is red and very fast. ', { delay: 5 });
  await waitDone(page);
  const box = await page.evaluate(() => document.getElementById('source').getBoundingClientRect().height);
  const more = await firstWord(page);
  assert.ok(more.bottom <= more.height / 2, `with longer text the first word ends at y=${more.bottom}`);
  assert.ok(box <= 844 / 3 + 1, `the text box stays within a third of the screen (${box} px)`);
  await page.screenshot({ path: path.join(resultsDir(), 'web-phone.png') });
});

test('phone: a tapped word\'s menu neither covers its sentence nor leaves the screen', { skip, timeout: 240000 }, async (t) => {
  const page = await phonePage(t);
  await page.fill('#source', 'My sister bought a new car yesterday, and she drove it to the old house by the lake on Sunday.');
  await waitDone(page);
  const words = await page.$$eval('#target .sent[data-s="0"] .w', (ws) => ws.map((w) => w.textContent));
  // a word in the middle of the sentence (lines above and below it in the same sentence)
  const w = words.findIndex((x, i) => i >= words.length / 2 && WORDLIKE.test(x));
  assert.ok(w > 0, JSON.stringify(words));
  await page.tap(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
  await page.waitForSelector('#alt-menu[aria-busy="false"]', { timeout: 60000 });
  const geometry = await page.evaluate(() => {
    const m = document.getElementById('alt-menu').getBoundingClientRect();
    const sentence = [...document.querySelectorAll('#target .sent[data-s="0"] .w')].map((x) => x.getBoundingClientRect());
    const overlaps = sentence.filter((r) => r.bottom > m.top && r.top < m.bottom && r.right > m.left && r.left < m.right).length;
    return { menu: { top: m.top, bottom: m.bottom, left: m.left, right: m.right }, overlaps, width: document.documentElement.clientWidth, height: window.innerHeight };
  });
  assert.equal(geometry.overlaps, 0, `the menu covers none of the sentence's words: ${JSON.stringify(geometry)}`);
  const { menu } = geometry;
  assert.ok(menu.left >= 0 && menu.right <= geometry.width && menu.top >= 0 && menu.bottom <= geometry.height,
    `the menu is on the screen: ${JSON.stringify(geometry)}`);
});

test('phone: the attention map fits the screen, or says it scrolls and keeps its scrollbar drawn', { skip, timeout: 240000 }, async (t) => {
  const page = await phonePage(t);
  const check = async (input) => {
    await page.fill('#source', input);
    await waitDone(page);
    if (!(await page.evaluate(() => document.getElementById('attention').open))) await page.tap('#attention summary');
    await page.waitForFunction(() => document.getElementById('heatmap').width > 1, null, { timeout: 60000 });
    return page.evaluate(() => {
      const wrap = document.querySelector('.heat-wrap');
      const hint = document.getElementById('heat-scroll');
      return { fits: wrap.scrollWidth <= wrap.clientWidth + 1, scrolls: wrap.classList.contains('scrolls'), hint: !hint.hidden && hint.getBoundingClientRect().height > 0,
        right: wrap.getBoundingClientRect().right, width: document.documentElement.clientWidth, pageScrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth };
    });
  };
  const short = await check('The house is small.');
  assert.ok(short.fits && !short.scrolls && !short.hint, `a short sentence's map fits: ${JSON.stringify(short)}`);
  const long = await check('My sister bought a new car yesterday, and she drove it to the old house by the lake on Sunday with her two friends.');
  assert.ok(long.fits || (long.scrolls && long.hint), `a long sentence's map fits or says it scrolls: ${JSON.stringify(long)}`);
  assert.ok(!long.pageScrolls && long.right <= long.width, 'only the map\'s box scrolls, not the page');
});
