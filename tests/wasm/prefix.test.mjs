// Forced prefixes and alternatives: the WASM module (build-wasm/engine.js) and the native CLI
// (build/nmt --prefix, --alternatives) give the same translations and the same alternatives, on
// the fixture model and on the shipped en-de model (short sentences: native and WASM round floats
// differently, which long sentences can amplify; engine/BUILDING.md). The prefix is kept exactly
// (mid-word, trailing space, non-ASCII); the alternatives are ranked and include the greedy word.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE, engineModule } from './_engine.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE = path.join(ROOT, 'build/nmt');
const MODELS = [FIXTURE, path.join(ROOT, 'weights/en-de/model.nmt')].filter((m) => existsSync(m));

const Module = await engineModule();

const SOURCES = ['The house is small.', 'Where is the station?', 'I love you.'];
const PREFIXES = ['', 'Das', 'Das ', 'Das Ha', 'Wo ist', 'Grüße aus Kö', 'Ich  liebe ', '„Hallo'];

function loaded(file) {
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(file))), '');
  return t;
}

function call(t, method, text, options) {
  const r = JSON.parse(t[method](text, JSON.stringify(options)));
  assert.ok(r.ok, r.error);
  return r.result;
}

// The fixture agrees to the last digit; the shipped model's probabilities differ between the two
// builds (measured: 0.5753 vs 0.5798 for a token of "Wo ist der Bahnhof?", and 0.8023 vs 0.8196
// for "ist" after the improbable forced "Das": the states drift further apart after it).
const tolerance = (model) => (model.endsWith('tiny.nmt') ? 1e-4 : 0.05);

const native = (model, text, args) => execFileSync(NATIVE, ['--model', model, ...args], { input: text, encoding: 'utf8' });

test('WASM and native give the same translation with a prefix, which starts with the prefix exactly', () => {
  for (const model of MODELS) {
    const t = loaded(model);
    const differ = [];
    let cases = 0;
    for (const beam of [1, 4]) {
      for (const source of SOURCES) {
        for (const prefix of PREFIXES) {
          const label = `${path.basename(model)} beam ${beam} ${JSON.stringify(source)} prefix ${JSON.stringify(prefix)}`;
          const wasm = call(t, 'translate', source, { beam, prefix, alignments: true });
          // one CLI call a case: its JSON's text is what it writes as plain text (the same result)
          const nat = JSON.parse(native(model, source, ['--beam', String(beam), '--prefix', prefix, '--alignments']));
          const text = nat.text;
          assert.ok(wasm.text.startsWith(prefix), `${label}: ${wasm.text}`);
          assert.ok(text.startsWith(prefix), `${label}: native ${text}`);
          cases += 1;
          if (wasm.text !== text) {
            // (the shipped model only: a near-tie the two builds' rounding decides differently)
            differ.push(`${label}: ${JSON.stringify(wasm.text)} / ${JSON.stringify(text)}`);
            continue;
          }
          const [w, n] = [wasm.sentences[0], nat.sentences[0]];
          assert.deepEqual(w.target_tokens, n.target_tokens, label);
          assert.deepEqual(w.target_words, n.target_words, label);
          w.token_probs.forEach((p, i) => assert.ok(Math.abs(p - n.token_probs[i]) <= tolerance(model), `${label}: token ${i}`));
        }
      }
    }
    // The fixture: every translation the same; the shipped model (or a better one that replaces
    // it) at least 90% of these 48 (all of them when this was written).
    if (model.endsWith('tiny.nmt')) assert.deepEqual(differ, []);
    else assert.ok(differ.length <= cases / 10, differ.join('\n'));
    t.delete();
  }
});

test('WASM and native list the same alternatives: ranked, distinct, with the greedy word', () => {
  for (const model of MODELS) {
    const t = loaded(model);
    for (const source of SOURCES) {
      for (const prefix of ['', 'Das ', 'Ich ']) {
        const label = `${path.basename(model)} ${JSON.stringify(source)} prefix ${JSON.stringify(prefix)}`;
        const wasm = call(t, 'alternatives', source, { prefix, alternatives: 5 }).alternatives;
        const nat = JSON.parse(native(model, source, ['--prefix', prefix, '--alternatives', '5'])).alternatives;
        if (model.endsWith('tiny.nmt')) {
          assert.deepEqual(wasm.map((a) => [a.word, a.continuation]), nat.map((a) => [a.word, a.continuation]), label);
          wasm.forEach((a, i) => assert.ok(Math.abs(a.probability - nat[i].probability) <= tolerance(model), `${label}: ${a.word}`));
        } else {
          // (words of nearly equal probability may swap places or drop out between the builds, and a
          // greedy continuation after an unlikely word can take another turn: "den" / "die Bahnhof")
          for (const [mine, theirs] of [[wasm, nat], [nat, wasm]]) {
            for (const a of mine.filter((x) => x.probability >= 0.1)) {
              const b = theirs.find((x) => x.word === a.word);
              assert.ok(b, `${label}: ${a.word} in both`);
              assert.ok(Math.abs(a.probability - b.probability) <= tolerance(model), `${label}: ${a.word}`);
            }
          }
        }
        assert.equal(wasm.length, 5, label);
        const probs = wasm.map((a) => a.probability);
        assert.deepEqual(probs, [...probs].sort((a, b) => b - a), `${label}: most probable first`);
        assert.equal(new Set(wasm.map((a) => a.word)).size, wasm.length, `${label}: distinct`);
        // (the model's greedy translation: without a prefix a sentence may come from the translation memory)
        const greedy = call(t, 'translate', source, { beam: 1, prefix, model_only: true }).text.slice(prefix.length);
        assert.ok(wasm.some((a) => a.word + a.continuation === greedy), `${label}: greedy ${JSON.stringify(greedy)}`);
      }
    }
    t.delete();
  }
});

test('the WASM module refuses a prefix for several sentences and a prefix that is not a string', () => {
  const t = loaded(MODELS[0]);
  const two = JSON.parse(t.translate('Hello. Where is the station?', JSON.stringify({ prefix: 'Hallo' })));
  assert.deepEqual(two, { ok: false, error: 'a prefix needs exactly one sentence to translate (this text has 2)' });
  const bad = JSON.parse(t.alternatives('Hello.', JSON.stringify({ prefix: 3 })));
  assert.deepEqual(bad, { ok: false, error: 'prefix must be a string (got 3)' });
  const count = JSON.parse(t.alternatives('Hello.', JSON.stringify({ alternatives: 21 })));
  assert.deepEqual(count, { ok: false, error: 'alternatives must be an integer from 1 to 20 (got 21)' });
  t.delete();
});
