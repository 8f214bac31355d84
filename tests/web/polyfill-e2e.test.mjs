/**
 * The polyfill (web/polyfill.js) in Chromium and Firefox ESR (each case in both: tests/web/_browsers.mjs),
 * with the real WASM engine and the shipped models,
 * on the built site served under a sub-path: the demo page standard.html (its sample shown as the
 * code it runs, translating both ways), the draft's behaviour in a window (availability from
 * 'downloadable' to 'available', the monitor, user activation, QuotaExceededError, destroy(),
 * streaming, a document that is no longer fully active) and in a module Web Worker, and
 * availability 'available' from the service worker's model cache once every engine is gone.
 * Node's polyfill.test.mjs covers the rest of the draft; this file checks what only a browser has.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, heavyCase, launchBrowser } from './_browsers.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'the polyfill tests translate with the shipped models (weights/manifest.json)');
requireEngine(test);
const BASE = '/some/sub/path/';

let site;
let server;
let browser;

/** A small module worker for the worker test (a fixture written into the test's copy of the site, not part of it). */
const WORKER_PROBE = `import { Translator, LanguageDetector } from './polyfill.js';
self.onmessage = async () => {
  try {
    const availability = await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' });
    const events = [];
    const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', monitor(m) { m.addEventListener('downloadprogress', (e) => events.push(e.loaded)); } });
    const translation = await t.translate('The house is small.');
    let streamed = '';
    for await (const chunk of t.translateStreaming('The house is small.')) streamed += chunk;
    const detected = await (await LanguageDetector.create()).detect('Wo ist der Bahnhof?');
    t.destroy();
    self.postMessage({ availability, events, translation, streamed, detected });
  } catch (e) {
    self.postMessage({ error: e.name + ': ' + e.message });
  }
};
`;

before(async () => {
  if (skip) return;
  site = path.join(resultsDir(), 'polyfill-dist');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', site, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
  writeFileSync(path.join(site, 'polyfill-worker-probe.js'), WORKER_PROBE);
  server = await startServer({ root: site, base: BASE });
});

after(async () => {
  if (server) await server.close();
});

/** A page in a fresh context (no cache, no service worker), with its errors collected. */
async function newPage(t, url) {
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  await page.goto(url);
  return { page, problems };
}

const waitState = (page, states) => page.waitForFunction((s) => s.includes(document.body.dataset.state), states, { timeout: 120000 });

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });

  test('standard.html: shows the sample it runs, and translates with it both ways', { skip, timeout: 300000 }, async (t) => {
    const sw = readFileSync(path.join(site, 'sw.js'), 'utf8');
    for (const f of ['polyfill.js', 'standard.html', 'standard.js']) assert.ok(sw.includes(`"${f}"`), `the service worker precaches ${f}`);
    const { page, problems } = await newPage(t, `${server.url}standard.html?polyfill`);
    await waitState(page, ['ready', 'error']);
    assert.equal(await page.evaluate(() => document.body.dataset.implementation), 'polyfill', '?polyfill: the polyfill, whatever the browser has');

    const source = readFileSync(path.join(ROOT, 'web/standard.js'), 'utf8');
    const sample = source.slice(source.indexOf('\n', source.indexOf('// ---- sample ----')) + 1, source.indexOf('// ---- end of sample ----')).trimEnd();
    assert.equal(await page.textContent('#std-sample'), sample, 'the page shows the lines of standard.js it runs');
    assert.match(sample, /Translator\.create\(/);
    assert.equal(await page.getAttribute('#std-input', 'dir'), 'auto', 'right-to-left text runs right to left');
    assert.deepEqual(await page.$$eval('progress', (bars) => bars.filter((b) => !(b.getAttribute('aria-label') || b.labels.length)).map((b) => b.id)), [], 'the progress bar has a name');

    await page.evaluate(() => {
      window.__busy = [];
      new MutationObserver(() => window.__busy.push(document.getElementById('std-output').getAttribute('aria-busy')))
        .observe(document.getElementById('std-output'), { attributes: true, attributeFilter: ['aria-busy'] });
    });
    await page.click('#std-translate');
    await waitState(page, ['done', 'error']);
    assert.deepEqual(await page.evaluate(() => window.__busy), ['true', 'false'], 'the translation, a live region, is busy while it is made');
    assert.equal(await page.textContent('#std-error'), '');
    assert.match(await page.textContent('#std-detected'), /Detected: en/);
    assert.match(await page.textContent('#std-output'), /Wetter/);
    assert.equal(await page.getAttribute('#std-output', 'lang'), 'de', 'the translation in its language, for a screen reader');
    assert.equal(await page.evaluate(() => document.getElementById('std-progress').value), 1, 'the monitor reached 1');

    // by keyboard: the button, off while it runs, has the focus again when it is done (not the page body)
    await page.fill('#std-input', 'Das Haus ist klein. Wir gehen heute in den Park.');
    await page.focus('#std-translate');
    await page.keyboard.press('Enter');
    await waitState(page, ['done', 'error']);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'std-translate', 'the focus is on the button again');
    assert.match(await page.textContent('#std-detected'), /Detected: de/);
    assert.match(await page.textContent('#std-output'), /house/i);
    assert.equal(await page.getAttribute('#std-output', 'lang'), 'en');
    await page.screenshot({ path: path.join(resultsDir(), 'polyfill-standard-page.png'), fullPage: true });

    // A request that fails shows its error alone, not under the last text's translation.
    await page.fill('#std-input', 'Haus '.repeat(200001)); // 1,000,005 characters: over the polyfill's inputQuota
    await page.click('#std-translate');
    await waitState(page, ['done', 'error']);
    assert.match(await page.textContent('#std-error'), /QuotaExceededError/);
    assert.equal(await page.textContent('#std-output'), '', 'no earlier translation under the error');
    assert.equal(await page.textContent('#std-detected'), '');

    // Without ?polyfill the page uses the browser's own API when it has one that can translate, and
    // falls back to the polyfill when that fails; either way the sample translates.
    await page.goto(`${server.url}standard.html`);
    await waitState(page, ['ready', 'error']);
    await page.fill('#std-input', 'The house is small.');
    await page.click('#std-translate');
    await waitState(page, ['done', 'error']);
    assert.match(await page.textContent('#std-output'), /Haus/, await page.textContent('#std-error'));
    t.diagnostic(`without ?polyfill: ${await page.textContent('#std-impl')}`);
    assert.deepEqual(problems, []);
  });

  heavyCase(name, test)('standard.html: a built-in Translator that fails is destroyed before the polyfill takes over', { skip, timeout: 300000 }, async (t) => {
    const context = await browser.newContext();
    t.after(() => context.close());
    // A stand-in for Chrome's built-in API whose translate() fails (no language pack, say).
    await context.addInitScript(() => {
      window.__nativeDestroyed = 0;
      class Translator {
        static async availability() { return 'available'; }
        static async create() { return new Translator(); }
        async translate() { throw new DOMException('The language pack is missing.', 'NotSupportedError'); }
        destroy() { window.__nativeDestroyed += 1; }
      }
      class LanguageDetector {
        static async availability() { return 'available'; }
        static async create() { return new LanguageDetector(); }
        async detect() { return [{ detectedLanguage: 'en', confidence: 0.9 }, { detectedLanguage: 'und', confidence: 0.1 }]; }
        destroy() {}
      }
      Object.assign(window, { Translator, LanguageDetector });
    });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${server.url}standard.html`);
    await waitState(page, ['ready', 'error']);
    assert.equal(await page.evaluate(() => document.body.dataset.implementation), 'native', 'the stand-in is taken for the browser\'s own');
    await page.fill('#std-input', 'The house is small.');
    await page.click('#std-translate');
    await waitState(page, ['done', 'error']);
    assert.match(await page.textContent('#std-output'), /Haus/, await page.textContent('#std-error'));
    assert.match(await page.textContent('#std-impl'), /the built-in one failed: NotSupportedError/);
    assert.equal(await page.evaluate(() => window.__nativeDestroyed), 1, 'the built-in translator the sample made was destroyed');
    assert.deepEqual(problems, []);
  });

  test('in a window: availability, the monitor, user activation, quota, streaming, destroy()', { skip, timeout: 300000 }, async (t) => {
    const { page, problems } = await newPage(t, `${server.url}standard.html?polyfill`);
    await waitState(page, ['ready', 'error']);
    const r = await page.evaluate(async () => {
      const { Translator, LanguageDetector } = await import('./polyfill.js');
      const out = {};
      const pair = { sourceLanguage: 'en', targetLanguage: 'de' };
      out.before = await Translator.availability(pair);
      out.unsupported = await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'ja' });
      // Without a user activation a download may not start (consumed here as WPT does: a popup).
      const w = window.open('about:blank', '_blank');
      if (w) w.close();
      out.activeAfterPopup = navigator.userActivation.isActive;
      try {
        await Translator.create(pair);
        out.withoutActivation = 'created';
      } catch (e) {
        out.withoutActivation = e.name;
      }
      return out;
    });
    assert.equal(r.before, 'downloadable', 'a fresh profile has nothing cached');
    assert.equal(r.unsupported, 'unavailable');
    if (r.activeAfterPopup === false) assert.equal(r.withoutActivation, 'NotAllowedError');
    else t.diagnostic('the popup did not consume the user activation here: NotAllowedError not checked');

    // A click gives the page a user activation again (Playwright's page.evaluate in Chromium has one
    // of its own; Firefox gives evaluate none once the popup above consumed it).
    await page.click('h1');
    const s = await page.evaluate(async () => {
      const { Translator } = await import('./polyfill.js');
      const pair = { sourceLanguage: 'en-US', targetLanguage: 'de' };
      const events = [];
      const creating = Translator.create({ ...pair, monitor(m) { m.addEventListener('downloadprogress', (e) => events.push({ loaded: e.loaded, total: e.total, progress: e instanceof ProgressEvent })); } });
      await new Promise((resolve) => setTimeout(resolve, 0));
      const during = await Translator.availability(pair);
      const t1 = await creating;
      const out = { during, events, after: await Translator.availability(pair), source: t1.sourceLanguage };
      out.translation = await t1.translate('The house is small.');
      out.echo = await t1.translate(' \n\t');
      let streamed = '';
      for await (const chunk of t1.translateStreaming('The house is small. The garden is big.')) streamed += chunk;
      out.streamed = streamed;
      out.whole = await t1.translate('The house is small. The garden is big.');
      try {
        await t1.translate('a'.repeat(t1.inputQuota + 1));
      } catch (e) {
        out.quota = { name: e.name, isClass: typeof QuotaExceededError === 'function' && e instanceof QuotaExceededError, quota: e.quota, requested: e.requested };
      }
      // A signal of another realm (a frame's) is an AbortSignal all the same, as WebIDL takes it.
      const frame = document.body.appendChild(document.createElement('iframe'));
      const foreign = new frame.contentWindow.AbortController();
      out.foreignSignal = await t1.translate('The house is small.', { signal: foreign.signal }).then(() => 'translated', (e) => e.name);
      const foreignReason = new frame.contentWindow.Error('stopped');
      const foreignCall = t1.translate('The weather is nice today.', { signal: foreign.signal });
      foreign.abort(foreignReason);
      out.foreignAbort = await foreignCall.then(() => 'resolved', (e) => e === foreignReason);
      frame.remove();
      const pending = t1.translate('The weather is nice today.');
      const stream = t1.translateStreaming('The weather is nice today.');
      t1.destroy();
      out.destroyed = await pending.then(() => 'resolved', (e) => e.name);
      out.streamDestroyed = await stream.pipeTo(new WritableStream()).then(() => 'closed', (e) => e.name);
      return out;
    });
    assert.ok(['downloading', 'downloadable'].includes(s.during), s.during);
    assert.equal(s.events[0].loaded, 0);
    assert.equal(s.events.at(-1).loaded, 1);
    assert.ok(s.events.length >= 3, `progress between 0 and 1: ${JSON.stringify(s.events.map((e) => e.loaded))}`);
    assert.ok(s.events.every((e, i) => e.total === 1 && e.progress && (i === 0 || e.loaded > s.events[i - 1].loaded)), 'ProgressEvents, rising');
    assert.equal(s.after, 'available', 'the engine is loaded in this page');
    assert.equal(s.source, 'en');
    assert.match(s.translation, /Das Haus ist klein/);
    assert.equal(s.echo, ' \n\t');
    assert.equal(s.streamed, s.whole);
    assert.equal(s.quota.name, 'QuotaExceededError');
    assert.equal(s.quota.quota, 1000000);
    assert.equal(s.quota.requested, 1000001);
    t.diagnostic(`QuotaExceededError is the browser's class: ${s.quota.isClass}`);
    assert.equal(s.destroyed, 'AbortError');
    assert.equal(s.streamDestroyed, 'AbortError');
    assert.equal(s.foreignSignal, 'translated', 'a frame\'s AbortSignal is taken');
    assert.equal(s.foreignAbort, true, 'and its abort rejects with its reason');

    // A document that is no longer fully active (a removed iframe): InvalidStateError. (Chromium
    // only: Firefox runs no promise job of a removed iframe's window, so no answer can be seen there.)
    if (name === 'chromium') {
      const detached = await page.evaluate(async () => {
        const frame = document.createElement('iframe');
        frame.src = 'standard.html?polyfill';
        document.body.append(frame);
        await new Promise((resolve) => { frame.onload = resolve; });
        while (frame.contentDocument.body.dataset.state !== 'ready') await new Promise((resolve) => setTimeout(resolve, 20));
        const T = frame.contentWindow.Translator;
        frame.remove();
        return Promise.race([
          T.availability({ sourceLanguage: 'en', targetLanguage: 'de' }).then((a) => a, (e) => e.name),
          new Promise((resolve) => setTimeout(() => resolve('no answer'), 5000)),
        ]);
      });
      assert.equal(detached, 'InvalidStateError');
    }
    assert.deepEqual(problems, []);
  });

  test('in a module Web Worker', { skip, timeout: 180000 }, async (t) => {
    const { page, problems } = await newPage(t, `${server.url}standard.html?polyfill`);
    await waitState(page, ['ready', 'error']);
    const r = await page.evaluate(() => new Promise((resolve) => {
      const worker = new Worker('polyfill-worker-probe.js', { type: 'module' });
      worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
      worker.onerror = (e) => resolve({ error: e.message || 'the worker failed' });
      worker.postMessage('go');
    }));
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.availability, 'downloadable');
    assert.equal(r.events[0], 0);
    assert.equal(r.events.at(-1), 1);
    assert.match(r.translation, /Das Haus ist klein/);
    assert.equal(r.streamed, r.translation);
    assert.equal(r.detected[0].detectedLanguage, 'de');
    assert.equal(r.detected.at(-1).detectedLanguage, 'und');
    assert.deepEqual(problems, []);
  });

  test('availability is "available" from the site\'s model cache once every engine is gone', { skip, timeout: 300000 }, async (t) => {
    const { page, problems } = await newPage(t, `${server.url}standard.html?polyfill`);
    await waitState(page, ['ready', 'error']);
    // The page registered the service worker; once it controls a page, the model download passes through it.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await waitState(page, ['ready', 'error']);
    assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the service worker controls the page');
    const r = await page.evaluate(async () => {
      const { Translator } = await import('./polyfill.js');
      const pair = { sourceLanguage: 'de', targetLanguage: 'en' };
      const before = await Translator.availability(pair);
      const t1 = await Translator.create(pair);
      const translation = await t1.translate('Das Haus ist klein.');
      t1.destroy();
      // The service worker writes its copy while the page reads the other: wait for it.
      let after = await Translator.availability(pair);
      for (let i = 0; i < 100 && after !== 'available'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await Translator.availability(pair);
      }
      const events = [];
      const t2 = await Translator.create({ ...pair, monitor(m) { m.addEventListener('downloadprogress', (e) => events.push(e.loaded)); } });
      const again = await t2.translate('Das Haus ist klein.');
      t2.destroy();
      return { before, translation, after, events, again };
    });
    assert.equal(r.before, 'downloadable');
    assert.match(r.translation, /house/i);
    assert.equal(r.after, 'available', 'the model is in the cache');
    assert.deepEqual(r.events, [0, 1], 'nothing to download: 0 and 1 only');
    assert.equal(r.again, r.translation);
    assert.deepEqual(problems, []);
  });
});
