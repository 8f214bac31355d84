// A bad glossary is refused the same way on both sides: the WASM engine's glossary_error()
// (engine/text/glossary.h) and web/options.js's glossaryError(), which lets translate() reject with
// 'bad-request' before a request queues (the demo page's Terms box shows that message under the line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { FIXTURE, skip, engineModule } from './_engine.mjs';
import { engineOptions } from '../../web/options.js';

const many = Object.fromEntries(Array.from({ length: 10001 }, (_, i) => [`term${i}`, `Begriff${i}`]));
const BAD = [
  { a: 'b' }, // a source term under 2 bytes
  { '': 'leer' },
  { Haus: '' }, // an empty target term
  { ['x'.repeat(201)]: 'y' }, { ab: 'y'.repeat(201) }, // longer than 200 bytes
  { '   ': 'Leerzeichen' }, // spaces only
  { ['x' + 'ä'.repeat(30)]: '' }, // named by its first 40 bytes (cut inside a character)
  { zz: '', é: '', b: 'c', Ü: 'x', 'Zeit ': '' }, // several bad ones: the first in UTF-8 byte order is named
  many,
];

test('the engine and translate() refuse the same glossaries in the same words', { skip }, async () => {
  const Module = await engineModule();
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(FIXTURE))), '');
  try {
    for (const glossary of BAD) {
      const label = JSON.stringify(glossary).slice(0, 80);
      const r = JSON.parse(t.translate('Hello house.', JSON.stringify({ glossary })));
      assert.equal(r.ok, false, `the engine refuses ${label}`);
      assert.match(r.error, /glossary/);
      assert.throws(() => engineOptions({ glossary }), { code: 'bad-request', message: `translate(): ${r.error}.` }, label);
    }
    const good = { house: 'Gebäude', 'Acme Cloud': 'Acme Cloud', ab: 'x' };
    assert.ok(JSON.parse(t.translate('Hello house.', JSON.stringify(engineOptions({ glossary: good })))).ok);
  } finally {
    t.delete();
  }
});

test('a term with a lone surrogate (no UTF-8 at all) is refused before it reaches the engine', () => {
  assert.throws(() => engineOptions({ glossary: { 'ab\uD800': 'x' } }),
    { code: 'bad-request', message: 'translate(): the glossary\'s term "ab\uFFFD" is not valid UTF-8.' });
});
