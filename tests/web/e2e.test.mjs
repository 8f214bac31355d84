/**
 * End-to-end tests of the demo page in Debian's Chromium and Firefox ESR (each case in both:
 * tests/web/_browsers.mjs), with the real WASM engine and the shipped models (or, before they
 * exist, the fixture model tests/fixtures/tiny.nmt).
 * The site is built into test-results/web-dist and served under a sub-path (/some/sub/path/) by
 * scripts/serve.mjs, so relative URLs, the CSP header and the service worker are tested as deployed.
 * Screenshots land in test-results/.
 *
 * NMT_WEB_TEST_ENGINE_DIR=<dir with engine.js + engine.wasm> runs these against another engine
 * build (e.g. a copy of tests/web/fake-engine.mjs, to work on the page without the real one).
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer, CSP, PAGE_CSP } from '../../scripts/serve.mjs';
import { MODEL_CACHE } from '../../web/protocol.js';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser, heavyCase, translate } from './_browsers.mjs';

const engineDir = process.env.NMT_WEB_TEST_ENGINE_DIR;
const skip = engineDir ? false : engineSkip();
if (!engineDir) requireEngine(test);
const shipped = testManifest().shipped && !engineDir;
const BASE = '/some/sub/path/';

let site;
let server;
let browser;
const problems = new WeakMap(); // context → page errors, dialogs, requests that left the origin

function buildSite() {
  const out = path.join(resultsDir(), 'web-dist');
  const args = [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'];
  if (engineDir) args.push('--engine', engineDir);
  execFileSync(process.execPath, args, { stdio: 'inherit' });
  return out;
}

before(async () => {
  if (skip) return;
  site = buildSite();
  server = await startServer({ root: site, base: BASE });
});

after(async () => {
  if (server) await server.close();
});

/** A fresh context (its own profile: no cache, no service worker) that records problems; closed after `t` (if given). */
async function newContext(t, { url = server.url, viewport = { width: 1200, height: 900 } } = {}) {
  const context = await browser.newContext({ viewport });
  if (t) t.after(() => context.close());
  const list = [];
  problems.set(context, list);
  const allowed = new URL(url).origin;
  context.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(allowed) && !u.startsWith('data:') && !u.startsWith('blob:')) list.push(`request left the origin: ${u}`);
  });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
    window.__dialogs = 0;
  });
  return context;
}

async function newPage(context) {
  const page = await context.newPage();
  const list = problems.get(context);
  page.on('pageerror', (e) => list.push(`page error: ${e.message}`));
  page.on('dialog', (d) => { list.push(`dialog opened: ${d.message()}`); d.dismiss(); });
  page.on('console', (m) => {
    if (m.type() === 'error') list.push(`console error: ${m.text()}`);
  });
  return page;
}

/** newContext + a page on `url`, waiting until the first model is loaded. */
async function openPage(t, options = {}) {
  const url = options.url || server.url;
  const context = await newContext(t, options);
  const page = await newPage(context);
  await page.goto(url);
  await waitReady(page);
  return { context, page };
}

/**
 * The page that the cases which need no first visit of their own share (one per browser; as
 * SharedPage in _browsers.mjs, with this file's problem tracking): opened once in its own context,
 * then for each case restarted: its problem list emptied, localStorage cleared (a direction a case
 * chose is forgotten), opened again (a new navigation: a reload would restore the form and the
 * scroll position), the model loaded again, as a second visit shows the page (engine and models
 * from the service worker's cache): ~0.8 s where a new context costs ~2.5 s. The cases
 * about the first visit (progress, start-up, service worker, cache, offline) or another viewport
 * open their own.
 */
let shared = null; // { context, page }
async function sharedPage() {
  if (!shared) {
    shared = await openPage(null);
    return shared;
  }
  try {
    problems.get(shared.context).length = 0; // (errors while the page restarts count for this case)
    await shared.page.evaluate(() => localStorage.clear());
    await shared.page.goto(server.url);
    await waitReady(shared.page);
    return shared;
  } catch (e) {
    await closeShared(); // (the next case starts from a new context)
    throw e;
  }
}

async function closeShared() {
  if (shared) await shared.context.close().catch(() => {});
  shared = null;
}

/** Waits until the first model is loaded; fails at once with the page's message if it cannot load. */
async function waitReady(page) {
  await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.state === 'error', null, { timeout: 60000 });
  if (await page.evaluate(() => document.body.dataset.ready !== 'true')) {
    throw new Error(`the page could not start: ${(await page.textContent('#error')).trim()}`);
  }
}

/**
 * Waits until the page's CSS transitions (the highlight's fade-in) have ended: a fixed wait is not
 * enough where a busy machine draws no frame for a while (the transition's clock stands still).
 */
const transitionsEnded = (page) => page.evaluate(() => Promise.allSettled(document.getAnimations().map((a) => a.finished)));

const checkProblems = async (page) => {
  const csp = await page.evaluate(() => window.__csp);
  assert.deepEqual(csp, [], 'no Content-Security-Policy violations');
  assert.deepEqual(problems.get(page.context()), [], 'no page errors, dialogs or requests outside the origin');
};

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { await closeShared(); if (browser) await browser.close(); browser = null; });
  const heavy = heavyCase(name, test); // (Chromium only unless NMT_ALL_BROWSERS=1: _browsers.mjs)

  test('English → German: progress bar, translation, speed, screenshot', { skip, timeout: 180000 }, async (t) => {
    const context = await newContext(t);
    // Watch the progress bar from the first paint.
    await context.addInitScript(() => {
      window.__progress = { shown: false, max: 0 };
      document.addEventListener('DOMContentLoaded', () => {
        const load = document.getElementById('load');
        const bar = document.getElementById('load-progress');
        new MutationObserver(() => {
          if (!load.hidden) window.__progress.shown = true;
          if (bar.hasAttribute('value')) window.__progress.max = Math.max(window.__progress.max, bar.value / bar.max);
        }).observe(document.body, { attributes: true, subtree: true, childList: true, characterData: true });
      });
    });
    const page = await newPage(context);
    const response = await page.goto(server.url);
    assert.equal(response.headers()['content-security-policy'], CSP);
    assert.equal(await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'), PAGE_CSP);
    assert.match(CSP, /frame-ancestors 'self'/);
    assert.match(PAGE_CSP, /form-action 'none'/);
    await waitReady(page);
    const progress = await page.evaluate(() => window.__progress);
    assert.ok(progress.shown, 'the download progress was shown');
    assert.ok(progress.max > 0.99, `the progress bar reached the end (${progress.max})`);
    assert.equal(await page.isHidden('#load'), true, 'the progress bar hides when the model is ready');

    const out = await translate(page, 'The house is small. I like it very much.');
    assert.ok(out.length > 0, 'some translation');
    if (shipped) assert.match(out, /Haus/, `a real German translation: ${out}`);
    assert.equal(await page.getAttribute('#target', 'data-sentences'), '2');
    assert.equal(await page.textContent('#stats'), `2 sentences in ${/(\d+) ms/.exec(await page.textContent('#stats'))[1]} ms`);
    assert.match(await page.getAttribute('#stats', 'title'), /\d+ tokens \(word pieces\) written, [\d.]+ tokens\/s/);
    assert.equal(await page.isEnabled('#copy'), true);
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo.png'), fullPage: true });

    // Typing fast: every keystroke aborts the previous request; the last text wins.
    await page.fill('#source', '');
    await page.type('#source', 'Good morning.', { delay: 15 });
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('align-source').textContent === 'Good morning.', null, { timeout: 60000 });
    assert.equal(await page.getAttribute('#target', 'data-sentences'), '1');
    await checkProblems(page);
  });

  heavy('German → English with the swap button, keyboard and labels', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    await page.click('#swap');
    assert.equal(await page.inputValue('#direction'), 'de-en');
    assert.equal(await page.textContent('#source-label'), 'German');
    assert.equal(await page.textContent('#target-label'), 'English');
    // What the live regions say while a text is translated: that it started and that it is done,
    // once each (not each step of the progress, nor the card's position as the card is redrawn).
    await page.evaluate(() => {
      window.__said = [];
      const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]';
      const last = new Map([...document.querySelectorAll(live)].map((r) => [r, r.textContent]));
      new MutationObserver((changes) => {
        for (const change of changes) {
          const node = change.target.nodeType === Node.ELEMENT_NODE ? change.target : change.target.parentElement;
          const region = node && node.closest(live);
          if (!region || last.get(region) === region.textContent) continue;
          last.set(region, region.textContent);
          window.__said.push(`${region.id}: ${region.textContent}`);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const out = await translate(page, 'Ich habe einen kleinen Hund. Er ist sehr freundlich.');
    assert.deepEqual(await page.evaluate(() => window.__said), ['status: Translating…', 'status: Translated: 2 sentences.']);
    assert.ok(out.length > 0);
    if (shipped) assert.match(out, /dog/i, `a real English translation: ${out}`);
    assert.equal(await page.getAttribute('#source', 'lang'), 'de');
    assert.equal(await page.getAttribute('#target', 'lang'), 'en');
    // The status line is a live region that says the translation is ready (a screen reader hears it).
    assert.equal(await page.getAttribute('#status', 'role'), 'status');
    assert.equal(await page.textContent('#status'), 'Translated: 2 sentences.');

    // Every control has an accessible name.
    const unlabelled = await page.evaluate(() => [...document.querySelectorAll('button, select, textarea, input')]
      .filter((c) => !(c.getAttribute('aria-label') || (c.labels && c.labels.length) || c.textContent.trim()))
      .map((c) => c.id || c.outerHTML.slice(0, 60)));
    assert.deepEqual(unlabelled, []);
    // › and ‹ by keyboard: the one that turns off at the end hands the focus to the other (no focus on a disabled button, or on none).
    await page.focus('#next-sent');
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent('#sent-pos'), 'Sentence 2 of 2');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'prev-sent');
    assert.equal(await page.getAttribute('#sent-said', 'aria-live'), 'polite');
    assert.equal(await page.textContent('#sent-said'), 'Sentence 2 of 2', 'the new position is said aloud');
    await page.keyboard.press('Enter');
    assert.equal(await page.textContent('#sent-pos'), 'Sentence 1 of 2');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'next-sent');
    // Keyboard: Tab order starts with the skip link, then the controls; focus is visible.
    await page.reload();
    await waitReady(page);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.className), 'skip-link');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, 'none', 'the focused control shows a focus outline');
    await checkProblems(page);
  });

  heavy('a direction chosen while the page is still starting is kept, and the text typed then is translated that way', { skip, timeout: 120000 }, async (t) => {
    const context = await newContext(t);
    // the list of models comes late, as on a slow network: the menu is already there to be used
    // (held in the page until the choice is made: a fixed delay could end before it on a busy
    // machine, and Firefox's request interception does not see a fetch its service worker answers)
    await context.addInitScript(() => {
      const fetchAsIs = window.fetch;
      const chosen = new Promise((resolve) => { window.__sendManifest = resolve; });
      window.fetch = async (input, init) => {
        if (String(input instanceof Request ? input.url : input).endsWith('models/manifest.json')) await chosen;
        return fetchAsIs.call(window, input, init);
      };
    });
    const page = await newPage(context);
    await page.goto(server.url);
    await page.selectOption('#direction', 'de-en');
    await page.fill('#source', 'Der Hund schläft im Garten.');
    assert.notEqual(await page.evaluate(() => document.body.dataset.ready), 'true', 'the page was still starting when the direction was chosen');
    await page.evaluate(() => window.__sendManifest());
    await waitReady(page);
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 120000 });
    assert.equal(await page.inputValue('#direction'), 'de-en', 'the choice was not reset to the default');
    assert.equal(await page.textContent('#source-label'), 'German');
    const out = (await page.textContent('#target')).trim();
    if (shipped) assert.match(out, /dog/i, `translated from German: ${out}`);
    await checkProblems(page);
  });

  heavy('swap while a newer text waits for its translation keeps that text: only a translation of the text in the box moves into it', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    const first = await translate(page, 'The house is small.');
    // Type a new text and swap at once, before its translation exists (in one task: nothing runs between).
    await page.evaluate(() => {
      const source = document.getElementById('source');
      source.value = 'My sister bought a new car yesterday.';
      source.dispatchEvent(new Event('input', { bubbles: true }));
      document.getElementById('swap').click();
    });
    assert.equal(await page.inputValue('#direction'), 'de-en');
    assert.equal(await page.inputValue('#source'), 'My sister bought a new car yesterday.', `the text typed stays (not the old translation ${JSON.stringify(first)})`);
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false', null, { timeout: 120000 });
    assert.equal(await page.textContent('#align-source'), 'My sister bought a new car yesterday.', 'the card shows the text that is in the box');
    // With the translation of the text in the box, swap moves it in, as before.
    const out = (await page.textContent('#target')).trim();
    await page.click('#swap');
    assert.equal(await page.inputValue('#direction'), 'en-de');
    assert.equal(await page.inputValue('#source'), out);
    await checkProblems(page);
  });

  test('hovering, tapping and focusing a word highlights its aligned words by weight', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await translate(page, 'The old man reads a book in the garden.');
    const words = await page.$$('#target .w');
    assert.ok(words.length >= 2);
    await words[1].hover();
    await transitionsEnded(page); // the highlight fades in (CSS transition)
    const hl = await page.$$eval('#align-source .w.hl', (els) => els.map((e) => ({ text: e.textContent, w: Number(e.dataset.weight), alpha: getComputedStyle(e).backgroundColor })));
    assert.ok(hl.length >= 1, 'some source words are highlighted');
    assert.equal(await page.$$eval('#target .w.self', (els) => els.length), 1, 'the hovered word is marked');
    const strongest = hl.reduce((a, b) => (b.w > a.w ? b : a));
    const detail = await page.textContent('#align-detail');
    assert.ok(detail.includes(`“${strongest.text}”`), `the description names the strongest link: ${detail} / ${strongest.text}`);
    // (in words of both languages: each marked with its own, for a screen reader's voice)
    const detailLangs = await page.$$eval('#align-detail [lang]', (els) => els.map((e) => e.lang));
    assert.deepEqual(detailLangs.slice(0, 2), ['de', 'en'], `the German word, then English ones: ${detailLangs}`);
    assert.ok(detailLangs.slice(1).every((lang) => lang === 'en'));
    const alpha = (c) => { const m = /rgba?\(([^)]+)\)/.exec(c); const p = m[1].split(',').map(Number); return p.length === 4 ? p[3] : 1; };
    const weakest = hl.reduce((a, b) => (b.w < a.w ? b : a));
    if (weakest.w < strongest.w) assert.ok(alpha(weakest.alpha) < alpha(strongest.alpha), 'stronger weights are drawn stronger');
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-alignment.png') });

    // Reverse direction: a source word lights up target words (output pane and card).
    await page.hover('#align-source .w >> nth=0');
    assert.ok(await page.$$eval('#target .w.hl', (els) => els.length) >= 1, 'target words light up for a source word');

    // Keyboard: focus a target word in the card, move with the arrows, jump to the source side.
    await page.focus('#align-target .w >> nth=0');
    assert.ok(await page.$$eval('#align-source .w.hl', (els) => els.length) >= 1);
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.w), '1');
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.side), 's');

    // The highlighted words stay readable (WCAG 1.4.3, 4.5:1) at full strength, in the output, on
    // the card and in the text box, with the light colours and with the dark ones (the style
    // sheet's prefers-color-scheme: dark values, put on the page: no browser emulation needed).
    await page.focus('#align-target .w >> nth=0');
    const lowestContrast = async () => {
      await transitionsEnded(page); // (the highlight fades in: CSS transition)
      return page.evaluate(() => {
        const rgba = (c) => { const p = /rgba?\(([^)]+)\)/.exec(c)[1].split(/[\s,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
        const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
        const lum = (c) => c.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
        const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
        const surface = rgba(getComputedStyle(document.querySelector('.card')).backgroundColor);
        const seen = [];
        const check = (node, color, need, what) => {
          const bg = over(rgba(getComputedStyle(node).backgroundColor), surface);
          seen.push({ word: `${what} of “${node.textContent}”`, ratio: ratio(over(rgba(color), bg), bg), need });
        };
        for (const w of document.querySelectorAll('.w.hl, .w.self')) check(w, getComputedStyle(w).color, 4.5, 'the text');
        for (const m of document.querySelectorAll('#source-mirror .src-mark')) check(m, getComputedStyle(document.getElementById('source')).color, 4.5, 'the text');
        // a linked word's underline (its only mark besides the colour: WCAG 1.4.1) on its highlight, 3:1 (1.4.11)
        for (const w of document.querySelectorAll('.w.linked, .src-mark.linked')) check(w, getComputedStyle(w).boxShadow, 3, 'the underline');
        return seen.sort((a, b) => a.ratio / a.need - b.ratio / b.need);
      });
    };
    const light = await lowestContrast();
    assert.ok(light.length >= 4, `highlighted words: ${JSON.stringify(light)}`);
    assert.ok(light.some((x) => x.need === 3), `a linked word: ${JSON.stringify(light)}`);
    assert.ok(light[0].ratio >= light[0].need, `light colours: ${light[0].word} has a contrast of ${light[0].ratio.toFixed(2)}`);
    await page.evaluate(() => {
      const dark = [...document.styleSheets].flatMap((s) => [...s.cssRules]).find((r) => r.media && /prefers-color-scheme:\s*dark/.test(r.media.mediaText));
      const root = dark.cssRules[0].style;
      for (const name of root) document.documentElement.style.setProperty(name, root.getPropertyValue(name));
    });
    const dark = await lowestContrast();
    await page.evaluate(() => document.documentElement.removeAttribute('style'));
    assert.ok(dark[0].ratio >= dark[0].need, `dark colours: ${dark[0].word} has a contrast of ${dark[0].ratio.toFixed(2)}`);
    // Forced colours (a high contrast theme) take the highlight's colours away: it must still show
    // (Chromium: Firefox ESR over WebDriver BiDi cannot emulate the media feature).
    if (page.emulateMedia) {
      await page.emulateMedia({ forcedColors: 'active' });
      const forced = await page.evaluate(() => ({
        card: getComputedStyle(document.querySelector('.card')).backgroundColor,
        self: getComputedStyle(document.querySelector('#align-target .w.self')).backgroundColor,
        unmarked: [...document.querySelectorAll('#align-source .w.hl, #source-mirror .src-mark')]
          .filter((w) => getComputedStyle(w).outlineStyle === 'none').map((w) => w.textContent),
      }));
      await page.emulateMedia({ forcedColors: 'none' });
      assert.notEqual(forced.self, forced.card, 'forced colours: the focused word stands out from the card');
      assert.deepEqual(forced.unmarked, [], 'forced colours: every aligned word and text-box mark is outlined');
    }
    await page.focus('#align-target .w >> nth=1');
    await page.keyboard.press('ArrowUp');

    // Tap (click) pins the highlight; moving the mouse away keeps it; tapping again releases it.
    await page.click('#target .w >> nth=0');
    await page.mouse.move(5, 5);
    assert.ok(await page.$$eval('.w.hl', (els) => els.length) >= 1, 'a tapped word stays highlighted');

    // Emptying the text box empties the sentence card too, not only the output pane.
    await page.fill('#source', '');
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    assert.equal(await page.textContent('#sent-pos'), 'No sentence yet');
    assert.equal(await page.textContent('#align-source'), '', 'no source words of the old sentence');
    assert.equal(await page.textContent('#align-target'), '', 'no target words of the old sentence');
    assert.equal(await page.$$eval('.w.hl', (els) => els.length), 0, 'no highlight left');
    await checkProblems(page);
  });

  test('right-to-left text in the text boxes runs right to left, its highlight in the text box too', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    const rtl = (selector) => page.$eval(selector, (e) => e.matches(':dir(rtl)'));
    assert.equal(await rtl('#source'), false);
    await translate(page, 'שלום עולם. הבית קטן.');
    assert.equal(await rtl('#source'), true, 'the text box writes Hebrew right to left');
    // the first word's mark in the text box lies where the word is: at the right
    await page.focus('#align-source .w >> nth=0');
    const boxes = await page.evaluate(() => ({
      box: document.getElementById('source').getBoundingClientRect().toJSON(),
      self: document.querySelector('#source-mirror .src-mark.self').getBoundingClientRect().toJSON(),
    }));
    assert.ok(boxes.self.left > boxes.box.left + boxes.box.width / 2, `the mark at the right: ${JSON.stringify(boxes)}`);
    await page.click('#terms summary');
    await page.fill('#terms-text', 'שלום = Hallo');
    assert.equal(await rtl('#terms-text'), true, 'the Terms box too');
    await page.fill('#terms-text', '');
    await checkProblems(page);
  });

  test('a highlight in a long text box scrolled elsewhere scrolls it into view', { skip, timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#beam', '1');
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the text.`);
    lines[29] = 'The old man reads a book in the garden.';
    await translate(page, lines.join('\n'));
    await page.evaluate(() => { document.getElementById('source').scrollTop = 0; });
    const last = await page.$$eval('#target .sent', (els) => els.length - 1);
    await page.hover(`#target .sent[data-s="${last}"] .w >> nth=1`);
    const view = await page.evaluate(() => {
      const box = document.getElementById('source');
      const r = box.getBoundingClientRect();
      const marks = [...document.querySelectorAll('#source-mirror mark')].map((m) => m.getBoundingClientRect());
      return { scrollTop: box.scrollTop, marks: marks.length, inView: marks.some((m) => m.bottom > r.top && m.top < r.bottom) };
    });
    assert.ok(view.marks >= 1, 'the aligned source words are marked in the text box');
    assert.ok(view.scrollTop > 0, 'the text box scrolled down to them');
    assert.ok(view.inView, 'a mark is inside the visible part of the text box');
    // a mark already in view does not move the text box
    const before = view.scrollTop;
    await page.hover(`#target .sent[data-s="${last}"] .w >> nth=2`);
    assert.equal(await page.evaluate(() => document.getElementById('source').scrollTop), before);
    await checkProblems(page);
  });

  test('the attention heatmap shows the mean and every layer/head with token labels', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await translate(page, 'Where is the station?');
    await page.click('#attention summary');
    // (the menu holds the average and the word links from the start: the heads come when the worker sends them)
    await page.waitForFunction(() => / heads$|not available|no per-head|Could not/.test(document.getElementById('heat-status').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent('#heat-status'), / heads$/, 'every head is shown');
    const options = await page.$$eval('#head-select option', (os) => os.map((o) => o.textContent));
    assert.ok(options.some((o) => /Layer 1, head 1/.test(o)), options.join(' | '));
    const canvas = await page.evaluate(() => {
      const c = document.getElementById('heatmap');
      const ctx = c.getContext('2d');
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4 * 97) colours.add(`${data[i]},${data[i + 1]},${data[i + 2]},${data[i + 3]}`);
      return { rows: Number(c.dataset.rows), cols: Number(c.dataset.cols), colours: colours.size, label: c.getAttribute('aria-label'), w: c.width, h: c.height };
    });
    assert.ok(canvas.rows >= 2 && canvas.cols >= 2, JSON.stringify(canvas));
    assert.ok(canvas.colours > 4, 'the heatmap is drawn');
    assert.match(canvas.label, /average of the heads/);
    assert.match(canvas.label, /Translation: .*\| end of sentence\.$/, 'the labels are words, the special token named');
    assert.doesNotMatch(canvas.label, /▁|<\/s>/);
    await page.selectOption('#head-select', '0:0');
    assert.match(await page.getAttribute('#heatmap', 'aria-label'), /layer 1, head 1/);
    // the word links the highlight shows: the translation's words by the source's, no special token
    await page.selectOption('#head-select', 'links');
    const links = await page.getAttribute('#heatmap', 'aria-label');
    assert.match(links, /word links, as the highlight shows them/);
    assert.match(links, /Your text: Where \| is \| the \| station \| \?/);
    assert.doesNotMatch(links, /end of sentence/);
    await page.selectOption('#head-select', '0:0');
    // Reading a cell with the keyboard.
    await page.focus('#heatmap');
    await page.keyboard.press('ArrowDown');
    assert.match(await page.textContent('#heat-cell'), /^writing “.+”, the model looked at “.+”: \d\.\d{3}$/);
    assert.deepEqual(await page.$$eval('#heat-cell [lang]', (els) => els.map((e) => e.lang)), ['de', 'en'], 'the words read out in their languages');
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-heatmap.png'), fullPage: true });
    // Another sentence: the cell read out was one of the old map's.
    await page.fill('#source', 'The house is small.');
    await page.waitForFunction(() => document.getElementById('align-source').textContent === 'The house is small.', null, { timeout: 60000 });
    assert.equal(await page.textContent('#heat-cell'), '', 'no cell of the old sentence is read out');
    // Emptying the box leaves nothing of the old map: its status, its layers, the canvas's words.
    await page.waitForFunction(() => / heads$|not available|no per-head|Could not/.test(document.getElementById('heat-status').textContent), null, { timeout: 60000 });
    await page.fill('#source', '');
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    assert.equal(await page.textContent('#heat-status'), '', 'no status of the old sentence\'s heads');
    assert.deepEqual(await page.$$eval('#head-select option', (os) => os.map((o) => o.value)), ['mean', 'links'], 'no layers of the old sentence');
    assert.equal(await page.getAttribute('#heatmap', 'aria-label'), 'Attention map', 'the empty map names no words');
    assert.equal(await page.textContent('#heat-cell'), '');
    assert.equal(await page.textContent('#sent-confidence'), '');
    assert.equal(await page.getAttribute('#sent-confidence', 'title'), null, 'no tooltip of the old sentence\'s confidence');
    await checkProblems(page);
  });

  heavy('a late answer about the heads of a sentence no longer shown leaves the heatmap of the one shown alone', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    await translate(page, 'The house is small. It is very old.');
    // The first request for the heads waits, then fails (as a worker that died would): by then the card shows sentence 2.
    await page.evaluate(async () => {
      const { state } = await import('./app/state.js');
      const translator = await state.translators.get('en-de');
      const translate = translator.translate.bind(translator);
      let fail;
      const failed = new Promise((resolve) => { fail = resolve; });
      window.__failFirstHeads = fail;
      let first = true;
      translator.translate = (text, options) => {
        if (!(first && options && options.allHeads)) return translate(text, options);
        first = false;
        return failed.then(() => { throw new Error('a late failure'); });
      };
    });
    await page.click('#attention summary');
    await page.waitForFunction(() => /Loading/.test(document.getElementById('heat-status').textContent));
    await page.click('#next-sent');
    await page.waitForFunction(() => document.getElementById('sent-pos').textContent === 'Sentence 2 of 2' &&
      / heads$/.test(document.getElementById('heat-status').textContent), null, { timeout: 60000 });
    const heads = await page.textContent('#heat-status');
    await page.evaluate(() => window.__failFirstHeads());
    await page.waitForTimeout(200);
    assert.equal(await page.textContent('#heat-status'), heads, 'sentence 2\'s heads stay shown');
    assert.ok(await page.$$eval('#head-select option', (os) => os.length) > 2, 'with their layers');
    await checkProblems(page);
  });

  heavy('the heatmap\'s layers and heads label their rows with the translation shown, also where a sentence comes out otherwise alone (Fast)', { skip, timeout: 240000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    await page.selectOption('#beam', '1'); // Fast: a chunk's sentences are decoded over one shortlist
    // flores-dev lines 13-16: alone, the second one is translated otherwise by the shipped model's Fast search
    const input = 'He recently lost against Raonic in the Brisbane Open. Nadal bagged 88% net points in the match winning 76 points in the first serve. ' +
      'After the match, King of Clay said, "I am just excited about being back in the final rounds of the most important events. I am here to try to win this." ' +
      '"Panama Papers" is an umbrella term for roughly ten million documents from Panamanian law firm Mossack Fonseca, leaked to the press in spring 2016.';
    await translate(page, input);
    await page.click('#attention summary');
    const rowsOf = async (value) => {
      await page.selectOption('#head-select', value);
      const m = /Translation: (.*)\.$/.exec(await page.getAttribute('#heatmap', 'aria-label'));
      return m && m[1];
    };
    const n = Number(await page.getAttribute('#target', 'data-sentences'));
    assert.ok(n >= 4, `${n} sentences`);
    for (let i = 0; i < n; i++) {
      if (i > 0) await page.click('#next-sent');
      await page.waitForFunction((i) => document.getElementById('sent-pos').textContent.startsWith(`Sentence ${i + 1} `) &&
        / heads$|not available|no per-head|Could not/.test(document.getElementById('heat-status').textContent), i, { timeout: 60000 });
      assert.match(await page.textContent('#heat-status'), / heads$/, `sentence ${i + 1}: every head is shown`);
      const mean = await rowsOf('mean');
      const values = await page.$$eval('#head-select option', (os) => os.map((o) => o.value).filter((v) => v !== 'mean' && v !== 'links'));
      assert.ok(values.length > 1);
      for (const v of values) assert.equal(await rowsOf(v), mean, `sentence ${i + 1}, layer/head ${v}: the rows are the translation shown`);
    }
    await checkProblems(page);
  });

  heavy('Best search: the beam is reranked by the reverse model, which loads on demand', { skip: skip || (!shipped && 'needs the shipped models of both directions'), timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    const plain = await translate(page, 'The weather is nice today. My sister lives in Berlin.');
    await page.selectOption('#beam', '4r');
    await page.waitForFunction(() => document.getElementById('model-dl').textContent.includes('Reranking'), null, { timeout: 120000 });
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 120000 });
    const reranked = (await page.textContent('#target')).trim();
    assert.match(reranked, /Wetter/, reranked);
    assert.match(reranked, /Berlin/, reranked);
    assert.match(await page.textContent('#model-dl'), /English → German model \(.*\) checks|German → English model \(.*\) checks/);
    assert.ok(plain.length > 0);
    await checkProblems(page);
  });

  test('model text is always shown as text, never run as HTML', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    const evil = '<img src=x onerror=alert(1)>';
    await translate(page, evil);
    assert.equal(await page.$$eval('main img, main script, main iframe', (els) => els.length), 0, 'no element was created from the text');
    assert.equal(await page.$$eval('#target *', (els) => els.filter((e) => e.tagName !== 'SPAN').length), 0);
    const shown = await page.textContent('#align-source');
    assert.ok(shown.includes('<img') && shown.includes('onerror'), `the source row shows the markup as text: ${shown}`);
    await page.fill('#source', 'I love 🍕🍕!');
    assert.equal(await page.textContent('#count'), '10 characters', 'an emoji counts as one character');
    await checkProblems(page);
  });

  test('a 20,000-character paste: the page stays responsive and every paragraph is translated', { skip, timeout: 300000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#beam', '1');
    const sentences = ['The weather was cold and the streets were empty.', 'She opened the window and looked at the river.',
      'Many people work in the city but live in the country.', 'The children played in the park until it was dark.',
      'He wrote a long letter to his brother.', 'We need more time to finish the project.'];
    const paragraphs = [];
    let length = 0;
    for (let i = 0; length < 20000; i++) {
      const p = Array.from({ length: 3 }, (_, k) => sentences[(i + k) % sentences.length]).join(' ');
      paragraphs.push(p);
      length += p.length + 2;
    }
    const text = paragraphs.join('\n\n').slice(0, 20000).replace(/\s+\S*$/, '.');
    const expected = text.split('\n\n').length;
    const t0 = Date.now();
    await page.fill('#source', text);
    await page.waitForFunction(() => document.body.dataset.state === 'translating');
    // Probe the main thread: timers and animation frames keep running while the worker translates.
    // The same timers in a Web Worker of their own measure what the machine's load alone does to a
    // timer (on 2 busy cores every thread waits its turn: 17-164 ms measured here): the page's own work
    // is what makes the main thread's timers later than those.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path.join(site, 'e2e-timer-probe.js'), `let maxLate = 0; let last = performance.now(); let running = true;
const tick = () => { const now = performance.now(); maxLate = Math.max(maxLate, now - last - 50); last = now; if (running) setTimeout(tick, 50); };
setTimeout(tick, 50);
onmessage = () => { running = false; postMessage(maxLate); };
`);
    await page.evaluate(() => {
      window.__probe = { maxLate: 0, frames: 0, running: true, longTasks: [] };
      window.__probeWorker = new Worker('e2e-timer-probe.js');
      if (PerformanceObserver.supportedEntryTypes.includes('longtask')) {
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__probe.longTasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
      }
      let last = performance.now();
      const tick = () => {
        const now = performance.now();
        window.__probe.maxLate = Math.max(window.__probe.maxLate, now - last - 50);
        last = now;
        if (window.__probe.running) setTimeout(tick, 50);
      };
      setTimeout(tick, 50);
      const frame = () => { window.__probe.frames += 1; if (window.__probe.running) requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    });
    // While it translates, the page still reacts: a real click is handled at once (input delay =
    // handler start - the event's timestamp).
    await page.waitForTimeout(200);
    await page.evaluate(() => {
      document.querySelector('#model-info summary').addEventListener('click', (e) => {
        window.__clickDelay = performance.now() - e.timeStamp;
        window.__clickState = document.body.dataset.state;
      }, { once: true });
    });
    await page.click('#model-info summary');
    const { clickMs, clickState } = await page.evaluate(() => ({ clickMs: window.__clickDelay, clickState: window.__clickState }));
    assert.equal(await page.evaluate(() => document.getElementById('model-info').open), true, 'the click opened the details');
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 280000 });
    const elapsed = Date.now() - t0;
    const probe = await page.evaluate(async () => {
      window.__probe.running = false;
      const worker = window.__probeWorker;
      window.__probe.workerMaxLate = await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.postMessage('stop'); });
      worker.terminate();
      return window.__probe;
    });
    const out = await page.textContent('#target');
    const outParas = out.split('\n\n');
    assert.equal(outParas.length, expected, 'one output paragraph per input paragraph');
    assert.ok(outParas.every((p) => p.trim().length > 0), 'no paragraph is empty');
    const nSent = Number(await page.getAttribute('#target', 'data-sentences'));
    assert.ok(nSent >= expected, `${nSent} sentences for ${expected} paragraphs`);
    t.diagnostic(`20,000 characters: ${nSent} sentences in ${elapsed} ms; timers at most ${Math.round(probe.maxLate)} ms late (a worker's ${Math.round(probe.workerMaxLate)} ms); `
      + `${probe.frames} frames; click handled after ${Math.round(clickMs)} ms (page state: ${clickState}); long tasks: ${probe.longTasks.sort((a, b) => b - a).slice(0, 5).join(', ') || 'none seen'}`);
    // Nothing the page does holds its main thread for a second: timers and a click wait no more
    // than a second beyond what the machine's load makes a worker's timers wait.
    assert.ok(probe.maxLate < 1000 + probe.workerMaxLate, `timers ran late by at most ${Math.round(probe.maxLate)} ms (a worker's: ${Math.round(probe.workerMaxLate)} ms)`);
    assert.ok(clickMs < 1000 + probe.workerMaxLate, `a click was handled in ${Math.round(clickMs)} ms during the translation (a worker's timers: ${Math.round(probe.workerMaxLate)} ms late)`);
    await checkProblems(page);
  });

  heavy('Stop (and Escape) end a long translation at once: what was drawn stays, nothing arrives after it', { skip, timeout: 240000 }, async (t) => {
    const { page } = await sharedPage();
    // Long enough (200 sentences, ~5 s on 2 cores) that the translation cannot end before the click;
    // every paragraph differs between the two runs (replaceAll).
    const text = Array.from({ length: 200 }, (_, i) => `Paragraph ${i + 1}: the weather was cold and the streets were empty, so we stayed at home and read.`).join('\n\n');
    assert.equal(await page.isVisible('#stop'), false, 'no Stop button while nothing runs');
    const stopped = async (how) => {
      await page.fill('#source', text.replaceAll('cold', how));
      await page.waitForFunction(() => document.body.dataset.state === 'translating');
      assert.equal(await page.isVisible('#stop'), true, 'Stop shows while it translates');
      await page.waitForFunction(() => document.querySelectorAll('#target .sent').length >= 1, null, { timeout: 60000 });
      if (how === 'button') await page.click('#stop');
      else await page.press('#source', 'Escape');
      assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle', how);
      assert.equal(await page.textContent('#status'), 'Stopped.');
      assert.equal(await page.isVisible('#stop'), false);
      assert.equal(await page.getAttribute('#target', 'aria-busy'), 'false');
      const drawn = await page.textContent('#target');
      await page.waitForTimeout(3000);
      assert.equal(await page.textContent('#status'), 'Stopped.', `${how}: no late answer`);
      assert.equal(await page.textContent('#target'), drawn, `${how}: what was drawn stays as it was`);
    };
    await stopped('button');
    await stopped('Escape');
    // the next edit translates again
    assert.match(await translate(page, 'The house is small.'), /Haus|klein|\S/);
    assert.equal(await page.textContent('#status'), 'Translated: 1 sentence.');
    await checkProblems(page);
  });

  test('without WebAssembly SIMD the page says so', { skip, timeout: 60000 }, async (t) => {
    const context = await newContext(t);
    await context.addInitScript(() => { WebAssembly.validate = () => false; });
    const page = await context.newPage();
    await page.goto(server.url);
    await page.waitForSelector('#error:not([hidden])');
    assert.match(await page.textContent('#error'), /WebAssembly SIMD/);
  });

  test('the module in a page: a dead worker is replaced on the next call', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    const r = await page.evaluate(async () => {
      const { Translator } = await import('./translator.js');
      const tr = await Translator.create({ from: 'en', to: 'de' });
      tr._crashWorkerForTest();
      let error = null;
      try { await tr.translate('A sentence that will not finish.'); } catch (e) { error = `${e.code}: ${e.message}`; }
      const again = await tr.translate('It works again.');
      tr.dispose();
      return { error, again: again.text };
    });
    assert.match(String(r.error), /^worker-died: The translation worker failed: .*test crash.*next request starts a new worker/);
    assert.ok(r.again.length > 0);
  });

  heavy('a translation that fails shows its error, not the translation of the text before', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await translate(page, 'The house is small.');
    // the page's worker dies (as when a phone runs out of memory) under the next request, which fails; the one after starts a new worker
    await page.evaluate(async () => {
      const { state } = await import('./app/state.js');
      const translator = await state.translators.get('en-de');
      const source = document.getElementById('source');
      source.value = 'It is very old.';
      translator._crashWorkerForTest();
      source.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true })); // (Ctrl+Enter: at once)
    });
    await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 60000 });
    assert.match(await page.textContent('#error'), /worker failed/);
    assert.equal(await page.textContent('#target'), '', 'no translation of the text before');
    assert.equal(await page.textContent('#sent-pos'), 'No sentence yet');
    assert.equal(await page.isEnabled('#copy'), false, 'nothing to copy');
    assert.equal(await page.getAttribute('#target', 'data-input-length'), null, 'the output says it shows no text\'s translation');
    // Clear: the error was about a text no longer there
    await page.click('#clear');
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
    assert.equal(await page.isVisible('#error'), false, 'no error once the box is emptied');
    await page.fill('#source', 'It is very old.');
    await page.keyboard.down('Control');
    await page.keyboard.press('Enter'); // (Ctrl+Enter translates again at once)
    await page.keyboard.up('Control');
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 60000 });
    assert.match(await page.textContent('#target'), /\S/, 'the next request translates');
    assert.equal(await page.isVisible('#error'), false);
    // The worker dies in the middle of a long text: the sentences of it already drawn stay under the error.
    const long = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1}: the weather was cold and the streets were empty, so we stayed at home.`).join('\n\n');
    await page.evaluate(async (long) => {
      const { state } = await import('./app/state.js');
      const translator = await state.translators.get('en-de');
      const target = document.getElementById('target');
      new MutationObserver((_, observer) => {
        if (!target.querySelector('.sent')) return;
        observer.disconnect();
        translator._crashWorkerForTest();
      }).observe(target, { childList: true });
      const source = document.getElementById('source');
      source.value = long;
      source.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    }, long);
    await page.waitForFunction(() => document.body.dataset.state !== 'translating', null, { timeout: 120000 });
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'error');
    assert.ok(await page.evaluate(() => document.querySelectorAll('#target .sent').length) >= 1, 'what was translated of the text before the error stays');
  });

  test('offline: a second visit with the server gone translates from the service worker cache', { skip, timeout: 180000 }, async (t) => {
    // A server of its own (another port = another origin = a fresh service worker), stopped midway.
    const own = await startServer({ root: site, base: BASE });
    let stopped = false;
    t.after(() => (stopped ? null : own.close()));
    const { context, page } = await openPage(t, { url: own.url });
    await translate(page, 'Good evening.');
    await page.waitForSelector('html[data-offline="ready"]', { timeout: 120000 });
    assert.equal(await page.isVisible('#bench-link'), true, 'online: the benchmark link is there');
    assert.equal(await page.evaluate(() => !!navigator.serviceWorker.controller), true);
    await own.close();
    stopped = true;
    await context.setOffline(true);
    await page.reload();
    await waitReady(page);
    const out = await translate(page, 'The house is small.');
    assert.ok(out.length > 0);
    if (shipped) assert.match(out, /Haus/);
    // bench.html is not saved for offline use: its link is hidden rather than leading to an error page
    assert.equal(await page.isVisible('#bench-link'), false, 'offline: no link to a page that cannot load');
    // The worker read the model straight from the service worker's model cache (not through a fetch
    // the service worker answers, ~2.5x slower), and still checked it against the manifest's SHA-256.
    const info = await page.evaluate(async () => {
      const { Translator } = await import('./translator.js');
      const t = await Translator.create({ from: 'en', to: 'de' });
      const i = t.info;
      t.dispose();
      return { source: i.source, bytes: i.file_bytes };
    });
    assert.equal(info.source, 'cache');
    assert.ok(info.bytes > 0);
    // The other direction was cached too.
    await page.selectOption('#direction', 'de-en');
    assert.ok((await translate(page, 'Das Haus ist klein.')).length > 0);
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-offline.png') });
    await checkProblems(page);
  });

  heavy('a damaged model in the cache is dropped and downloaded again', { skip, timeout: 180000 }, async (t) => {
    const { page } = await openPage(t);
    await page.waitForSelector('html[data-offline="ready"]', { timeout: 120000 });
    // Flip every byte of every cached model (same size, so only the SHA-256 check can catch it).
    const damaged = await page.evaluate(async (modelCache) => {
      const cache = await caches.open(modelCache);
      const keys = await cache.keys();
      for (const request of keys) {
        const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
        for (let i = 0; i < bytes.length; i++) bytes[i] ^= 0xff;
        await cache.put(request, new Response(bytes));
      }
      return keys.length;
    }, MODEL_CACHE);
    assert.ok(damaged >= 1, 'the models were cached');
    const start = () => page.evaluate(async () => {
      const { Translator } = await import('./translator.js');
      const tr = await Translator.create({ from: 'en', to: 'de' });
      const out = await tr.translate('The house is small.');
      const source = tr.info.source;
      tr.dispose();
      return { source, text: out.text };
    });
    const first = await start();
    assert.equal(first.source, 'network', 'the damaged copy is not used');
    assert.ok(first.text.length > 0);
    if (shipped) assert.match(first.text, /Haus/);
    // The fresh download went back into the cache (the service worker stores it as it passes).
    let again = await start();
    for (let i = 0; i < 20 && again.source !== 'cache'; i++) {
      await page.waitForTimeout(250);
      again = await start();
    }
    assert.equal(again.source, 'cache', 'the good copy is cached again');
    assert.equal(again.text, first.text);
    await checkProblems(page);
  });

  heavy('a model that cannot be downloaded: its error shows at the start, goes with Clear, and comes back with the next text', { skip, timeout: 120000 }, async (t) => {
    // A server of its own whose English → German model answers 404 (the page reads the rest from the site as built).
    const { models } = JSON.parse(readFileSync(path.join(site, 'models/manifest.json'), 'utf8'));
    const enDe = models.find((m) => m.from === 'en' && m.to === 'de');
    const own = await startServer({ root: site, base: BASE, routes: { [`models/${enDe.file}`]: path.join(site, 'models/no-such-model.nmt') } });
    t.after(() => own.close());
    const context = await newContext(t, { url: own.url });
    const page = await newPage(context);
    await page.goto(own.url);
    await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 60000 });
    assert.match(await page.textContent('#error'), /Could not download .*404/);
    await page.click('#clear');
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'idle');
    assert.equal(await page.isVisible('#error'), false, 'no error once the box is emptied');
    // the next text tries the download again, and says it failed again
    await page.fill('#source', 'The house is small.');
    await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 60000 });
    assert.match(await page.textContent('#error'), /Could not download .*404/);
    // typing on: each pause tries again and fails the same way; the alert says it once, not at every pause
    await page.evaluate(() => {
      window.__alerts = 0;
      window.__failures = 0;
      new MutationObserver(() => { window.__alerts += 1; }).observe(document.getElementById('error'), { childList: true, characterData: true, subtree: true });
      new MutationObserver(() => { if (document.body.dataset.state === 'error') window.__failures += 1; }).observe(document.body, { attributes: true, attributeFilter: ['data-state'] });
    });
    await page.fill('#source', 'The house is small. It is old.');
    await page.waitForFunction(() => window.__failures >= 1, null, { timeout: 60000 });
    await page.fill('#source', 'The house is small. It is very old.');
    await page.waitForFunction(() => window.__failures >= 2, null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => window.__alerts), 0, 'the error stays as it was');
    assert.match(await page.textContent('#error'), /Could not download .*404/);
    await page.click('#clear');
    assert.equal(await page.isVisible('#error'), false);
  });

  test('phone width: nothing overflows, the panes stack', { skip, timeout: 120000 }, async (t) => {
    const { page } = await openPage(t, { viewport: { width: 375, height: 800 } });
    await translate(page, 'This page works on a small screen too.');
    const layout = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      source: document.getElementById('source').getBoundingClientRect(),
      target: document.getElementById('target').getBoundingClientRect(),
    }));
    assert.ok(layout.scroll <= 375, `page width ${layout.scroll}`);
    assert.ok(layout.target.top >= layout.source.bottom, 'the output is below the input');
    // The menus show their choice whole (WCAG 1.4.10 reflow: at 320 px too): each as wide as
    // itself with only its chosen option needs.
    const cutMenus = (page) => page.$$eval('.toolbar select', (menus) => menus.map((menu) => {
      const alone = menu.cloneNode(false);
      alone.removeAttribute('id');
      alone.append(menu.selectedOptions[0].cloneNode(true));
      alone.style.cssText = 'width: auto; position: absolute; visibility: hidden';
      menu.parentElement.append(alone);
      const need = alone.offsetWidth;
      alone.remove();
      return menu.offsetWidth + 1 < need ? `${menu.id} “${menu.selectedOptions[0].text}”: ${menu.offsetWidth} of ${need} px` : null;
    }).filter(Boolean));
    const narrow = (await openPage(t, { viewport: { width: 320, height: 640 } })).page;
    for (const p of [page, narrow]) {
      for (const quality of ['1', '4', '4r']) {
        await p.selectOption('#beam', quality);
        assert.deepEqual(await cutMenus(p), [], `at ${await p.evaluate(() => innerWidth)} px`);
      }
      assert.ok(await p.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
    }
    // At 320 px a long sentence's attention map is wider than its box: the cell the arrow keys move
    // to is scrolled into sight (the map's own focus indicator).
    await narrow.selectOption('#beam', '4');
    await translate(narrow, 'The committee will publish its detailed report on the economic situation of small businesses next month.');
    await narrow.click('#attention summary');
    await narrow.waitForFunction(() => / heads$|not available|no per-head|Could not/.test(document.getElementById('heat-status').textContent), null, { timeout: 60000 });
    const columns = Number(await narrow.getAttribute('#heatmap', 'data-cols'));
    await narrow.focus('#heatmap');
    for (let j = 1; j < columns; j++) await narrow.keyboard.press('ArrowRight');
    const last = await narrow.evaluate(() => {
      const canvas = document.getElementById('heatmap');
      const [rowLabels, , cell] = canvas.dataset.grid.split(' ').map(Number);
      const map = canvas.getBoundingClientRect();
      const box = canvas.parentElement.getBoundingClientRect();
      const left = map.left + rowLabels + (Number(canvas.dataset.cols) - 1) * cell;
      return { left, right: left + cell, boxLeft: box.left, boxRight: box.right, scrolls: canvas.parentElement.scrollWidth > canvas.parentElement.clientWidth };
    });
    assert.ok(last.scrolls, 'the map is wider than its box');
    assert.ok(last.left >= last.boxLeft && last.right <= last.boxRight, `the last column's cell is in sight: ${JSON.stringify(last)}`);
    await page.tap?.('#target .w >> nth=0').catch(() => {});
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-phone.png'), fullPage: true });
    await checkProblems(page);
  });

  test('text twice as large (the reader\'s font size): the page\'s text follows, nothing runs off sideways, the skip link stays out of sight until focused', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await translate(page, 'The old man reads a book in the garden.');
    const sizes = () => page.evaluate(() => ['body', '#copy', '#align-hint', '#align-target', '#source']
      .map((selector) => parseFloat(getComputedStyle(document.querySelector(selector)).fontSize)));
    const normal = await sizes();
    await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; }); // (as a browser's default font size of 32 px)
    assert.deepEqual(await sizes(), normal.map((px) => px * 2), 'every text twice as large');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no sideways scrolling');
    const skipLink = () => page.$eval('.skip-link', (a) => a.getBoundingClientRect().toJSON());
    assert.ok((await skipLink()).bottom <= 0, `the skip link is out of sight: ${JSON.stringify(await skipLink())}`);
    await page.focus('.skip-link');
    assert.ok((await skipLink()).top >= 0, 'and in sight when focused');
    await checkProblems(page);
  });

  heavy('About the models: plain words on the data and what the models get wrong, no raw JSON', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await translate(page, 'The house is small.');
    await page.click('#model-info summary');
    await page.waitForFunction(() => document.getElementById('model-dl').textContent.includes('Training'), null, { timeout: 60000 });
    const about = await page.textContent('#model-info');
    assert.match(about, /What they get wrong/);
    if (shipped) {
      // The list is the model card's (weights/card.json's limitations), each with its example.
      const { limitations } = JSON.parse(readFileSync(path.join(ROOT, 'weights/card.json'), 'utf8'));
      const items = await page.$$eval('#about-limits li', (lis) => lis.map((li) => li.textContent));
      assert.equal(items.length, limitations.items.length);
      limitations.items.forEach((item, i) => {
        assert.ok(items[i].startsWith(`${item.title}. ${item.text}`), items[i]);
        assert.ok(items[i].includes(`“${item.example.source}” → “${item.example.output}”`), items[i]);
      });
    }
    assert.match(about, /never\s+leaves your device/);
    assert.doesNotMatch(about, /[{]"|"history"|valid_nll/, 'no raw provenance JSON');
    const height = await page.evaluate(() => document.getElementById('model-info').getBoundingClientRect().height);
    assert.ok(height < 1700, `the open section is ${height} px tall (limitations with an example each included)`);
    await checkProblems(page);
  });

  heavy('language hint: German typed into the English box offers German → English, by keyboard too', { skip: skip || (!shipped && 'needs the shipped models of both directions'), timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    assert.equal(await page.inputValue('#direction'), 'en-de');
    await page.fill('#source', 'Short');
    assert.equal(await page.isVisible('#lang-hint'), false, 'no hint for too little text');
    await translate(page, 'Das Haus ist klein, aber der Garten ist sehr schön.');
    assert.equal(await page.isVisible('#lang-hint'), true);
    assert.match(await page.textContent('#lang-hint'), /This looks like German\.\s*Translate German → English/);
    // keyboard only: focus the offer and press Enter
    await page.focus('#lang-hint-accept');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('direction').value === 'de-en');
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 120000 });
    assert.match(await page.textContent('#target'), /house|garden/i);
    assert.equal(await page.isVisible('#lang-hint'), false, 'the hint goes once the direction fits');
    assert.equal(await page.inputValue('#source'), 'Das Haus ist klein, aber der Garten ist sehr schön.', 'the text stays');
    // English in the German box: offered the other way; Escape keeps the direction and the hint stays away
    await page.fill('#source', 'The weather is nice today and we are going to the park.');
    await page.waitForSelector('#lang-hint', { state: 'visible' });
    assert.match(await page.textContent('#lang-hint-accept'), /English → German/);
    await page.focus('#lang-hint-accept');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#lang-hint'), false);
    assert.equal(await page.inputValue('#direction'), 'de-en');
    await page.dispatchEvent('#source', 'input');
    assert.equal(await page.isVisible('#lang-hint'), false, 'dismissed for this text');
    // the offer with the keyboard focus on it goes when the direction changes otherwise (swap): the focus goes to the text box
    const hidden = await page.evaluate(() => {
      const source = document.getElementById('source');
      source.value = 'The train to Hamburg leaves later today because it is snowing.';
      source.dispatchEvent(new Event('input', { bubbles: true }));
      document.getElementById('lang-hint-accept').focus();
      const focused = document.activeElement.id;
      document.getElementById('swap').click();
      return { focused, hint: document.getElementById('lang-hint').hidden };
    });
    assert.deepEqual(hidden, { focused: 'lang-hint-accept', hint: true });
    assert.equal(await page.inputValue('#direction'), 'en-de');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'source', 'the focus is on the text box');
    await checkProblems(page);
  });

  heavy('language hint: "Keep" holds while the person goes on writing the same text; another text is offered again', { skip: skip || (!shipped && 'needs the shipped models of both directions'), timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    await page.fill('#source', 'Das Haus ist klein, aber der Garten ist sehr schön.');
    await page.waitForSelector('#lang-hint', { state: 'visible' });
    await page.click('#lang-hint-dismiss');
    assert.equal(await page.isVisible('#lang-hint'), false);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'source', 'focus goes back to the text box');
    // Typing on (at the end, and a correction in the middle) does not bring the offer back.
    await page.keyboard.press('End');
    await page.keyboard.type(' Wir sitzen oft dort.', { delay: 5 });
    assert.equal(await page.isVisible('#lang-hint'), false, 'typing on in the same text keeps it away');
    await page.fill('#source', 'Das Haus ist klein, aber der Garten ist wirklich sehr schön. Wir sitzen oft dort.');
    assert.equal(await page.isVisible('#lang-hint'), false, 'an edit after its beginning keeps it away');
    assert.equal(await page.inputValue('#direction'), 'en-de');
    // Another German text is offered again.
    await page.fill('#source', '');
    await page.fill('#source', 'Morgen fahren wir mit dem Zug nach Berlin.');
    await page.waitForSelector('#lang-hint', { state: 'visible' });
    assert.match(await page.textContent('#lang-hint-accept'), /German → English/);
    await checkProblems(page);
  });

  heavy('language notice: French or Russian text says the models translate only English and German; OK dismisses it; German is offered again', { skip: skip || (!shipped && 'needs the shipped models of both directions'), timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'de-en');
    await page.fill('#source', 'Nous avons visité le musée hier et il était très intéressant pour les enfants.');
    await page.waitForSelector('#lang-hint', { state: 'visible' });
    assert.match(await page.textContent('#lang-hint-text'), /^This looks like French\. The models translate only (English and German|German and English): a translation of it will be wrong\.$/);
    assert.equal(await page.isVisible('#lang-hint-accept'), false, 'no direction to offer');
    assert.equal(await page.textContent('#lang-hint-dismiss'), 'OK');
    // its name begins with the word shown (WCAG 2.5.3: a voice control user says "click OK")
    assert.match(await page.getAttribute('#lang-hint-dismiss', 'aria-label'), /^OK\b/);
    await page.screenshot({ path: path.join(resultsDir(), 'language-notice.png') });
    await page.click('#lang-hint-dismiss');
    assert.equal(await page.isVisible('#lang-hint'), false);
    await page.keyboard.type(' Nous y retournerons.', { delay: 5 });
    assert.equal(await page.isVisible('#lang-hint'), false, 'dismissed for this text while it is written on');
    // another script: no language named
    await page.fill('#source', 'Кошка спит на диване, а погода сегодня хорошая.');
    await page.waitForSelector('#lang-hint', { state: 'visible' });
    assert.match(await page.textContent('#lang-hint-text'), /^This does not look like (English or German|German or English)\./);
    // too little text, digits: nothing
    await page.fill('#source', '12 345 678 910 111 213 141');
    assert.equal(await page.isVisible('#lang-hint'), false);
    // English in the German box: the offer, with its own buttons, comes back
    await page.fill('#source', 'The weather is nice today and we are going to the park.');
    await page.waitForSelector('#lang-hint-accept', { state: 'visible' });
    assert.match(await page.textContent('#lang-hint-accept'), /English → German/);
    assert.equal(await page.textContent('#lang-hint-dismiss'), 'Keep');
    assert.match(await page.getAttribute('#lang-hint-dismiss', 'aria-label'), /^Keep\b/);
    await checkProblems(page);
  });

  heavy('typing in a 1 MB text stays quick: the language hint reads its beginning, not the whole text on every key', { skip, timeout: 120000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    const german = 'Das Haus ist klein, aber der Garten ist sehr schön und wir sitzen oft dort. ';
    const timings = await page.evaluate((text) => {
      const source = document.getElementById('source');
      source.value = text;
      const ms = [];
      for (let i = 0; i < 5; i++) {
        source.value += 'x';
        const t0 = performance.now();
        source.dispatchEvent(new Event('input', { bubbles: true })); // what a key press runs at once (the translation waits)
        ms.push(performance.now() - t0);
      }
      return ms.sort((a, b) => a - b);
    }, german.repeat(Math.ceil(1e6 / german.length)));
    const hint = await page.isVisible('#lang-hint');
    await page.fill('#source', ''); // (no 1 MB translation)
    assert.ok(timings[2] < 50, `an input event in a 1 MB text took ${timings[2].toFixed(1)} ms (median of ${timings.map((x) => x.toFixed(1))})`);
    if (shipped) assert.equal(hint, true, 'the long German text is still offered German → English');
    await checkProblems(page);
  });

  heavy('confidence: words the model is unsure of get a dotted underline and a legend; the card says how sure it is', { skip: skip || (!shipped && 'needs the shipped models'), timeout: 180000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    const marked = () => page.$$eval('#target .w.unsure', (els) => els.map((e) => e.textContent));
    // a plain sentence: nothing marked, no legend, and the card says the model is sure
    await translate(page, 'The house is small.');
    assert.deepEqual(await marked(), []);
    assert.equal(await page.isVisible('#unsure-legend'), false, 'no legend when nothing is marked');
    assert.match(await page.textContent('#sent-confidence'), /^The model is (fairly )?sure of this translation\.$/);
    // invented words: a few marked, in the output and on the card, with the legend
    const before = (await page.textContent('#target')).trim();
    await page.fill('#source', 'The zorblax quibbled with the flurmpet.');
    await page.waitForFunction((prev) => document.body.dataset.state === 'done' && document.getElementById('target').textContent.trim() !== prev
      && document.getElementById('target').getAttribute('aria-busy') === 'false', before, { timeout: 120000 });
    const words = await marked();
    const total = await page.locator('#target .w').count();
    assert.ok(words.length >= 1 && words.length <= total / 2, `marked: ${words.join(', ')} of ${total} words`);
    assert.ok(words.every((w) => /\p{L}/u.test(w)), 'punctuation is never marked');
    assert.equal(await page.$eval('#target .w.unsure', (e) => getComputedStyle(e).textDecorationStyle), 'dotted');
    assert.equal(await page.locator('#align-target .w.unsure').count(), words.length, 'the card marks the same words');
    assert.equal(await page.isVisible('#unsure-legend'), true);
    assert.equal((await page.textContent('#unsure-legend')).trim(), 'dotted underline: the model is unsure of this word');
    assert.match(await page.textContent('#sent-confidence'), new RegExp(`doubts ${words.length} words?`));
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-confidence.png') });
    // cleared: the legend goes
    await page.click('#clear');
    assert.equal(await page.isVisible('#unsure-legend'), false);
    await checkProblems(page);
  });

  heavy('a long multi-paragraph paste streams: translated sentences show while aria-busy is still true', { skip, timeout: 300000 }, async (t) => {
    const { page } = await sharedPage();
    await page.selectOption('#direction', 'en-de');
    const sentences = ['The weather was cold and the streets were empty.', 'She opened the window and looked at the river.',
      'Many people work in the city but live in the country.', 'The children played in the park until it was dark.',
      'He wrote a long letter to his brother.', 'We need more time to finish the project.'];
    // Six paragraphs of ~600 characters: more than the page's 1,000-character streaming threshold, a chunk each.
    const paragraphs = Array.from({ length: 6 }, (_, i) => Array.from({ length: 12 }, (_, k) => sentences[(i + k) % sentences.length]).join(' '));
    const input = paragraphs.join('\n\n');
    await page.fill('#source', input);
    const seen = await page.waitForFunction(() => {
      const target = document.getElementById('target');
      const sents = [...target.querySelectorAll('.sent')];
      if (!sents.length || target.getAttribute('aria-busy') !== 'true') return false;
      return { count: sents.length, first: sents[0].textContent, words: target.querySelectorAll('.sent .w').length,
        status: document.getElementById('status').textContent + (document.getElementById('status-progress')?.textContent ?? ''),
        said: document.getElementById('status').textContent, state: document.body.dataset.state };
    }, null, { timeout: 120000, polling: 'raf' }).then((h) => h.jsonValue());
    assert.equal(seen.state, 'translating');
    assert.match(seen.status, /Translating… \d+%/);
    assert.equal(seen.said, 'Translating…', 'the live region says it once: the percentage beside it is not read at every step');
    assert.ok(seen.count >= 1 && seen.count < paragraphs.length * 12, `${seen.count} sentences shown while translating`);
    assert.ok(seen.words > 0, 'drawn as words');
    assert.ok(seen.first.trim().length > 0 && seen.first !== sentences[0], `the first sentence is translated: ${seen.first}`);
    if (shipped) assert.match(seen.first, /Wetter|kalt|Straßen/, seen.first);
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false', null, { timeout: 280000 });
    const final = await page.$$eval('#target .sent', (els) => els.map((e) => e.textContent));
    assert.ok(final.length >= paragraphs.length * 12 * 0.9, `${final.length} sentences in the end`);
    assert.equal(final[0], seen.first, 'the streamed sentence is the final one');
    assert.equal((await page.textContent('#target')).split('\n\n').length, paragraphs.length, 'paragraph breaks kept');
    assert.equal(await page.isDisabled('#copy'), false);
    t.diagnostic(`${seen.count} of ${final.length} sentences shown while translating (${seen.status})`);
    await checkProblems(page);
  });
});

if (skip) test(`browser tests (skipped: ${skip})`, { skip }, () => {});
