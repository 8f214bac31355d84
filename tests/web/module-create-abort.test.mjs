/**
 * An aborted start lets go of its download: the module's Translator.create({ signal }) and the
 * standard API's Translator.create({ signal }) (web/polyfill.js, which shares one engine per pair)
 * stop fetching the model when aborted, and a create() after that downloads it once, not beside
 * the abandoned one. The model comes from a counting HTTP server that sends it slowly, with the
 * fake engine (tests/web/fake-engine.mjs).
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import path from 'node:path';
import { Translator } from '../../web/translator.js';
import * as polyfill from '../../web/polyfill.js';
import { ROOT, fileUrl } from './_helpers.mjs';

const FAKE_ENGINE = fileUrl(path.join(ROOT, 'tests/web/fake-engine.mjs'));
const CHUNK = 1000;
const CHUNKS = 100; // one every 50 ms: 5 s for the whole model

/** Model downloads: started, ended by the client before the end, sent whole, and the most at once. */
const downloads = { started: 0, cut: 0, whole: 0, open: 0, most: 0 };
let server;
let base;

before(async () => {
  server = createServer((req, res) => {
    if (req.url === '/manifest.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ models: [{ from: 'en', to: 'de', file: 'model.nmt' }] }));
      return;
    }
    if (req.url !== '/model.nmt') {
      res.writeHead(404).end();
      return;
    }
    downloads.started += 1;
    downloads.open += 1;
    downloads.most = Math.max(downloads.most, downloads.open);
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(CHUNK * CHUNKS) });
    let sent = 0;
    const timer = setInterval(() => {
      res.write(Buffer.alloc(CHUNK, sent === 0 ? 'N' : 'x'));
      sent += 1;
      if (sent === CHUNKS) res.end();
    }, 50);
    res.on('close', () => {
      clearInterval(timer);
      downloads.open -= 1;
      if (sent === CHUNKS) downloads.whole += 1;
      else downloads.cut += 1;
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

const reset = () => Object.assign(downloads, { started: 0, cut: 0, whole: 0, most: downloads.open });

async function until(check, what, ms = 20000) { // (a worker ended and its socket closed: slow on a busy machine)
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`${what}: ${JSON.stringify(downloads)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('the module: an abort of create() rejects at once and ends the model\'s download', async () => {
  reset();
  const controller = new AbortController();
  let downloading;
  const started = new Promise((resolve) => { downloading = resolve; });
  const created = Translator.create({ engineUrl: FAKE_ENGINE, wasmUrl: FAKE_ENGINE, modelUrl: `${base}/model.nmt`, workers: 1,
    signal: controller.signal, onProgress: (p) => { if (p.phase === 'download' && p.loaded > 0) downloading(); } });
  await started;
  const reason = new Error('the person went elsewhere');
  controller.abort(reason);
  await assert.rejects(created, (e) => e === reason);
  await until(() => downloads.cut === 1, 'the download ends with the abort');
  assert.equal(downloads.whole, 0);
  // an already aborted signal: nothing starts
  await assert.rejects(Translator.create({ engineUrl: FAKE_ENGINE, wasmUrl: FAKE_ENGINE, modelUrl: `${base}/model.nmt`, signal: controller.signal }), (e) => e === reason);
  assert.equal(downloads.started, 1);
  await assert.rejects(Translator.create({ modelUrl: `${base}/model.nmt`, signal: 'stop' }), { code: 'bad-request', message: /^Translator\.create\(\): signal must be an AbortSignal/ });
});

test('the standard API: an aborted create() ends the download, and the next create() downloads the model once', { timeout: 30000 }, async () => {
  reset();
  polyfill.configure({ manifestUrl: `${base}/manifest.json`, engineUrl: FAKE_ENGINE, wasmUrl: FAKE_ENGINE, workers: 1 });
  const controller = new AbortController();
  let downloading;
  const started = new Promise((resolve) => { downloading = resolve; });
  const created = polyfill.Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal: controller.signal,
    monitor(m) { m.addEventListener('downloadprogress', (e) => { if (e.loaded > 0 && e.loaded < 1) downloading(); }); } });
  await started;
  controller.abort();
  await assert.rejects(created, { name: 'AbortError' });
  await until(() => downloads.cut === 1, 'the download ends with the abort');
  const translator = await polyfill.Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' });
  try {
    assert.deepEqual(downloads, { started: 2, cut: 1, whole: 1, open: 0, most: 1 }, 'one download at a time');
    assert.equal(await translator.translate('Hello world.'), 'olleH dlrow .');
  } finally {
    translator.destroy();
  }
});
