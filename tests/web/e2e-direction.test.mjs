/**
 * A direction whose model cannot load, chosen while the text box is empty: the page says why
 * (the error notice, body[data-state=error]) instead of the progress bar going away without a word.
 * The built site lacks the German → English model file (a host that lost it: HTTP 404), in Debian's
 * Chromium and Firefox ESR with the real WASM engine.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { engineSkip, requireEngine } from './_helpers.mjs';
import { browsers, launchBrowser, serveSite, waitReady } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);

let server;

before(async () => {
  if (skip) return;
  let site;
  ({ site, server } = await serveSite('direction'));
  const manifest = JSON.parse(readFileSync(path.join(site, 'models/manifest.json'), 'utf8'));
  const deEn = manifest.models.find((m) => m.from === 'de' && m.to === 'en');
  assert.ok(deEn, 'the site lists a German → English model');
  rmSync(path.join(site, 'models', deEn.file));
});

after(async () => {
  if (server) await server.close();
});

for (const name of browsers()) describe(name, () => {
  let browser;
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); });

  test('a direction whose model cannot load, chosen with an empty text box, says why', { skip, timeout: 120000 }, async (t) => {
    const context = await browser.newContext();
    t.after(() => context.close());
    const page = await context.newPage();
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(server.url);
    await waitReady(page);
    assert.equal(await page.inputValue('#source'), '');
    await page.selectOption('#direction', 'de-en');
    await page.waitForFunction(() => document.body.dataset.state === 'error', null, { timeout: 60000 });
    const notice = (await page.textContent('#error')).trim();
    assert.match(notice, /de-en/, `the notice names the model that could not load: ${JSON.stringify(notice)}`);
    assert.ok(await page.isVisible('#error'), 'the notice is shown');
    assert.deepEqual(pageErrors, [], 'no page errors');
  });
});
