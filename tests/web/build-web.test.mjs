/**
 * scripts/build-web.mjs writes dist/sw.js from the web/sw.js template: the build's version, file
 * lists and the model cache's name, which must be protocol.js's MODEL_CACHE (the worker reads cached
 * models from that cache directly), and each shell file's size and SHA-256. The built service
 * worker is run in a sandbox with a stand-in Cache Storage and host to see which caches it opens
 * and that its install saves only the build's files. Every module the page loads (index.html's scripts and
 * what they import, the worker included) must be in dist/ and in the service worker's precache
 * list, or the page breaks offline. Needs no engine: a stand-in engine.js/.wasm is built.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from '../../scripts/build-web.mjs';
import { MODEL_CACHE } from '../../web/protocol.js';
import { ROOT, FIXTURE_MANIFEST } from './_helpers.mjs';

/** Builds the site with a stand-in engine into a temporary folder; returns it and its sw.js BUILD block. */
function buildSite() {
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-build-web-'));
  for (const f of ['engine.js', 'engine.wasm']) writeFileSync(path.join(dir, f), 'stand-in');
  const out = path.join(dir, 'dist');
  build({ out, manifest: FIXTURE_MANIFEST, engine: dir, quiet: true });
  const sw = readFileSync(path.join(out, 'sw.js'), 'utf8');
  const block = JSON.parse(/\/\* BUILD \*\/ (.*?) \/\* \/BUILD \*\//.exec(sw)[1]);
  return { out, sw, block };
}

/**
 * The files the page loads from the built `site`, as site-relative paths mapped to the file that
 * loads them: index.html's <script src>, then, through every .js file, its static imports
 * (import/export … from '…', import '…'), its literal dynamic imports and its
 * new URL('…', import.meta.url) (the worker, the engine). Comments are skipped, and so are node:
 * modules and URLs outside the site (translator.js's fallbacks to the repository when run in Node).
 * A file that is missing is listed but not read.
 */
function pageFiles(site) {
  const found = new Map();
  const queue = [];
  const add = (from, spec) => {
    if (/^[a-z]+:/i.test(spec)) return;
    const rel = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    if (rel.startsWith('../') || found.has(rel)) return;
    found.set(rel, from);
    queue.push(rel);
  };
  const html = readFileSync(path.join(site, 'index.html'), 'utf8');
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) add('index.html', m[1]);
  while (queue.length) {
    const rel = queue.shift();
    const file = path.join(site, rel);
    if (!rel.endsWith('.js') || !existsSync(file)) continue;
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const patterns = [
      /\b(?:import|export)\s+(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]/g,
      /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
      /\bnew\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
    ];
    for (const re of patterns) for (const m of code.matchAll(re)) add(rel, m[1]);
  }
  return found;
}

/** What would break offline: each file the page loads that is not in `site` or not in `shell`. */
function offlineProblems(site, shell) {
  const problems = [];
  for (const [rel, from] of pageFiles(site)) {
    if (!existsSync(path.join(site, rel))) problems.push(`${rel} (loaded by ${from}) is missing from the built site`);
    if (!shell.includes(rel)) problems.push(`${rel} (loaded by ${from}) is not in the service worker's precache list`);
  }
  return problems;
}

test('the built service worker keeps models in protocol.js\'s MODEL_CACHE; the template names no cache', async () => {
  const template = readFileSync(path.join(ROOT, 'web/sw.js'), 'utf8');
  assert.ok(!template.includes(`'${MODEL_CACHE}'`), 'web/sw.js has no hand copy of the model cache name');

  const { out, sw, block } = buildSite();
  assert.equal(block.modelCache, MODEL_CACHE);
  const shellFiles = block.shell.map((f) => f.file);
  assert.ok(shellFiles.includes('options.js') && shellFiles.includes('engine/engine.wasm'));
  // Each with the size and SHA-256 the service worker checks a saved copy against ('./' is index.html).
  for (const f of block.shell) {
    const bytes = readFileSync(path.join(out, f.file === './' ? 'index.html' : f.file));
    assert.deepEqual([f.bytes, f.sha256], [bytes.length, createHash('sha256').update(bytes).digest('hex')], f.file);
  }
  assert.equal(block.models.length, 1);

  // Run it: install opens the shell cache (and the model cache), activate the model cache. The
  // origin's caches are shared with another copy of the site (https://example.org/other/):
  // activate deletes only this copy's old shell caches (and the one-per-origin name of earlier
  // builds) and its own stale models.
  const opened = [];
  const deleted = [];
  const saved = [];
  const told = []; // the pages' messages
  const listeners = {};
  const current = `https://example.org/app/${block.models[0].file}`;
  const modelKeys = ['https://example.org/app/models/en-de.0123456789ab.nmt', 'https://example.org/other/models/en-de.0123456789ab.nmt', current];
  const cache = {
    put: async (url) => { saved.push(url); },
    keys: async () => modelKeys.map((url) => ({ url })),
    match: async (url) => (modelKeys.includes(url) ? {} : undefined),
    delete: async (request) => { deleted.push(request.url); return true; },
  };
  const shellCache = `nmt-shell https://example.org/app/ ${block.version}`;
  const cacheNames = ['nmt-shell https://example.org/app/ 0123456789abcdef', 'nmt-shell https://example.org/other/ 0123456789abcdef', 'nmt-shell-0123456789abcdef', shellCache, MODEL_CACHE];
  const sandbox = {
    self: {
      location: { href: 'https://example.org/app/sw.js' },
      addEventListener: (type, fn) => { listeners[type] = fn; },
      skipWaiting: async () => {},
      clients: { claim: async () => {}, matchAll: async () => [{ postMessage: (m) => told.push(m) }] },
    },
    caches: {
      open: async (name) => { opened.push(name); return cache; },
      keys: async () => cacheNames,
      has: async (name) => cacheNames.includes(name),
      delete: async (name) => { deleted.push(name); return true; },
    },
    URL,
    Request: class { constructor(url) { this.url = url; } },
    // the host: the built site, with `damagedOnHost` served cut short
    fetch: async (request) => {
      const rel = request.url.slice('https://example.org/app/'.length) || 'index.html';
      const bytes = readFileSync(path.join(out, rel));
      return new Response(rel === damagedOnHost ? bytes.subarray(0, 10) : bytes);
    },
    crypto,
    console,
  };
  let damagedOnHost = null;
  vm.runInNewContext(sw, sandbox);
  for (const type of ['install', 'activate']) {
    let work;
    listeners[type]({ waitUntil: (p) => { work = p; } });
    await work;
  }
  // (install: this copy has models saved, so it looks for this version's missing ones: none)
  assert.deepEqual(opened, [shellCache, MODEL_CACHE, MODEL_CACHE, MODEL_CACHE]);
  assert.deepEqual(saved.sort(), block.shell.map((f) => new URL(f.file, 'https://example.org/app/').href).sort(), 'every shell file saved');
  assert.deepEqual(deleted, ['nmt-shell https://example.org/app/ 0123456789abcdef', 'nmt-shell-0123456789abcdef', 'https://example.org/app/models/en-de.0123456789ab.nmt']);

  // A shell file on the host that is not the build's (a deploy still under way) fails the install.
  damagedOnHost = 'app.js';
  saved.length = 0;
  let install;
  listeners.install({ waitUntil: (p) => { install = p; } });
  await assert.rejects(install, /^Error: app\.js has 10 bytes, this version of the site expects \d+$/);
  assert.ok(!saved.includes('https://example.org/app/app.js'));
  assert.deepEqual(JSON.parse(JSON.stringify(told)), [{ type: 'install-failed', reason: told[0].reason }]);
  assert.match(told[0].reason, /^app\.js has 10 bytes, this version of the site expects \d+$/, 'the pages are told why');

  // The template itself refuses to run.
  assert.throws(() => vm.runInNewContext(template, { ...sandbox }), /template/);
});

test('every module the page loads is in the built site and in the service worker\'s precache list', () => {
  const { out, block } = buildSite();
  const files = pageFiles(out);
  const appModules = readdirSync(path.join(ROOT, 'web/app')).filter((f) => f.endsWith('.js')).map((f) => `app/${f}`);
  for (const f of ['app.js', ...appModules, 'translator.js', 'worker.js', 'protocol.js', 'options.js', 'engine/engine.js']) {
    assert.ok(files.has(f), `the page loads ${f}`);
  }
  const shell = block.shell.map((f) => f.file);
  assert.deepEqual(offlineProblems(out, shell), []);

  // The check notices a module left out of the precache list, or out of the site.
  const unlisted = offlineProblems(out, shell.filter((f) => f !== 'app/heatmap.js'));
  assert.equal(unlisted.length, 1);
  assert.match(unlisted[0], /^app\/heatmap\.js \(loaded by .+\) is not in the service worker's precache list$/);
  rmSync(path.join(out, 'app/heatmap.js'));
  const missing = offlineProblems(out, shell);
  assert.equal(missing.length, 1);
  assert.match(missing[0], /^app\/heatmap\.js \(loaded by .+\) is missing from the built site$/);
});
