/**
 * A modelUrl that names no model file rejects with code 'download' (the file could not be had),
 * never 'translate' or a hang, with the real WASM engine in a worker thread: a directory (file: URL),
 * a FIFO and /dev/zero (would block or never end), and over HTTP a web page where the file was asked
 * for (a directory listing, a site's fallback page). A real model at the same kinds of URL loads.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Translator, TranslatorError } from '../../web/translator.js';
import { engineSkip, requireEngine, fileUrl, FIXTURE_MODEL } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);

async function rejectsWithDownload(modelUrl, message) {
  const started = performance.now();
  await assert.rejects(Translator.create({ modelUrl, workers: 1 }), (e) => {
    assert.ok(e instanceof TranslatorError, `a TranslatorError, got ${e && e.name}: ${e && e.message}`);
    assert.equal(e.code, 'download', e.message);
    assert.match(e.message, message);
    return true;
  });
  return performance.now() - started;
}

test('file: a directory, a FIFO, /dev/zero: code download, at once', { skip, timeout: 60000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-path-'));
  await rejectsWithDownload(fileUrl(dir), /is a directory/);
  await rejectsWithDownload(`${fileUrl(dir)}/`, /is a directory/);
  const fifo = path.join(dir, 'model.nmt');
  execFileSync('mkfifo', [fifo]);
  assert.ok(existsSync(fifo));
  const ms = await rejectsWithDownload(fileUrl(fifo), /not a regular file/); // (reading it would block forever)
  assert.ok(ms < 30000, `${ms} ms`);
  if (existsSync('/dev/zero')) await rejectsWithDownload('file:///dev/zero', /not a regular file/);
  await rejectsWithDownload(fileUrl(path.join(dir, 'missing.nmt')), /no such file/);
});

test('HTTP: a web page where the model was asked for (a directory listing): code download; the model itself loads', { skip, timeout: 60000 }, async (t) => {
  const model = readFileSync(FIXTURE_MODEL);
  const server = http.createServer((req, res) => {
    if (req.url === '/models/tiny.nmt') {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': model.length });
      res.end(model);
    } else {
      const page = '<!doctype html><title>Index of /models/</title><a href="tiny.nmt">tiny.nmt</a>';
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(page) });
      res.end(page);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${server.address().port}`;
  await rejectsWithDownload(`${base}/models/`, /web page/);
  await rejectsWithDownload(`${base}/models`, /web page/);
  const ok = await Translator.create({ modelUrl: `${base}/models/tiny.nmt`, workers: 1 });
  try {
    assert.equal((await ok.translate('The house is small.')).sentences.length, 1);
  } finally {
    ok.dispose();
  }
});
