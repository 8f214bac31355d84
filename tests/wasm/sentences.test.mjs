// The WASM binding sentences(): the sentences translate() reads, as UTF-16 ranges of the text
// (the worker cuts a long line between them: web/protocol.js sentenceGroups).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engineModule, FIXTURE, skip } from './_engine.mjs';

const Module = skip ? null : await engineModule();

function loaded() {
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(FIXTURE))), '');
  return t;
}

const sentences = (t, text) => {
  const r = JSON.parse(t.sentences(text));
  assert.ok(r.ok, r.error);
  return r.result;
};

test('sentences() are the sentences translate() reads, in UTF-16 units of the text', { skip }, () => {
  const t = loaded();
  try {
    const inputs = [
      'Hello world. How are you?\n\nFine, thanks.',
      'Grüße 😀 an alle. Wie geht es dir? Gut.\tDanke.',  // an emoji is two units, ü one
      '1. Buy milk.\n2. Call 🇩🇪 home » News » Sport',    // a list's number and a menu's marks lie between
      'Cats\u0001sleep. Dogs bark.',                        // a control character reads as a space, one unit for one
    ];
    for (const text of inputs) {
      const ranges = sentences(t, text);
      const result = JSON.parse(t.translate(text, JSON.stringify({ beam: 1 }))).result;
      assert.deepEqual(ranges, result.sentences.map((s) => s.source_range), text);
      for (const [b, e] of ranges) assert.equal(text.slice(b, e).trim(), text.slice(b, e), `${JSON.stringify(text.slice(b, e))} starts and ends with no space`);
    }
    assert.deepEqual(sentences(t, 'Grüße 😀 an alle. Wie geht es dir?'), [[0, 17], [18, 34]]);
    assert.deepEqual(sentences(t, ''), []);
    assert.deepEqual(sentences(t, ' \n\t '), []);
  } finally {
    t.delete();
  }
});

test('sentences() without a model says so', { skip }, () => {
  const t = new Module.Translator();
  try {
    assert.deepEqual(JSON.parse(t.sentences('Hello.')), { ok: false, error: 'no model loaded: call load() first' });
  } finally {
    t.delete();
  }
});
