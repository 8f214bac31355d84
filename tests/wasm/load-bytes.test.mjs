// Translator.load() copies the model's bytes into the engine's memory and keeps no reference to
// the array it was given: a worker that loads a copy of the model (a pool helper, a restart) can
// let that copy go. (Through embind's val::call, its method caller kept the last array for good:
// ~11 MB a worker with the shipped models.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { engineModule, FIXTURE, skip } from './_engine.mjs';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc'); // (a fresh context gets the flag's gc())

/** True when the ArrayBuffer `ref` points to has been collected. */
async function collected(ref) {
  // A WeakRef's target is kept until the current job ends: let it end, then collect.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  return ref.deref() === undefined;
}

test('load() and loadReverse() keep no reference to the bytes they were given', { skip }, async () => {
  const Module = await engineModule();
  const t = new Module.Translator();
  const refs = [];
  for (const method of ['load', 'loadReverse']) {
    let bytes = new Uint8Array(readFileSync(FIXTURE)); // (its own buffer)
    refs.push(new WeakRef(bytes.buffer));
    const error = t[method](bytes);
    assert.ok(error === '' || method === 'loadReverse', `${method}: ${error}`); // (the fixture may not fit as its own reverse: the copy is what counts)
    bytes = null;
  }
  for (const [i, ref] of refs.entries()) assert.ok(await collected(ref), `the array given to ${['load', 'loadReverse'][i]}() is still alive`);
  // the engine translates from its own copy
  const r = JSON.parse(t.translate('Hello!', JSON.stringify({ beam: 1 })));
  assert.ok(r.ok, r.error);
  t.delete();
});
