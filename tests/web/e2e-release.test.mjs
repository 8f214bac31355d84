/**
 * A release of another engine build while a page (or a Node process) keeps using the module: the
 * page holds the engine.wasm it compiled (the next Translator, a restarted worker and the pool's
 * helpers get it), while each new worker imports the engine.js now on the server. The second build
 * is the first one with its WebAssembly import module renamed in both files, so the old compiled
 * module does not fit the new engine.js (as a real rebuild's minified names do not). In Chromium and
 * Firefox ESR with the built site under /site/: the demo page (its service worker installing the
 * release), and a plain page of the same origin (no page or service worker of ours); and in Node
 * with file: URLs; with the shipped models. Also a host's index-page fallback for a missing model.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { ROOT, ENGINE_JS, ENGINE_WASM, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser, waitReady } from './_browsers.mjs';
import { Translator } from '../../web/translator.js';
import { build } from '../../scripts/build-web.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'the release tests translate with the shipped models (weights/manifest.json)');
requireEngine(test);

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.nmt': 'application/octet-stream' };

/** Reads one unsigned LEB128 at `at`: [value, next offset]. */
function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return [value, at];
  }
}

/** `wasm` with every import of module `from` imported from `to` (as long) instead: the import section rewritten in place. */
function renameImportModule(wasm, from, to) {
  const out = Buffer.from(wasm);
  let at = 8;
  let renamed = 0;
  while (at < out.length) {
    const id = out[at];
    const [size, body] = leb(out, at + 1);
    if (id === 2) {
      let [count, p] = leb(out, body);
      const name = () => { const [n, s] = leb(out, p); p = s + n; return [s, n]; };
      const limits = () => { const flags = out[p++]; [, p] = leb(out, p); if (flags & 1) [, p] = leb(out, p); };
      while (count--) {
        const [s, n] = name();
        if (out.toString('latin1', s, s + n) === from) { out.write(to, s, 'latin1'); renamed += 1; }
        name();
        const kind = out[p++];
        if (kind === 0) [, p] = leb(out, p);
        else if (kind === 1) { p += 1; limits(); }
        else if (kind === 2) limits();
        else if (kind === 3) p += 2;
        else if (kind === 4) { p += 1; [, p] = leb(out, p); }
        else throw new Error(`import kind ${kind}`);
      }
    }
    at = body + size;
  }
  assert.ok(renamed > 0, `engine.wasm imports nothing from ${from}`);
  return out;
}

/** The second build: engine.js and engine.wasm of build-wasm/ with their import module renamed. */
function otherBuild() {
  const script = readFileSync(ENGINE_JS, 'utf8');
  const imports = /var info ?= ?\{\s*"(\w+)"\s*:/.exec(script);
  assert.ok(imports, 'engine.js names its import module');
  const from = imports[1];
  const to = from.slice(0, -1) + (from.endsWith('z') ? 'y' : 'z');
  return {
    js: Buffer.from(script.replace(imports[0], imports[0].replace(`"${from}"`, `"${to}"`))),
    wasm: renameImportModule(readFileSync(ENGINE_WASM), from, to),
  };
}

describe('node', { skip }, () => {
  let dir;
  before(() => { dir = mkdtempSync(path.join(tmpdir(), 'nmt-release-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a Translator made after engine.js and engine.wasm were replaced by another build starts and translates', { timeout: 120000 }, async (t) => {
    copyFileSync(ENGINE_JS, path.join(dir, 'engine.js'));
    copyFileSync(ENGINE_WASM, path.join(dir, 'engine.wasm'));
    const options = { engineUrl: pathToFileURL(path.join(dir, 'engine.js')), manifestUrl: pathToFileURL(testManifest().file), workers: 1, warmUp: false };
    const first = await Translator.create({ ...options, from: 'en', to: 'de' });
    t.after(() => first.dispose());
    assert.equal((await first.translate('The house is small.')).text, 'Das Haus ist klein.');
    const next = otherBuild();
    writeFileSync(path.join(dir, 'engine.js'), next.js);
    writeFileSync(path.join(dir, 'engine.wasm'), next.wasm);
    const second = await Translator.create({ ...options, from: 'de', to: 'en' });
    t.after(() => second.dispose());
    assert.equal((await second.translate('Das Haus ist klein.')).text, 'The house is small.');
    // engine.js of the old build beside engine.wasm of the new (the compiled module kept is the new one): the error says to reload
    copyFileSync(ENGINE_JS, path.join(dir, 'engine.js'));
    await assert.rejects(Translator.create({ ...options, from: 'de', to: 'en' }),
      (e) => e.code === 'protocol-mismatch' && /^The site was updated: reload the page\./.test(e.message));
  });
});

for (const name of browsers()) {
  describe(name, { skip }, () => {
    let browser;
    let server;
    let port;
    let site;
    /** Files the host serves instead of the built site's ('engine/engine.js': bytes). */
    let replaced = {};
    /** The folder the host serves under /site/: the built site, or the next release. */
    let root;
    /** Files the host does not have, which it answers with its index.html and status 200 (as a single-page app's fallback). */
    let missing = new Set();

    before(async () => {
      site = path.join(resultsDir(), 'web-dist-release');
      execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', site, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
      root = site;
      server = createServer((req, res) => {
        const headers = { 'Cache-Control': 'no-store' };
        const { pathname } = new URL(req.url, 'http://x');
        if (pathname === '/page.html') {
          res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>A page</title>');
          return;
        }
        const rel = pathname.slice('/site/'.length) || 'index.html';
        if (missing.has(rel)) {
          res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' }).end(readFileSync(path.join(site, 'index.html')));
          return;
        }
        let bytes = replaced[rel];
        try {
          if (!bytes && pathname.startsWith('/site/') && !rel.includes('..')) bytes = readFileSync(path.join(root, rel));
        } catch {
          bytes = null;
        }
        if (!bytes) {
          res.writeHead(404, headers).end();
          return;
        }
        res.writeHead(200, { ...headers, 'Content-Type': TYPES[path.extname(rel)] || 'application/octet-stream', 'Content-Length': bytes.length }).end(bytes);
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = server.address().port;
      browser = await launchBrowser(name);
    });
    after(async () => {
      if (browser) await browser.close();
      if (server) await new Promise((resolve) => server.close(resolve));
    });

    test('the demo page open when a release of another engine build is installed: the other direction loads and translates', { timeout: 240000 }, async (t) => {
      replaced = {};
      root = site;
      const engine = mkdtempSync(path.join(tmpdir(), 'nmt-release-engine-'));
      const next = mkdtempSync(path.join(tmpdir(), 'nmt-release-site-'));
      t.after(() => { root = site; rmSync(engine, { recursive: true, force: true }); rmSync(next, { recursive: true, force: true }); });
      const other = otherBuild();
      writeFileSync(path.join(engine, 'engine.js'), other.js);
      writeFileSync(path.join(engine, 'engine.wasm'), other.wasm);
      copyFileSync(path.join(site, 'engine/relaxed_gemm.wasm'), path.join(engine, 'relaxed_gemm.wasm'));
      await build({ out: next, manifest: testManifest().file, engine, quiet: true });
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/site/`);
      await waitReady(page);
      await page.waitForSelector('html[data-offline="ready"]', { timeout: 120000 });

      root = next; // deployed
      await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
      await page.waitForFunction(() => document.getElementById('offline-status').textContent.includes('new version'), null, { timeout: 60000 });
      await page.selectOption('#direction', 'de-en');
      await page.fill('#source', 'Das Haus ist klein.');
      await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 60000 });
      assert.equal((await page.textContent('#target')).trim(), 'The house is small.', await page.textContent('#error'));
    });

    test('a model the manifest lists that the host answers with its index page (status 200): the error says the server does not have it', { timeout: 120000 }, async (t) => {
      replaced = {};
      const model = JSON.parse(readFileSync(path.join(site, 'models/manifest.json'), 'utf8')).models.find((m) => m.from === 'de').file;
      missing = new Set([`models/${model}`]);
      t.after(() => { missing = new Set(); });
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/page.html`);
      const error = await page.evaluate(async () => {
        const { Translator } = await import('/site/translator.js');
        try {
          await Translator.create({ from: 'de', to: 'en', workers: 1 });
          return null;
        } catch (e) {
          return `${e.code}: ${e.message}`;
        }
      });
      assert.equal(error, `download: Could not download ${model}: the server answered with a web page (text/html), its page for a missing file ` +
        '(the server does not have it). Reload the page: a new version of the site may have been installed since it opened, with other model files ' +
        '(if you host the site, check that the file is on the server).');
    });

    test('after a release of another engine build, the open page\'s next Translator, restarted worker and pool helpers start and translate', { timeout: 240000 }, async (t) => {
      replaced = {};
      const context = await browser.newContext();
      t.after(() => context.close());
      const page = await context.newPage();
      await page.goto(`http://127.0.0.1:${port}/page.html`);
      const said = (f, arg) => page.evaluate(f, arg).catch((e) => ({ error: e.message }));
      const first = await said(async () => {
        const { Translator } = await import('/site/translator.js');
        window.first = await Translator.create({ from: 'en', to: 'de', workers: 2 });
        return (await window.first.translate('The house is small.')).text;
      });
      assert.equal(first, 'Das Haus ist klein.');

      const next = otherBuild();
      replaced = { 'engine/engine.js': next.js, 'engine/engine.wasm': next.wasm };
      const after = await said(async () => {
        const run = async (f) => { try { return await f(); } catch (e) { return `${e.code}: ${e.message}`; } };
        const { Translator } = await import('/site/translator.js');
        const other = await run(async () => {
          const second = await Translator.create({ from: 'de', to: 'en', workers: 1 });
          const { text } = await second.translate('Das Haus ist klein.');
          second.dispose();
          return text;
        });
        const pooled = await run(async () => {
          const text = 'The house is small. It has a red door.\n\n'.repeat(60);
          await window.first.translate(text); // the helper starts during the first pooled request, and may start after its end
          await window.first.memory(); // (waits for the helper to be ready)
          const r = await window.first.translate(text);
          return `${r.stats.workers} workers: ${r.text.split('\n')[0]}`;
        });
        // a running request aborted: its worker is replaced from what the first start handed over
        const restarted = await run(async () => {
          const stop = new AbortController();
          const cancelled = window.first.translate('The house is small. It has a red door.\n'.repeat(20), { signal: stop.signal, chunkChars: Infinity });
          setTimeout(() => stop.abort(), 50);
          await cancelled.catch(() => {});
          return (await window.first.translate('The house is small.')).text;
        });
        return { other, restarted, restarts: window.first.restarts, pooled };
      });
      assert.deepEqual(after, {
        other: 'The house is small.',
        restarted: 'Das Haus ist klein.',
        restarts: 1,
        pooled: '2 workers: Das Haus ist klein. Es hat eine rote Tür.',
      });

      // engine.js of the old build beside engine.wasm of the new (a stale copy): the error says to reload
      replaced = { 'engine/engine.wasm': next.wasm };
      const mixed = await said(async () => {
        const { Translator } = await import('/site/translator.js');
        try {
          await Translator.create({ from: 'de', to: 'en', workers: 1 });
          return 'started';
        } catch (e) {
          return `${e.code}: ${e.message}`;
        }
      });
      assert.match(mixed, /^protocol-mismatch: The site was updated: reload the page\. /);
      await page.evaluate(() => window.first.dispose());
    });
  });
}
