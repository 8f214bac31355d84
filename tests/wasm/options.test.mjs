// One table of decoding options: the WASM module's own (engine/options.h, via optionSpecs()) must
// equal web/options.js, which the JS module checks requests with; and both sides refuse the same
// values with the same wording (the engine names options in snake_case, JS in camelCase).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIXTURE, skip, engineModule } from './_engine.mjs';
import { DECODING_OPTIONS, allowedValues, engineOptions, jsName } from '../../web/options.js';

// What an option needs from the others to be used at all: sampling needs beam 1.
const NEEDS = { sample_top_k: { beam: 1 } };

// Values each option must refuse, and one it must take.
function badValues(spec) {
  if (spec.kind === 'flag') return [1, 'yes', null];
  if (spec.kind === 'text') return [5, true, null];
  if (spec.kind === 'switches') return [1, null, [], { nope: false }, { numbers: 1 }];
  if (spec.kind === 'terms') return [1, null, [], { Haus: 1 }];
  const bad = [spec.min - 1, spec.max + 1, String(spec.default)];
  if (spec.kind === 'integer') bad.push(spec.min + 0.5);
  return bad;
}

test('the WASM module and web/options.js have the same option table', { skip }, async () => {
  const Module = await engineModule();
  assert.equal(typeof Module.optionSpecs, 'function', 'the engine exports optionSpecs()');
  assert.deepEqual(JSON.parse(Module.optionSpecs()), DECODING_OPTIONS.map((o) => ({ ...o })));
});

test('the engine and the JS module refuse the same values with the same wording', { skip }, async () => {
  const Module = await engineModule();
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(FIXTURE))), '');
  try {
    for (const spec of DECODING_OPTIONS) {
      for (const value of badValues(spec)) {
        const label = `${spec.name} = ${JSON.stringify(value)}`;
        const r = JSON.parse(t.translate('Hello.', JSON.stringify({ [spec.name]: value })));
        assert.equal(r.ok, false, `the engine refuses ${label}`);
        assert.equal(r.error, `${spec.name} must be ${allowedValues(spec)} (got ${JSON.stringify(value)})`);
        assert.throws(() => engineOptions({ [jsName(spec.name)]: value }),
          { code: 'bad-request', message: `translate(): ${jsName(spec.name)} must be ${allowedValues(spec)} (got ${typeof value === 'string' || (value && typeof value === 'object') ? JSON.stringify(value) : value}).` },
          `translate() refuses ${label}`);
      }
      const ends = spec.kind === 'flag' ? [false, true] : spec.kind === 'text' ? ['', 'Das Ha']
        : spec.kind === 'switches' ? [{}, { numbers: false, quotes: true }]
        : spec.kind === 'terms' ? [{}, { Hello: 'Hallo' }] : [spec.min, spec.max];
      for (const value of ends) {
        const options = engineOptions({ [jsName(spec.name)]: value, ...NEEDS[spec.name] });
        assert.deepEqual(options[spec.name], value);
        const r = JSON.parse(t.translate('Hello.', JSON.stringify(options)));
        assert.ok(r.ok, `${spec.name} = ${value}: ${r.error}`);
      }
    }
  } finally {
    t.delete();
  }
});

test('the engine refuses sampling with a beam, naming both options', { skip }, async () => {
  const Module = await engineModule();
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(FIXTURE))), '');
  try {
    const refused = JSON.parse(t.translate('Hello.', JSON.stringify({ sample_top_k: 5 })));  // the default beam is 4
    assert.equal(refused.ok, false);
    assert.equal(refused.error, 'sample_top_k must be 0 unless beam is 1 (got sample_top_k 5 with beam 4)');
    assert.throws(() => engineOptions({ sampleTopK: 5 }),
      { code: 'bad-request', message: 'translate(): sampleTopK must be 0 unless beam is 1 (got sampleTopK 5 with beam 4).' });
    assert.throws(() => engineOptions({ sampleTopK: 5, beam: 2 }), { code: 'bad-request' });
    assert.deepEqual(engineOptions({ sampleTopK: 0, beam: 4 }), { sample_top_k: 0, beam: 4, alignments: true });
    const options = JSON.stringify(engineOptions({ beam: 1, sampleTopK: 1000, seed: 3, alignments: false }));
    const a = JSON.parse(t.translate('The house is small.', options));
    assert.ok(a.ok, a.error);
    assert.equal(JSON.parse(t.translate('The house is small.', options)).text, a.text);  // the seed reproduces it
  } finally {
    t.delete();
  }
});
