/**
 * scripts/build-web.mjs writes dist/sw.js from the web/sw.js template: the build's version, file
 * lists and the model cache's name, which must be protocol.js's MODEL_CACHE (the worker reads cached
 * models from that cache directly). The built service worker is run in a sandbox with a stand-in
 * Cache Storage to see which caches it opens. Needs no engine: a stand-in engine.js/.wasm is built.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { build } from '../../scripts/build-web.mjs';
import { MODEL_CACHE } from '../../web/protocol.js';
import { ROOT, FIXTURE_MANIFEST } from './_helpers.mjs';

test('the built service worker keeps models in protocol.js\'s MODEL_CACHE; the template names no cache', async () => {
  const template = readFileSync(path.join(ROOT, 'web/sw.js'), 'utf8');
  assert.ok(!template.includes(`'${MODEL_CACHE}'`), 'web/sw.js has no hand copy of the model cache name');

  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-build-web-'));
  for (const f of ['engine.js', 'engine.wasm']) writeFileSync(path.join(dir, f), 'stand-in');
  const out = path.join(dir, 'dist');
  build({ out, manifest: FIXTURE_MANIFEST, engine: dir, quiet: true });
  const sw = readFileSync(path.join(out, 'sw.js'), 'utf8');
  const block = JSON.parse(/\/\* BUILD \*\/ (.*?) \/\* \/BUILD \*\//.exec(sw)[1]);
  assert.equal(block.modelCache, MODEL_CACHE);
  assert.ok(block.shell.includes('options.js') && block.shell.includes('engine/engine.wasm'));
  assert.equal(block.models.length, 1);

  // Run it: install opens the shell cache, activate the model cache.
  const opened = [];
  const listeners = {};
  const cache = { addAll: async () => {}, keys: async () => [], delete: async () => true };
  const sandbox = {
    self: {
      location: { href: 'https://example.org/app/sw.js' },
      addEventListener: (type, fn) => { listeners[type] = fn; },
      skipWaiting: async () => {},
      clients: { claim: async () => {} },
    },
    caches: { open: async (name) => { opened.push(name); return cache; }, keys: async () => [] },
    URL,
    Request: class { constructor(url) { this.url = url; } },
    console,
  };
  vm.runInNewContext(sw, sandbox);
  for (const type of ['install', 'activate']) {
    let work;
    listeners[type]({ waitUntil: (p) => { work = p; } });
    await work;
  }
  assert.deepEqual(opened, [`nmt-shell-${block.version}`, MODEL_CACHE]);

  // The template itself refuses to run.
  assert.throws(() => vm.runInNewContext(template, { ...sandbox }), /template/);
});
