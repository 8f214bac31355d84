/**
 * Shared by the web tests: repository paths, which model manifest to use (the shipped
 * weights/manifest.json once it exists, else the fixture manifest naming tests/fixtures/tiny.nmt),
 * whether the engine is built, a streaming translation aborted mid-way, and launching Debian's
 * Chromium through playwright-core.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ENGINE_JS = path.join(ROOT, 'build-wasm/engine.js');
export const ENGINE_WASM = path.join(ROOT, 'build-wasm/engine.wasm');
export const SHIPPED_MANIFEST = path.join(ROOT, 'weights/manifest.json');
export const FIXTURE_MANIFEST = path.join(ROOT, 'tests/fixtures/web-manifest.json');
export const FIXTURE_MODEL = path.join(ROOT, 'tests/fixtures/tiny.nmt');
export const RESULTS = path.join(ROOT, 'test-results');

export const haveEngine = () => existsSync(ENGINE_JS) && existsSync(ENGINE_WASM);

/** The manifest the tests translate with, and whether it is the real (shipped) one. */
export function testManifest() {
  if (existsSync(SHIPPED_MANIFEST)) return { file: SHIPPED_MANIFEST, shipped: true };
  return { file: FIXTURE_MANIFEST, shipped: false };
}

export const haveModel = () => (testManifest().shipped || existsSync(FIXTURE_MODEL));

/**
 * Returns the `skip` option for tests that need the real engine and a model: false when they can
 * run, else the reason. With NMT_REQUIRE_ENGINE=1 (scripts/test.sh) a missing engine or model is a
 * failure, not a skip: `requireEngine(test)` then adds a failing test that says what is missing.
 */
export function engineSkip() {
  return engineSkipReason() || false;
}

export function requireEngine(test) {
  const reason = engineSkipReason();
  if (reason && process.env.NMT_REQUIRE_ENGINE === '1') {
    test('the WASM engine and a model are present (NMT_REQUIRE_ENGINE=1)', () => { throw new Error(reason); });
  }
}

/** Why the real-engine tests cannot run, or null. */
export function engineSkipReason() {
  if (!haveEngine()) return 'build-wasm/engine.js is missing: run scripts/build.sh first';
  if (!haveModel()) return 'no model: neither weights/manifest.json nor tests/fixtures/tiny.nmt exists';
  return null;
}

export const fileUrl = (p) => pathToFileURL(p).href;

/**
 * Streams `input` and aborts after the first sentence arrives; asserts the iteration rejects with
 * an AbortError, and returns the sentences it yielded before that.
 */
export async function streamAbortedAfterFirstSentence(translator, input, options) {
  const ac = new AbortController();
  const got = [];
  await assert.rejects(async () => {
    for await (const s of translator.translateStreaming(input, { ...options, signal: ac.signal })) {
      got.push(s);
      ac.abort();
    }
  }, { name: 'AbortError' });
  return got;
}

export function resultsDir() {
  mkdirSync(RESULTS, { recursive: true });
  return RESULTS;
}

export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium() {
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch {
    throw new Error('playwright-core is not installed: run `npm install` (or `npm ci`) in the repository root.');
  }
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
