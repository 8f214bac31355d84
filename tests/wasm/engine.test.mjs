// The WASM module (build-wasm/engine.js) in Node: its API, its error messages, and the same outputs
// as the native engine (build/nmt) on the same inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURE = path.join(ROOT, 'tests/fixtures/tiny.nmt');
const NATIVE = path.join(ROOT, 'build/nmt');

// Emscripten 3.1.6's ES module needs these in Node, and the wasm bytes handed over (see engine/BUILDING.md).
globalThis.require = createRequire(import.meta.url);
globalThis.__dirname = path.join(ROOT, 'build-wasm');
const { default: createEngine } = await import(pathToFileURL(path.join(ROOT, 'build-wasm/engine.js')).href);
const Module = await createEngine({ wasmBinary: readFileSync(path.join(ROOT, 'build-wasm/engine.wasm')) });

function loaded(file = FIXTURE) {
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(file))), '');
  return t;
}

function translate(t, text, options) {
  const r = JSON.parse(t.translate(text, JSON.stringify(options)));
  assert.ok(r.ok, r.error);
  return r.result;
}

function native(text, args) {
  return execFileSync(NATIVE, ['--model', FIXTURE, ...args], { input: text, encoding: 'utf8' });
}

const INPUTS = [
  'Hello!',
  'Where is the station? I love you.\n\nTom doesn\'t like cats.',
  'The weather is nice today. We will meet at the museum on Monday morning.',
  '<img src=x onerror=alert(1)>',
  'Emoji 😀 and ümlauts: Grüße aus Köln.',
  // copied, not translated: a sentence in a script the vocabulary lacks, code, a long run
  'Привет, как дела? Run `npm test` now. 今天天气很好，我们走吧。',
  `The key is ${'Zm9vYmFy'.repeat(12)} and it works.`,
  // names from code, Markdown emphasis, a fenced code block (engine/text/verbatim.h, emphasis.h)
  'Open **package.json** and set *max_connections* for #travel @anna.\n```\nnpm install --save-dev\n```\nDone.',
  // list numbers, names that end in a number, "~", a number's label, a range (segmenter.h, number_labels.h, numbers.h)
  'Steps:\n1. Pay ~$50 on Windows11.\n2) Order No. 12345 arrives in 2-3 days.\n12. Done.',
];

test('info() describes the model', () => {
  const t = loaded();
  const info = JSON.parse(t.info());
  assert.equal(info.languages.source, 'en');
  assert.equal(info.languages.target, 'de');
  assert.equal(info.config.d_model, 32);
  assert.equal(info.file_bytes, readFileSync(FIXTURE).length);
  t.delete();
});

test('wasm and native engines give the same translations (greedy and beam)', () => {
  const t = loaded();
  for (const beam of [1, 4]) {
    for (const text of INPUTS) {
      const wasm = translate(t, text, { beam });
      assert.equal(wasm.text, native(text, ['--beam', String(beam)]), `beam ${beam}: ${text}`);
    }
  }
  t.delete();
});

test('wasm and native alignments agree: tokens, word spans, attention within 1e-5 (one unit of the JSON\'s 5 decimals)', () => {
  const t = loaded();
  for (const text of INPUTS) {
    const wasm = translate(t, text, { beam: 2, alignments: true });
    const nat = JSON.parse(native(text, ['--beam', '2', '--alignments']));
    assert.equal(wasm.sentences.length, nat.sentences.length);
    wasm.sentences.forEach((w, i) => {
      const n = nat.sentences[i];
      assert.deepEqual(w.source_tokens, n.source_tokens);
      assert.deepEqual(w.target_tokens, n.target_tokens);
      assert.deepEqual(w.source_words, n.source_words);
      assert.deepEqual(w.target_words, n.target_words);
      assert.deepEqual(w.source_range, n.source_range);
      assert.deepEqual(w.target_range, n.target_range);
      // both are rounded to 5 decimals: a float difference far below 1e-5 can still land on either
      // side of a rounding boundary (0.077335 -> 0.07733 / 0.07734), so one unit apart is allowed
      // a copied sentence's identity is named, not written out (identity_attention: engine/README.md)
      assert.equal(w.identity_attention, n.identity_attention);
      assert.equal('attention' in w, 'attention' in n);
      (w.attention || []).forEach((row, r) => row.forEach((v, c) => assert.ok(Math.abs(v - n.attention[r][c]) < 1.5e-5, `${v} vs ${n.attention[r][c]}`)));
    });
  }
  t.delete();
});

test('token and word probabilities: in (0, 1], the same in wasm and native (fixture within 1e-4, the JSON\'s 4 decimals; shipped model within float rounding: 0.2 nat a token, 0.01 on average)', () => {
  const shipped = path.join(ROOT, 'weights/en-de/model.nmt');
  for (const model of [FIXTURE, shipped]) {
    const t = loaded(model);
    const logGaps = [];
    for (const beam of [1, 4]) {
      for (const text of INPUTS.slice(0, 3)) {
        const wasm = translate(t, text, { beam, alignments: true });
        const nat = JSON.parse(execFileSync(NATIVE, ['--model', model, '--beam', String(beam), '--alignments'],
          { input: text, encoding: 'utf8' }));
        assert.equal(wasm.sentences.length, nat.sentences.length);
        wasm.sentences.forEach((w, i) => {
          const n = nat.sentences[i];
          assert.equal(w.token_probs.length, w.target_tokens.length);
          assert.equal(w.target_word_probs.length, w.target_words.length);
          for (const p of [...w.token_probs, ...w.target_word_probs]) assert.ok(p > 0 && p <= 1, `${p}`);
          if (model === FIXTURE) {  // agrees to the JSON's 4 decimals
            w.token_probs.forEach((p, k) => assert.ok(Math.abs(p - n.token_probs[k]) <= 1e-4 + 1e-9, `${text}: ${p} vs ${n.token_probs[k]}`));
            w.target_word_probs.forEach((p, k) => assert.ok(Math.abs(p - n.target_word_probs[k]) <= 1e-4 + 1e-9));
            assert.ok(Math.abs(w.score - n.score) < 1e-4);
            return;
          }
          // The shipped model: the two builds' float rounding differs (FMA and 8 lanes natively) and
          // int8 activation rounding amplifies it (engine/BUILDING.md). Measured on 150 tatoeba-dev
          // lines per direction (round 23): |log p_wasm − log p_native| 0.002 on average, p99 0.04,
          // max 0.15. A wrong softmax, scale or probability would be off by far more.
          assert.equal(w.target, n.target);
          w.token_probs.forEach((p, k) => {
            logGaps.push(Math.abs(Math.log(p) - Math.log(n.token_probs[k])));
            assert.ok(logGaps.at(-1) <= 0.2, `${text}: ${p} vs ${n.token_probs[k]}`);
          });
          w.target_word_probs.forEach((p, k) => assert.ok(Math.abs(Math.log(p) - Math.log(n.target_word_probs[k])) <= 0.2));
          assert.ok(Math.abs(w.score - n.score) < 0.05, `${w.score} vs ${n.score}`);
        });
      }
    }
    if (model !== FIXTURE) {
      const mean = logGaps.reduce((a, b) => a + b, 0) / logGaps.length;
      assert.ok(logGaps.length > 20 && mean <= 0.01, `mean |Δ log p| ${mean} over ${logGaps.length} tokens`);
    }
    t.delete();
  }
});

test('alignment JSON is self-consistent and uses UTF-16 offsets', () => {
  const t = loaded();
  const text = 'Grüße 😀 aus Köln. Where is the station?';
  const r = translate(t, text, { beam: 1, alignments: true, all_heads: true });
  assert.equal(r.source_text, text);
  for (const s of r.sentences) {
    assert.equal(text.slice(...s.source_range), s.source);
    assert.equal(r.text.slice(...s.target_range), s.target);
    for (const tok of s.source_tokens) assert.ok(tok.range[0] <= tok.range[1] && tok.range[1] <= s.source.length);
    for (const [b, e] of s.source_words) assert.ok(s.source.slice(b, e).trim().length > 0);
    assert.equal(s.attention.length, s.target_tokens.length);
    for (const row of s.attention) {
      assert.equal(row.length, s.source_tokens.length);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4);
    }
    assert.equal(s.heads.length, 2);        // decoder layers
    assert.equal(s.heads[0].length, 4);     // heads
    assert.equal(s.heads[1][0].length, s.target_tokens.length);
    for (const [tw, sw, weight] of s.word_alignments) {
      assert.ok(tw < s.target_words.length && sw < s.source_words.length && weight > 0 && weight <= 1.0001);
    }
  }
  assert.ok(r.source_text.includes('😀'));
  t.delete();
});

test('bad input gives sensible results, never a crash', () => {
  const t = loaded();
  assert.equal(translate(t, '', {}).text, '');
  assert.equal(translate(t, '  \n\n \t', {}).text, '  \n\n \t', 'whitespace-only input comes back as it is (as the JS module returns it)');
  const long = 'The weather is nice today. '.repeat(800);  // ~21,600 characters
  const r = translate(t, long, { beam: 1 });
  assert.equal(r.sentences.length, 800);
  const bad = JSON.parse(t.translate('Hello', 'not json'));
  assert.equal(bad.ok, false);
  assert.match(bad.error, /options/);
  t.delete();
});

test('bad model bytes give clear errors', () => {
  const t = new Module.Translator();
  const good = new Uint8Array(readFileSync(FIXTURE));
  assert.match(t.load(new Uint8Array(0)), /empty/);
  assert.match(t.load(good.slice(0, 1000)), /truncated/);
  const corrupt = good.slice();
  corrupt[corrupt.length - 5] ^= 1;
  assert.match(t.load(corrupt), /checksum/);
  assert.match(t.load(new TextEncoder().encode('<html>not a model</html>'.repeat(4))), /magic/);
  assert.match(JSON.parse(t.translate('Hello', '{}')).error, /no model loaded/);
  assert.equal(t.load(good), '');
  t.delete();
});
