/**
 * The demo page's alignment highlight over text the engine copies (engine/text/word_alignment.h
 * align_copies), in Debian's Chromium (and Firefox ESR with NMT_ALL_BROWSERS=1), with the real WASM
 * engine and the shipped models: hovering each word of a web address or of `code` in the
 * translation lights up, as linked, the same word in the sentence card and in the text box, and
 * nothing else as linked; and over a sentence the engine copies whole (nothing in it to translate),
 * whose attention and word attention the engine's JSON names instead of writing out
 * (identity_attention, word_attention_from_links) and the worker writes back (web/protocol.js
 * expandCopiedAlignments). NMT_WEB_TEST_ENGINE_DIR=<dir with engine.js + engine.wasm> runs it against
 * another engine build, as e2e.test.mjs does.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser } from './_browsers.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'the shipped models are missing (weights/manifest.json)');
requireEngine(test);
let server;
let browser;

before(async () => {
  if (skip) return;
  const out = path.join(resultsDir(), 'web-dist-align');
  const args = [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'];
  if (process.env.NMT_WEB_TEST_ENGINE_DIR) args.push('--engine', process.env.NMT_WEB_TEST_ENGINE_DIR);
  execFileSync(process.execPath, args, { stdio: 'inherit' });
  server = await startServer({ root: out, base: '/align/' });
});

after(async () => {
  if (server) await server.close();
});

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });

  /** The demo page, started, and the page errors it reports. */
  async function openPage(t) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    t.after(() => context.close());
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
    return { page, errors };
  }

  /** Hovers the translation's word `word` (one of `targetWords`) and returns the source words lit up as linked. */
  async function linkedOnHover(page, targetWords, word, where) {
    const index = targetWords.indexOf(word);
    assert.ok(index >= 0, `${word} in ${where}`);
    await page.hover(`#target .w >> nth=${index}`);
    return page.$$eval('#align-source .w.linked', (els) => els.map((e) => e.textContent));
  }

  test('each word of a copied address and of `code` lights up its own source word', { skip, timeout: 180000 }, async (t) => {
    const { page, errors } = await openPage(t);
    const input = 'Open https://example.org/a_b?x=1 and run `npm install` now.';
    await page.fill('#source', input);
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false', null, { timeout: 120000 });
    const output = (await page.textContent('#target')).trim();
    const copied = ['https', 'example', 'org', 'a', 'b', 'x', '1', 'npm', 'install'];
    const targetWords = await page.$$eval('#target .w', (els) => els.map((e) => e.textContent));
    for (const word of copied) {
      const linked = await linkedOnHover(page, targetWords, word, JSON.stringify(output));
      assert.deepEqual(linked, [word], `hovering ${word} of ${JSON.stringify(output)}`);
      // the same word marked in the text box, at its place in the text typed
      const marks = await page.evaluate(() => [...document.querySelectorAll('#source-mirror .src-mark.linked')].map((m) => m.textContent));
      assert.deepEqual(marks, [word]);
    }
    assert.deepEqual(errors, []);
  });

  test('each word of a copied sentence lights up its own source word', { skip, timeout: 180000 }, async (t) => {
    const { page, errors } = await openPage(t);
    const cases = [
      ['https://example.org/a_b?x=1 `npm install`', ['https', 'example', 'org', 'a', 'b', 'x', '1', 'npm', 'install']],
      ['3 × 4 = 12 -- 8', ['3', '×', '4', '=', '12', '8']],
    ];
    for (const [input, words] of cases) {
      await page.fill('#source', input);
      await page.waitForFunction((text) => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false' &&
        document.getElementById('target').textContent.trim() === text, input, { timeout: 120000 });
      const targetWords = await page.$$eval('#target .w', (els) => els.map((e) => e.textContent));
      for (const word of words) {
        const linked = await linkedOnHover(page, targetWords, word, JSON.stringify(targetWords));
        assert.deepEqual(linked, [word], `hovering ${word} of ${JSON.stringify(input)}`);
      }
    }
    assert.deepEqual(errors, []);
  });
});
