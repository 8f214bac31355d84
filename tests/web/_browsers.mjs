/**
 * The browsers the end-to-end tests run in: Debian's Chromium through playwright-core, and Debian's
 * Firefox ESR through puppeteer-core over WebDriver BiDi, behind the same (Playwright's) API
 * (_firefox.mjs). An end-to-end test file runs its cases once per browser:
 *
 *   for (const name of browsers()) describe(name, () => { before(async () => { browser = await launchBrowser(name); }); ... });
 *
 * NMT_BROWSERS=chromium (or firefox, or both comma-separated) picks the browsers, to work on one.
 *
 * To keep CI's time, the heavy cases that test the page's own logic more than the browser (long
 * translations, search options, hint rules) are registered with `heavyCase(name, test)`: they run in
 * Chromium only, and in Firefox too with NMT_ALL_BROWSERS=1 (they passed there when this was written).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium, ROOT, testManifest, resultsDir } from './_helpers.mjs';
import { launchFirefox, FIREFOX } from './_firefox.mjs';

export const BROWSERS = ['chromium', 'firefox'];

export function browsers() {
  const chosen = (process.env.NMT_BROWSERS || BROWSERS.join(',')).split(',').map((b) => b.trim()).filter(Boolean);
  const unknown = chosen.filter((b) => !BROWSERS.includes(b));
  if (unknown.length) throw new Error(`NMT_BROWSERS names ${unknown.join(', ')}: the tests know ${BROWSERS.join(', ')}`);
  return chosen;
}

export async function launchBrowser(name) {
  if (name === 'chromium') return launchChromium();
  if (name === 'firefox') {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: install Debian's firefox-esr (bash scripts/setup.sh --tests)`);
    return launchFirefox();
  }
  throw new Error(`unknown browser ${name}`);
}

/**
 * Whether a browser emulates a touch screen (newContext({ hasTouch, isMobile })): Chromium does;
 * Firefox ESR over WebDriver BiDi does not, so tests of touch run in Chromium only.
 */
export const canEmulateTouch = (name) => name === 'chromium';

/** `test` in Chromium (and everywhere with NMT_ALL_BROWSERS=1); elsewhere a no-op: see above. */
export const heavyCase = (name, test) => (name === 'chromium' || process.env.NMT_ALL_BROWSERS === '1' ? test : () => {});

/**
 * The demo site built for one test file (scripts/build-web.mjs with the test's models, into
 * test-results/web-dist-NAME: node --test may run files side by side) and served under /NAME/ as
 * deployed: { site, server } (server.url, server.close()).
 */
export async function serveSite(name) {
  const site = path.join(resultsDir(), `web-dist-${name}`);
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', site, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
  return { site, server: await startServer({ root: site, base: `/${name}/` }) };
}

/**
 * The demo page at `url` in a fresh context of `browser` (no cache, no service worker; `options`:
 * viewport, touch, ...; `init`: a script that runs before the page's own), the model loaded. The
 * page's errors and console errors fail the test; the context closes after it.
 */
export async function openPage(t, browser, url, options = {}, init) {
  const { context, page, problems } = await openTrackedPage(browser, url, options, init);
  t.after(() => context.close());
  t.after(() => assert.deepEqual(problems, [], 'no page errors'));
  return page;
}

/**
 * One demo page that a file's cases share where a case needs no fresh profile: `get(t, browser,
 * url, options)` opens it on first use (as openPage), and for each later case restarts it instead:
 * localStorage cleared (a direction or terms a case chose are forgotten), `url` opened again (a new
 * navigation, not a reload, which would restore the form's values and the scroll position), the
 * model loaded again, as a second visit shows the page (engine and models from the service
 * worker's cache). A restart costs ~0.8 s where a new context costs ~2.5 s (a new profile downloads
 * the model and installs the service worker; Chromium and Firefox alike, measured at load 15). The
 * page's errors since the restart fail the case. A case that tests a first visit, an init script or
 * another viewport uses openPage. `close()` in the describe's after().
 */
export class SharedPage {
  #open = null; // { context, page, problems, browser, key }

  async get(t, browser, url, options = {}) {
    const key = JSON.stringify([url, options]);
    if (this.#open && (this.#open.browser !== browser || this.#open.key !== key)) await this.close();
    if (this.#open) {
      const { page, problems } = this.#open;
      problems.length = 0; // (errors while the page restarts count for this case)
      try {
        await page.evaluate(() => localStorage.clear());
        await page.goto(url);
        await waitReady(page);
      } catch (e) {
        await this.close(); // (the next case starts from a new context)
        throw e;
      }
    } else {
      this.#open = { ...(await openTrackedPage(browser, url, options)), browser, key };
    }
    const { problems } = this.#open;
    t.after(() => assert.deepEqual(problems, [], 'no page errors'));
    return this.#open.page;
  }

  /** The page's errors since its last restart (for a case that checks them before its end). */
  get problems() { return this.#open ? this.#open.problems : []; }

  async close() {
    if (this.#open) await this.#open.context.close().catch(() => {});
    this.#open = null;
  }
}

/** A new context's page on `url`, the model loaded; `problems` collects its page and console errors. */
async function openTrackedPage(browser, url, options, init) {
  const context = await browser.newContext(options);
  try {
    if (init) await context.addInitScript(init);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
    await page.goto(url);
    await waitReady(page);
    return { context, page, problems };
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  }
}

/** Waits until the page has loaded its model (body[data-ready]); fails with the page's error otherwise. */
export async function waitReady(page) {
  await waitFor(page, 'the page to load its model (body[data-ready] or an error)', () => document.body.dataset.ready === 'true' || document.body.dataset.state === 'error');
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true', await page.textContent('#error'));
}

/**
 * `page.waitForFunction(fn, arg, { timeout })` that says what it waited for when it times out
 * (Playwright's message names only the timeout): `what` is that, in words.
 */
export async function waitFor(page, what, fn, arg = null, { timeout = 60000, polling } = {}) {
  try {
    return await page.waitForFunction(fn, arg, polling ? { timeout, polling } : { timeout });
  } catch (e) {
    throw new Error(`waited ${timeout / 1000} s for ${what}: ${e.message.split('\n')[0]}`);
  }
}

/**
 * Types `value` into the demo page's text box and waits for this text's finished translation;
 * returns the output's text (trimmed), or throws the page's error. "This text's": a translation
 * that started after the typing (the page waits for a pause before it starts, so until then
 * body[data-state] still says 'done' of the text before, or of a request still running for it) and
 * that the output says is of a text of this length; the output drawn as words, the card showing
 * a sentence of this text.
 */
export async function translate(page, value, { timeout = 120000 } = {}) {
  await page.evaluate(() => {
    const watch = { started: false };
    window.__nmtTranslate = watch;
    // (each record's oldValue is the value before it: the value it set is the next one's, or the current one)
    new MutationObserver((records, observer) => {
      const set = records.map((r, i) => (i + 1 < records.length ? records[i + 1].oldValue : document.body.dataset.state));
      if (window.__nmtTranslate !== watch) observer.disconnect();
      else if (set.includes('translating')) { watch.started = true; observer.disconnect(); }
    }).observe(document.body, { attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
  });
  await page.fill('#source', value);
  const finished = (v) => {
    const target = document.getElementById('target');
    const state = document.body.dataset.state;
    return window.__nmtTranslate.started && document.getElementById('source').value === v && target.getAttribute('aria-busy') === 'false'
      && (state === 'error' || (state === 'done' && target.dataset.inputLength === String(v.length)
        && !!target.querySelector('.w') && document.getElementById('align-source').textContent !== ''
        && v.includes(document.getElementById('align-source').textContent)));
  };
  try {
    await page.waitForFunction(finished, value, { timeout });
  } catch (e) {
    const now = await page.evaluate(() => ({ state: document.body.dataset.state, started: window.__nmtTranslate?.started,
      busy: document.getElementById('target').getAttribute('aria-busy'), inputLength: document.getElementById('target').dataset.inputLength,
      status: document.getElementById('status').textContent, error: document.getElementById('error').textContent.trim() })).catch(() => ({}));
    throw new Error(`translate(${JSON.stringify(value.slice(0, 60))}): waited ${timeout / 1000} s for its finished translation `
      + `(state done, aria-busy false, the output of a text of ${value.length} characters): ${JSON.stringify(now)}: ${e.message.split('\n')[0]}`);
  }
  if (await page.evaluate(() => document.body.dataset.state) === 'error') {
    throw new Error(`translate(${JSON.stringify(value.slice(0, 60))}): the page shows an error: ${(await page.textContent('#error')).trim()}`);
  }
  return (await page.textContent('#target')).trim();
}
