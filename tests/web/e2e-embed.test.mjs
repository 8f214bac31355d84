/**
 * The module as another site embeds it, in Chromium and Firefox ESR, with the real WASM engine and
 * the shipped models: the built site served by a host that sends CORS headers (as a CDN does), and
 * an embedding page of another origin (localhost against 127.0.0.1) that imports translator.js from
 * it; and pages under a strict Content-Security-Policy, sent with every response (the page's and the
 * worker's), Trusted Types included, where the module must work or its error say what the policy
 * lacks; and a frame sandboxed without allow-same-origin.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser } from './_browsers.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'the embedding tests translate with the shipped models (weights/manifest.json)');
requireEngine(test);

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.nmt': 'application/octet-stream' };

/** A frame sandboxed without allow-same-origin (an opaque origin) that translates and tells its parent how it went, until heard. */
const SANDBOXED_FRAME = `<!doctype html><title>frame</title><script type="module">
let said;
try {
  const { Translator } = await import('/site/translator.js');
  const translator = await Translator.create({ from: 'en', to: 'de', workers: 1 });
  said = { origin: self.origin, text: (await translator.translate('The house is small.')).text };
  translator.dispose();
} catch (e) {
  said = { origin: self.origin, error: e.code + ': ' + e.message };
}
setInterval(() => parent.postMessage(said, '*'), 200);
</script>`;

let site;
let server;
let port;
/** The policy the host sends with every response (null: none), set by each case. */
let policy = null;

before(async () => {
  if (skip) return;
  site = path.join(resultsDir(), 'web-dist-embed');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', site, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
  // The site under /site/ with CORS headers, and an empty embedding page at /embed.html.
  server = createServer((req, res) => {
    const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store', ...(policy ? { 'Content-Security-Policy': policy } : {}) };
    const { pathname } = new URL(req.url, 'http://x');
    if (pathname === '/embed.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Embedding page</title>');
      return;
    }
    if (pathname === '/app/route/page.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><base href="/site/"><title>A route of an app</title>');
      return;
    }
    if (pathname === '/sandboxed.html' || pathname === '/frame.html') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(pathname === '/frame.html' ? SANDBOXED_FRAME
        : '<!doctype html><title>A sandboxed frame</title><iframe sandbox="allow-scripts" src="/frame.html"></iframe>');
      return;
    }
    const file = path.join(site, path.normalize(pathname.slice('/site/'.length)));
    let size = -1;
    try {
      size = pathname.startsWith('/site/') && file.startsWith(site + path.sep) && statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (size < 0) {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Content-Length': size });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
});

after(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
});

/** The site's origin, and the embedding page's: another origin on the same server. */
const siteOrigin = () => `http://127.0.0.1:${port}`;
const otherOrigin = () => `http://localhost:${port}`;

/**
 * Opens `${pageOrigin}/embed.html` in a fresh context and runs there: import the module from the
 * site, create() an en→de Translator with two workers, translate a sentence and a text of several
 * chunks. Returns { text, workers } or { error: {name, code, message} }.
 */
async function embed(t, browser, pageOrigin) {
  const context = await browser.newContext();
  t.after(() => context.close());
  const page = await context.newPage();
  await page.goto(`${pageOrigin}/embed.html`);
  return page.evaluate(async (moduleUrl) => {
    try {
      const { Translator } = await import(moduleUrl);
      const translator = await Translator.create({ from: 'en', to: 'de', workers: 2 });
      const { text } = await translator.translate('The house is small.');
      const text60 = 'The house is small. It has a red door.\n\n'.repeat(60);
      await translator.translate(text60); // the helper starts during the first pooled request (it may finish first on a busy machine)
      await translator.memory(); // (waits for the helper to be ready: the second request might otherwise end before it too)
      const long = await translator.translate(text60);
      translator.dispose();
      return { text, workers: long.stats.workers };
    } catch (e) {
      return { error: { name: e.name, code: e.code, message: e.message } };
    }
  }, `${siteOrigin()}/site/translator.js`);
}

for (const name of browsers()) {
  describe(name, { skip }, () => {
    let browser;
    before(async () => { browser = await launchBrowser(name); });
    after(async () => { if (browser) await browser.close(); });

    test('a page of another origin imports the module from a host with CORS headers (a CDN): it translates, with a pool of workers', { timeout: 180000 }, async (t) => {
      policy = null;
      const got = await embed(t, browser, otherOrigin());
      assert.deepEqual(got, { text: 'Das Haus ist klein.', workers: 2 });
      // and under a strict policy that lists the host, allows WebAssembly, and blob: workers (whose imports worker-src checks)
      policy = `default-src 'self'; script-src 'self' ${siteOrigin()} 'wasm-unsafe-eval'; worker-src blob: ${siteOrigin()}; connect-src ${siteOrigin()}`;
      assert.deepEqual(await embed(t, browser, otherOrigin()), { text: 'Das Haus ist klein.', workers: 2 });
    });

    test('another origin\'s module where the page allows no blob: worker: the error says what to allow', { timeout: 120000 }, async (t) => {
      policy = `default-src 'self'; script-src 'self' ${siteOrigin()} 'wasm-unsafe-eval'; worker-src 'self' ${siteOrigin()}; connect-src ${siteOrigin()}`;
      const { error } = await embed(t, browser, otherOrigin());
      assert.ok(error, 'create() fails');
      assert.equal(error.name, 'TranslatorError');
      assert.match(error.message, /worker\.js \(another origin than this page's\) could not be loaded: .*CORS headers .*must list blob: and http:\/\/127\.0\.0\.1:\d+ in worker-src/, error.message);
    });

    test('a page that enforces Trusted Types translates (the worker URL goes through the policy nmt-translator), or says which policy to allow', { timeout: 180000 }, async (t) => {
      policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; require-trusted-types-for 'script'";
      assert.deepEqual(await embed(t, browser, siteOrigin()), { text: 'Das Haus ist klein.', workers: 2 });
      policy = `default-src 'self'; script-src 'self' ${siteOrigin()} 'wasm-unsafe-eval'; worker-src blob: ${siteOrigin()}; connect-src ${siteOrigin()}; require-trusted-types-for 'script'`;
      assert.deepEqual(await embed(t, browser, otherOrigin()), { text: 'Das Haus ist klein.', workers: 2 }, 'from another origin too');
      policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; require-trusted-types-for 'script'; trusted-types app-policy";
      const { error } = await embed(t, browser, siteOrigin());
      assert.ok(error, 'create() fails');
      assert.equal(error.code, 'no-worker', error.message);
      assert.match(error.message, /this page requires Trusted Types .* allows no policy named 'nmt-translator' .* Add nmt-translator to its trusted-types directive/);
    });

    test('relative URLs given to create() resolve against the document\'s <base href>, as fetch() resolves them', { timeout: 120000 }, async (t) => {
      policy = null;
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`${siteOrigin()}/app/route/page.html`);
      const got = await page.evaluate(async () => {
        try {
          const { Translator } = await import('/site/translator.js');
          const manifest = await (await fetch('models/manifest.json')).json(); // (fetch: the <base href>)
          const translator = await Translator.create({ from: 'en', to: 'de', workers: 1, manifestUrl: 'models/manifest.json', engineUrl: 'engine/engine.js' });
          const { text } = await translator.translate('The house is small.');
          translator.dispose();
          return { models: manifest.models.length, text };
        } catch (e) {
          return { error: `${e.code}: ${e.message}` };
        }
      });
      assert.deepEqual(got, { models: 2, text: 'Das Haus ist klein.' });
    });

    test('a frame sandboxed without allow-same-origin (an opaque origin) translates', { timeout: 120000 }, async (t) => {
      policy = null;
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`${siteOrigin()}/sandboxed.html`, { waitUntil: 'domcontentloaded' });
      const said = await page.evaluate(() => new Promise((resolve) => { window.addEventListener('message', (e) => resolve(e.data)); }));
      assert.deepEqual(said, { origin: 'null', text: 'Das Haus ist klein.' });
    });

    test('another origin\'s module where the page\'s connect-src leaves its host out: the error names connect-src, not the network', { timeout: 120000 }, async (t) => {
      policy = `default-src 'self'; script-src 'self' ${siteOrigin()} 'wasm-unsafe-eval'; worker-src blob: ${siteOrigin()}; connect-src 'self'`;
      const { error } = await embed(t, browser, otherOrigin());
      assert.ok(error, 'create() fails');
      assert.match(error.message, /Could not download manifest\.json: the Content-Security-Policy's connect-src does not allow http:\/\/127\.0\.0\.1:\d+ \(list it there/, error.message);
      assert.doesNotMatch(error.message, /Check the network connection/);
    });

    test('an engine of another host that the page\'s script-src leaves out: the error names script-src', { timeout: 120000 }, async (t) => {
      policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src *";
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`${siteOrigin()}/embed.html`);
      const error = await page.evaluate(async (engineUrl) => {
        try {
          const { Translator } = await import('/site/translator.js');
          (await Translator.create({ workers: 1, engineUrl })).dispose();
          return null;
        } catch (e) {
          return { code: e.code, message: e.message };
        }
      }, `${otherOrigin()}/site/engine/engine.js`);
      assert.ok(error, 'create() fails');
      assert.equal(error.code, 'engine-load');
      assert.match(error.message, /engine\.js: the Content-Security-Policy's script-src-elem \(or script-src\) does not allow http:\/\/localhost:\d+ \(list it there/, error.message);
    });

    test('a Content-Security-Policy without \'wasm-unsafe-eval\': create() rejects with engine-load, naming what to add', { timeout: 120000 }, async (t) => {
      policy = "default-src 'self'; script-src 'self'; worker-src 'self'";
      const { error } = await embed(t, browser, siteOrigin());
      assert.ok(error, 'create() fails');
      assert.equal(error.code, 'engine-load', error.message);
      assert.match(error.message, /the Content-Security-Policy does not allow WebAssembly here\. Add 'wasm-unsafe-eval' to its script-src/);
      assert.doesNotMatch(error.message, /new Function|DYNAMIC_EXECUTION/, 'no advice the engine does not need');
    });
  });
}
