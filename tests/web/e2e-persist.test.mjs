/**
 * Persistent storage (web/offline-use.js's keepStorage()), on the built site's standard.html: the
 * browser is asked to keep the saved files (navigator.storage.persist()) only once the models are
 * saved for offline use, not when a page opens; the page says in #offline-storage what the browser
 * answered, and the status line keeps saying 'Saved for offline use.'. In Chromium with its own
 * answer (it decides without a prompt); and, in each browser, with a stand-in for Firefox's prompt
 * (persist() answered by the test), where a reader who said no is not asked again on the next visit.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSkip, requireEngine, testManifest } from './_helpers.mjs';
import { browsers, launchBrowser, serveSite } from './_browsers.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'standard.html translates with the shipped models (weights/manifest.json)');
requireEngine(test);

let server;
let browser;

before(async () => {
  if (skip) return;
  ({ server } = await serveSite('persist'));
});

after(async () => {
  if (server) await server.close();
});

/** Records each persist() call and whether the models were saved by then; the real one answers. */
function recordPersistCalls() {
  window.__persistCalls = [];
  if (!navigator.storage) return; // (about:blank, before the page: not a secure context)
  const storage = Object.getPrototypeOf(navigator.storage);
  const real = storage.persist;
  storage.persist = function persist() {
    window.__persistCalls.push(document.documentElement.dataset.offline || 'not saved');
    return real.call(this);
  };
}

/** Firefox's prompt, stood in for: persisted() false, the permission 'prompt', persist() answered by window.__answer(). */
function promptingBrowser() {
  window.__persistCalls = [];
  if (!navigator.storage) return; // (about:blank, before the page: not a secure context)
  const storage = Object.getPrototypeOf(navigator.storage);
  storage.persisted = async () => false;
  storage.persist = function persist() {
    window.__persistCalls.push(document.documentElement.dataset.offline || 'not saved');
    return new Promise((resolve) => { window.__answer = resolve; });
  };
  const permissions = Object.getPrototypeOf(navigator.permissions);
  const query = permissions.query;
  permissions.query = function q(descriptor) {
    if (descriptor && descriptor.name === 'persistent-storage') return Promise.resolve({ state: 'prompt' });
    return query.call(this, descriptor);
  };
}

async function openStandardPage(t, context) {
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  t.after(() => assert.deepEqual(problems, [], 'no page errors'));
  await visit(page);
  return page;
}

/** Opens standard.html (again: a new visit, the init scripts run anew). */
async function visit(page) {
  await page.goto(`${server.url}standard.html?polyfill`);
  await page.waitForFunction(() => ['ready', 'error'].includes(document.body.dataset.state), null, { timeout: 120000 });
}

async function translateOnce(page) {
  await page.click('#std-translate');
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 180000 });
  assert.equal(await page.textContent('#std-error'), '');
  await page.waitForFunction(() => document.documentElement.dataset.offline === 'ready', null, { timeout: 180000 });
}

const storageState = (page, states) => page.waitForFunction((s) => s.includes(document.documentElement.dataset.offlineStorage), states, { timeout: 60000 });

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });

  // (Chromium only: it answers without a prompt, where Firefox would wait for the reader)
  if (name === 'chromium') test('persist() is asked once the models are saved, and the page says what Chromium answered', { skip, timeout: 360000 }, async (t) => {
    const context = await browser.newContext();
    t.after(() => context.close());
    await context.addInitScript(recordPersistCalls);
    const page = await openStandardPage(t, context);
    await page.waitForTimeout(1000);
    assert.deepEqual(await page.evaluate(() => window.__persistCalls), [], 'not asked when the page opens');

    await translateOnce(page);
    await storageState(page, ['persistent', 'best-effort']);
    assert.deepEqual(await page.evaluate(() => window.__persistCalls), ['ready'], 'asked once, after the save');
    const persisted = await page.evaluate(() => navigator.storage.persisted());
    assert.equal(await page.evaluate(() => document.documentElement.dataset.offlineStorage), persisted ? 'persistent' : 'best-effort');
    assert.match(await page.textContent('#offline-storage'), persisted ? /keeps the saved files/ : /may clear the saved files/);
    assert.equal(await page.textContent('#offline-status'), 'Saved for offline use.', 'the status line says what it said before');
    t.diagnostic(`Chromium answered persist(): ${persisted}`);
  });

  test('a prompting browser: asked once the models are saved, the answer shown, not asked again once answered', { skip, timeout: 360000 }, async (t) => {
    const context = await browser.newContext();
    t.after(() => context.close());
    await context.addInitScript(promptingBrowser);
    const page = await openStandardPage(t, context);
    await translateOnce(page);
    await storageState(page, ['asking']);
    assert.match(await page.textContent('#offline-storage'), /Asking the browser/, 'while the reader decides');
    assert.deepEqual(await page.evaluate(() => window.__persistCalls), ['ready']);

    // The page left while the prompt waited, unanswered: the next visit asks again.
    await visit(page);
    await translateOnce(page);
    await storageState(page, ['asking']);
    assert.deepEqual(await page.evaluate(() => window.__persistCalls), ['ready'], 'asked again');
    await page.evaluate(() => window.__answer(false));
    await storageState(page, ['best-effort']);
    assert.match(await page.textContent('#offline-storage'), /may clear the saved files/);

    // The next visit: the reader said no, so no second prompt; the page still says how things stand.
    await visit(page);
    await translateOnce(page);
    await storageState(page, ['best-effort']);
    assert.deepEqual(await page.evaluate(() => window.__persistCalls), [], 'not asked again');

    // Another browser profile whose reader says yes.
    const yes = await browser.newContext();
    t.after(() => yes.close());
    await yes.addInitScript(promptingBrowser);
    const granted = await openStandardPage(t, yes);
    await translateOnce(granted);
    await storageState(granted, ['asking']);
    await granted.evaluate(() => window.__answer(true));
    await storageState(granted, ['persistent']);
    assert.match(await granted.textContent('#offline-storage'), /keeps the saved files until you clear/);
  });
});
