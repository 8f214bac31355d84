/**
 * The demo page's alignment highlight over a sentence the engine copies whole (nothing in it to
 * translate: an address and `code`, numbers and signs), whose attention and word attention the
 * engine's JSON names instead of writing out (identity_attention, word_attention_from_links) and
 * the worker writes back (web/protocol.js expandCopiedAlignments): in Debian's Chromium (and
 * Firefox ESR with NMT_ALL_BROWSERS=1), with the real WASM engine and the shipped models, hovering
 * each word of the copy lights up, as linked, the same word of the source and nothing else.
 * NMT_WEB_TEST_ENGINE_DIR=<dir with engine.js + engine.wasm> runs it against another engine build.
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
  const out = path.join(resultsDir(), 'web-dist-copied-align');
  const args = [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'];
  if (process.env.NMT_WEB_TEST_ENGINE_DIR) args.push('--engine', process.env.NMT_WEB_TEST_ENGINE_DIR);
  execFileSync(process.execPath, args, { stdio: 'inherit' });
  server = await startServer({ root: out, base: '/copied-align/' });
});

after(async () => {
  if (server) await server.close();
});

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });

  test('each word of a copied sentence lights up its own source word', { skip, timeout: 180000 }, async (t) => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    t.after(() => context.close());
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
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
        const index = targetWords.indexOf(word);
        assert.ok(index >= 0, `${word} in ${JSON.stringify(targetWords)}`);
        await page.hover(`#target .w >> nth=${index}`);
        const linked = await page.$$eval('#align-source .w.linked', (els) => els.map((e) => e.textContent));
        assert.deepEqual(linked, [word], `hovering ${word} of ${JSON.stringify(input)}`);
      }
    }
    assert.deepEqual(errors, []);
  });
});
