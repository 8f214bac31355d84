/**
 * The public module's API in Node: the real translator.js, worker.js and protocol.js running in a
 * worker thread, with the fake engine (tests/web/fake-engine.mjs) so that queueing, cancellation,
 * errors and worker restarts are tested quickly and deterministically. The real WASM engine is
 * exercised by module-wasm.test.mjs and the browser tests.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { Translator, TranslatorError, PROTOCOL_VERSION, hasWasmSimd, listModels, translateElement } from '../../web/translator.js';
import { planChunks, fencedCodeBlocks, sentenceGroups, ResultBuilder, pickModel } from '../../web/protocol.js';
import { unpackSentences } from '../../web/packed-sentences.js';
import { ROOT, fileUrl, streamAbortedAfterFirstSentence } from './_helpers.mjs';

const FAKE_ENGINE = fileUrl(path.join(ROOT, 'tests/web/fake-engine.mjs'));
const dir = mkdtempSync(path.join(tmpdir(), 'nmt-web-'));
const MODEL = path.join(dir, 'model.nmt');
writeFileSync(MODEL, 'NMTMODEL fake model bytes');
const BAD_MODEL = path.join(dir, 'bad.nmt');
writeFileSync(BAD_MODEL, 'BAD model');
const MANIFEST = path.join(dir, 'manifest.json');
writeFileSync(MANIFEST, JSON.stringify({ models: [{ from: 'en', to: 'de', file: 'model.nmt' }, { from: 'de', to: 'en', file: 'model.nmt' }] }));

const create = (extra = {}) => Translator.create({ engineUrl: FAKE_ENGINE, wasmUrl: FAKE_ENGINE, modelUrl: fileUrl(MODEL), ...extra });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function checkRanges(input, r) {
  for (const s of r.sentences) {
    assert.equal(input.slice(...s.sourceRange), s.source);
    assert.equal(r.text.slice(...s.targetRange), s.target);
  }
}

test('planChunks covers the text, trimmed, in order, under the size limit when it can', () => {
  const para = (n) => Array.from({ length: n }, (_, i) => `Sentence number ${i} is here.`).join(' ');
  const text = `  ${para(5)}\n\n${para(40)}\n\n\n${para(2)}\nline two\n\n${para(300)}  `;
  const chunks = planChunks(text, 1000);
  let last = 0;
  let covered = '';
  for (const [b, e] of chunks) {
    assert.ok(b >= last && e > b);
    assert.ok(!/\s/.test(text[b]) && !/\s/.test(text[e - 1]));
    assert.ok(e - b <= 3000, `chunk of ${e - b} chars`);
    covered += text.slice(last, b).replace(/\S/g, 'X') + text.slice(b, e);
    last = e;
  }
  covered += text.slice(last);
  assert.equal(covered, text, 'only whitespace lies between chunks');
  assert.deepEqual(planChunks('   \n\n  '), []);
  assert.deepEqual(planChunks('Hi.'), [[0, 3]]);
});

test('planChunks leaves Markdown code blocks out of every chunk: copied between them, never cut', () => {
  const code = '```js\nconst a = 1;\n\n// Save the file\nsave(a);\n```\n';
  const text = `Install it first.\n\n${code}Then run it.\n  ~~~\nnpm test\n  ~~~\nDone.\n\`\`\`\nA stray fence is text.`;
  assert.deepEqual(fencedCodeBlocks(text).map(([b, e]) => text.slice(b, e)), [code, '  ~~~\nnpm test\n  ~~~\n']);
  const chunks = planChunks(text, 1000).map(([b, e]) => text.slice(b, e));
  assert.deepEqual(chunks, ['Install it first.', 'Then run it.', 'Done.\n```\nA stray fence is text.']);
  for (const max of [5, 20, 1000]) {
    for (const [b, e] of planChunks(text, max)) {
      for (const [cb, ce] of fencedCodeBlocks(text)) assert.ok(e <= cb || b >= ce, `a chunk of size ${max} reaches into code`);
    }
  }
  assert.deepEqual(planChunks(code), []);
  assert.deepEqual(fencedCodeBlocks('``` not closed\ntext'), []);
});

test('planChunks bounds every chunk: text without punctuation or spaces is cut at spaces, then between characters', () => {
  const words = 'the house is small and the cat sleeps on a warm chair'.split(' ');
  let unbroken = '';
  for (let i = 0; unbroken.length < 60000; i++) unbroken += (unbroken ? ' ' : '') + words[i % words.length];
  const cases = [
    [unbroken, 1000], // no punctuation, no newline: cut at spaces
    ['x'.repeat(20000), 1000], // one "word": cut every 1000 characters
    [`${'y'.repeat(5000)} ${'z'.repeat(4000)}.\n\n${'w '.repeat(3000)}`, 500],
    ['😀'.repeat(3000), 999], // surrogate pairs, an odd limit
    ['e\u0301'.repeat(2000) + '👩‍👩‍👧‍👦'.repeat(300) + '🇩🇪'.repeat(500), 1000], // combining marks, ZWJ sequences, flags
  ];
  for (const [text, max] of cases) {
    const chunks = planChunks(text, max);
    let last = 0;
    for (const [b, e] of chunks) {
      assert.ok(b >= last && e > b);
      assert.ok(e - b <= 3 * max, `chunk of ${e - b} chars (limit ${3 * max})`);
      assert.equal(text.slice(last, b).trim(), '', 'only whitespace between chunks');
      assert.ok(!/\s/.test(text[b]) && !/\s/.test(text[e - 1]));
      // Never between a surrogate pair, nor before a combining mark, a joiner or a joined character.
      assert.ok(!/^[\udc00-\udfff\p{M}\u200d]/u.test(text.slice(b)), `chunk starts inside a character at ${b}`);
      assert.ok(!text.slice(0, b).endsWith('\u200d'));
      last = e;
    }
    assert.equal(text.slice(last).trim(), '');
  }
  const words60k = planChunks(unbroken, 1000);
  assert.ok(words60k.length >= 60 && words60k.every(([b, e]) => e - b <= 1000), 'cut at spaces into chunks of at most chunkChars');
  assert.deepEqual(planChunks('x'.repeat(2500), 1000), [[0, 2500]], 'up to 3 × chunkChars stays whole');
  assert.deepEqual(planChunks('x'.repeat(3500), 1000), [[0, 1000], [1000, 2000], [2000, 3000], [3000, 3500]]);
  const flags = '🇩🇪'.repeat(1000); // each flag is two pairs: 4 code units
  assert.ok(planChunks(flags, 1001).every(([b]) => b % 4 === 0), 'a flag is never cut in two');
});

test('sentenceGroups cuts a short text between its sentences into groups of 2, 2, 4, … sentences; the worker sends each as it is done', async () => {
  const ranges = (text) => [...text.matchAll(/[^.!?\n]+[.!?]*/g)].map((m) => [m.index + m[0].length - m[0].trimStart().length, m.index + m[0].trimEnd().length]).filter(([b, e]) => b < e);
  const cut = (text, n) => sentenceGroups(ranges(text), planChunks(text)[0]).map(([b, e]) => text.slice(b, e));
  // lines and sentences alike; the gaps between groups are left to copy
  const text = ' L1.\r\n\nL2.\nL3. Two.\n  L4.\nL5.\nL6.\nL7. Eight. Nine.\n';
  assert.deepEqual(cut(text), ['L1.\r\n\nL2.', 'L3. Two.', 'L4.\nL5.\nL6.\nL7.', 'Eight. Nine.']);
  // one long line; a last sentence left alone joins the group before it (a lone sentence can read as a fragment)
  assert.deepEqual(cut('A1. A2. A3. A4. A5.'), ['A1. A2.', 'A3. A4. A5.']);
  assert.deepEqual(cut('A1. A2. A3. A4. A5. A6. A7. A8. A9.'), ['A1. A2.', 'A3. A4.', 'A5. A6. A7. A8. A9.']);
  // fewer than four sentences: the chunk, whole (from its first character to its last)
  assert.deepEqual(cut(' One line. Two sentences. Three. '), ['One line. Two sentences. Three.']);
  assert.deepEqual(sentenceGroups([], [0, 3]), [[0, 3]]);
  assert.deepEqual(sentenceGroups([[3, 5], [6, 8], [9, 11], [12, 14]], [0, 16]), [[0, 8], [9, 16]], 'the first group starts at the chunk, the last ends with it');

  const t = await create();
  try {
    const parts = [];
    const r = await t.translate(text, { onProgress: (p) => parts.push(p.sentences.map((s) => s.source)) });
    assert.deepEqual(parts, [['L1.', 'L2.'], ['L3.', 'Two.'], ['L4.', 'L5.', 'L6.', 'L7.'], ['Eight.', 'Nine.']]);
    assert.equal(r.text, (await t.translate(text, { chunkChars: Infinity })).text, 'the same translation as in one engine call');
    checkRanges(text, r);
    const line = Array.from({ length: 9 }, (_, i) => `Sentence ${i + 1} here.`).join(' ');
    const lineParts = [];
    const lr = await t.translate(line, { onProgress: (p) => lineParts.push(p.sentences.length) });
    assert.deepEqual(lineParts, [2, 2, 5], 'one line of nine sentences: three engine calls, each reported');
    assert.equal(lr.text, (await t.translate(line, { chunkChars: Infinity })).text);
    checkRanges(line, lr);
    const greedy = [];
    await t.translate(text, { beam: 1, onProgress: (p) => greedy.push(p) });
    assert.equal(greedy.length, 0, 'greedy: one engine call');
  } finally {
    t.dispose();
  }
});

test('ResultBuilder keeps the gaps between chunks and shifts the ranges', () => {
  const input = '  A b.\n\nC d.\n';
  const b = new ResultBuilder(input);
  const eng = (src, tgt, at) => ({ text: tgt, sentences: [{ source: src, target: tgt, source_range: [0, src.length], target_range: [0, tgt.length], source_tokens: [], target_tokens: [] }], stats: { source_tokens: 3, target_tokens: 4, ms: { total: 10, encode: 4, decode: 6 } }, at });
  const first = b.add(2, 6, eng('A b.', 'X y z.'));
  const second = b.add(8, 12, eng('C d.', 'W.'));
  const r = b.finish();
  assert.equal(r.text, '  X y z.\n\nW.\n');
  assert.equal(r.sentences, null, 'after two chunks, the sentences went out with them (packed)');
  checkRanges(input, { ...r, sentences: [...unpackSentences(first.sentences, input), ...unpackSentences(second.sentences, input)] });
  assert.equal(r.stats.targetTokens, 8);
  assert.equal(r.stats.tokensPerSecond, 400);
  assert.throws(() => pickModel({ models: [{ from: 'en', to: 'de', file: 'x' }] }, 'en', 'fr'), /No en→fr model.*available: en→de/);
});

test('WebAssembly SIMD is detected here', () => {
  assert.equal(hasWasmSimd(), true);
});

test('create() reports progress, translate() returns sentences, tokens, alignments and timings', async () => {
  const progress = [];
  const t = await create({ onProgress: (p) => progress.push(p) });
  try {
    assert.ok(progress.length > 0, 'onProgress was called');
    const last = progress.findLast((p) => p.phase === 'download');
    assert.ok(last.total > 0 && last.loaded === last.total, `download progress ends complete: ${JSON.stringify(last)}`);
    assert.equal(t.info.languages.source, 'en');
    const input = ' Hello world. How are you?\n\nFine thanks.\n';
    const r = await t.translate(input, { beam: 2, alignments: true });
    assert.equal(r.sentences.length, 3);
    assert.ok(r.text.startsWith(' ') && r.text.includes('\n\n') && r.text.endsWith('\n'), JSON.stringify(r.text));
    checkRanges(input, r);
    const s = r.sentences[0];
    assert.equal(s.sourceTokens.at(-1).piece, '</s>');
    assert.equal(s.attention.length, s.targetTokens.length);
    assert.equal(s.attention[0].length, s.sourceTokens.length);
    assert.ok(s.wordAlignments.length > 0);
    const a = s.wordAlignments[0];
    assert.equal(s.source.slice(...a.sourceRange), 'Hello');
    assert.ok(a.weight > 0 && a.weight <= 1);
    assert.equal(s.score, -0.5);
    assert.equal(s.tokenProbs.length, s.targetTokens.length);
    assert.equal(s.targetWordConfidence.length, s.targetWords.length);
    for (const k of ['engineMs', 'workerMs', 'queueMs', 'totalMs']) assert.equal(typeof r.timings[k], 'number', k);
    assert.ok(r.stats.tokensPerSecond > 0);
    const plain = await t.translate('Hello.', { alignments: false });
    assert.equal(plain.sentences[0].attention, undefined);
    assert.equal(plain.sentences[0].targetWordConfidence, undefined, 'word confidence comes with the words (alignments)');
    assert.ok(plain.sentences[0].tokenProbs.length > 0, 'token probabilities always');
    const heads = await t.translate('Hello there.', { allHeads: true });
    assert.equal(heads.sentences[0].heads.length, 2);
    assert.equal((await t.translate('')).text, '');
    const mem = await t.memory();
    assert.ok(mem.wasmBytes > 0);
  } finally {
    t.dispose();
  }
});

test('create() reports each start phase when it begins, in order: download, verify, compile, load', async (t) => {
  // A model with a SHA-256 to verify that takes 300 ms to load, and an engine that takes 400 ms to
  // start (it starts with the downloads, which take a few ms here).
  const slowModel = path.join(dir, 'slow.nmt');
  writeFileSync(slowModel, 'NMTMODEL __slowload__');
  const slowWasm = path.join(dir, 'slow.wasm');
  writeFileSync(slowWasm, 'fake wasm compile_ms=400');
  const sha = createHash('sha256').update(readFileSync(slowModel)).digest('hex');
  const events = [];
  const t0 = performance.now();
  const tr = await create({ modelUrl: fileUrl(slowModel), modelSha256: sha, wasmUrl: fileUrl(slowWasm), onProgress: (p) => events.push({ phase: p.phase, at: performance.now() - t0, p }) });
  const ready = performance.now() - t0;
  // The worker's own clock of its start, in ms after create() (which began after t0: each 'at'
  // below is, if anything, later on that clock, so the checks that a phase came early are no easier).
  const { phases: worker } = tr.timings.startup;
  tr.dispose();
  const phases = events.map((e) => e.phase).filter((p, i, all) => p !== all[i - 1]);
  assert.deepEqual(phases, ['download', 'verify', 'compile', 'load'], 'each phase once, in order');
  const at = (phase) => events.find((e) => e.phase === phase).at;
  const lastDownload = events.findLast((e) => e.phase === 'download').p;
  assert.ok(lastDownload.loaded === lastDownload.total && lastDownload.total > 0, 'downloads are complete before verify');
  const [, engineDone] = worker.instantiate;
  const [loadStart, loadDone] = worker.modelLoad;
  t.diagnostic(`received: verify ${Math.round(at('verify'))}, compile ${Math.round(at('compile'))}, load ${Math.round(at('load'))}, ready ${Math.round(ready)} ms; `
    + `the worker's engine started at ${Math.round(engineDone)}, its model loaded ${Math.round(loadStart)}..${Math.round(loadDone)} ms`);
  assert.ok(engineDone >= 350 && loadDone - loadStart >= 280, 'the slow engine and model took their time');
  // 'verify' and 'compile' arrive while the start waits 400 ms for the engine, not after it; 'load'
  // after the engine started and while the model loads (300 ms), not after. (Against the worker's
  // clock, not a fixed margin: a message can take tens of ms to arrive on a loaded machine.)
  assert.ok(at('verify') < engineDone, `verify received at ${Math.round(at('verify'))} ms, the engine started at ${Math.round(engineDone)}`);
  assert.ok(at('compile') < engineDone, `compile received at ${Math.round(at('compile'))} ms, the engine started at ${Math.round(engineDone)}`);
  assert.ok(at('load') < loadDone, `load received at ${Math.round(at('load'))} ms, the model loaded at ${Math.round(loadDone)}`);
  assert.ok(at('load') >= engineDone - 1, 'the engine start lies between compile and load');
});

test('requests are queued and answered in order', async () => {
  const t = await create();
  try {
    const inputs = ['One __slow__.', 'Two.', 'Three.', 'Four five.'];
    const results = await Promise.all(inputs.map((x) => t.translate(x)));
    results.forEach((r, i) => checkRanges(inputs[i], r));
    assert.equal(results[1].sentences[0].target, 'owT .');
    assert.ok(results[1].timings.queueMs >= 100, `the second request waited behind the slow first (${results[1].timings.queueMs} ms)`);
  } finally {
    t.dispose();
  }
});

test('an aborted queued request never runs; an aborted running request rejects at once and stops early', async () => {
  const t = await create();
  try {
    // Queued: B (2 s of work) is aborted before it starts, so C comes right after A.
    const a = t.translate('A __slow__.');
    const ac = new AbortController();
    const b = t.translate(Array.from({ length: 13 }, (_, i) => `B${i} __slow__.`).join(' '), { signal: ac.signal });
    const c = t.translate('C.');
    ac.abort();
    await assert.rejects(b, { name: 'AbortError' });
    const t0 = performance.now();
    await a;
    await c;
    // (B's 13 slow sentences busy-wait 1,950 ms of wall time in all, however idle or loaded the machine: had B run,
    // A and C could not be back sooner; no fixed time limit, which a loaded machine can miss)
    assert.ok(performance.now() - t0 < 13 * 150, 'C did not wait for the aborted B');

    // Running: 20 paragraphs × 150 ms, cut into chunks; abort after the first chunk.
    const long = Array.from({ length: 20 }, (_, i) => `Paragraph ${i} __slow__ ${'x'.repeat(1000)}.`).join('\n\n');
    const ac2 = new AbortController();
    let partials = 0;
    const running = t.translate(long, { signal: ac2.signal, onProgress: () => { partials += 1; if (partials === 1) ac2.abort(); } });
    const t1 = performance.now();
    await assert.rejects(running, { name: 'AbortError' });
    assert.ok(performance.now() - t1 < 20 * 150, 'rejected without waiting for the whole text (20 × 150 ms of busy-waiting)');
    const t2 = performance.now();
    const next = await t.translate('Next.');
    assert.equal(next.sentences.length, 1);
    assert.ok(performance.now() - t2 < 19 * 150, `the worker skipped the rest of the aborted text (${performance.now() - t2} ms)`);
    assert.ok(partials < 5);
    // The busy worker was ended, not waited for: a new one took its place (an aborted queued request costs nothing).
    assert.equal(t.restarts, 1);

    // Already aborted.
    await assert.rejects(t.translate('x', { signal: AbortSignal.abort() }), { name: 'AbortError' });
  } finally {
    t.dispose();
  }
});

test('a replaced worker has ended before the next one starts (a recycle, an abort): two engines never hold memory at once', async () => {
  // Every worker thread this process starts (Node's 'worker' event), and how many were alive then.
  const live = new Set();
  const aliveAtStart = [];
  const youngGenerationMb = [];
  const onWorker = (w) => {
    aliveAtStart.push(live.size);
    youngGenerationMb.push(w.resourceLimits.maxYoungGenerationSizeMb);
    live.add(w);
    w.once('exit', () => live.delete(w));
  };
  process.on('worker', onWorker);
  const pooled = await create({ workers: 2, recycleChars: 3000 });
  const single = await create({ workers: 1 });
  try {
    // 8 chunks of 150 ms over the first worker and a helper, then the recycle replaces the first
    // worker and ends the helper: the new worker starts once both threads are gone.
    const long = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} __slow__ ${'z'.repeat(990)}.`).join('\n\n');
    assert.equal((await pooled.translate(long)).stats.workers, 2);
    assert.equal(pooled.restarts, 1, 'the restart counts as soon as it is decided');
    assert.equal((await pooled.translate('Next.')).text, 'txeN .');
    // the first worker, the other Translator's, the helper, then the replacement: only the other
    // Translator's worker was alive when it started
    assert.deepEqual(aliveAtStart, [0, 1, 2, 1]);

    // An abort ends the busy worker; its replacement starts after it is gone.
    const ac = new AbortController();
    const slow = Array.from({ length: 3 }, (_, i) => `Slow ${i} __slow__ ${'y'.repeat(1000)}.`).join('\n\n');
    const running = single.translate(slow, { signal: ac.signal, onProgress: () => ac.abort() });
    await assert.rejects(running, { name: 'AbortError' });
    assert.equal(single.restarts, 1);
    assert.equal((await single.translate('Next.')).text, 'txeN .');
    assert.equal(aliveAtStart.length, 5);
    assert.equal(aliveAtStart[4], 1, 'only the pooled Translator\'s worker was alive when the replacement started');
    // each worker's young generation is bounded (translator.js WORKER_LIMITS), not V8's default 48 MiB
    assert.deepEqual(youngGenerationMb, [8, 8, 8, 8, 8]);
  } finally {
    process.off('worker', onWorker);
    pooled.dispose();
    single.dispose();
  }
});

test('long inputs report progress chunk by chunk and come back complete', async () => {
  const t = await create();
  try {
    const paras = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} has words. And ${'more '.repeat(60)}words.`);
    const input = paras.join('\n\n');
    const seen = [];
    const r = await t.translate(input, { onProgress: (p) => seen.push(p) });
    assert.ok(seen.length >= 2);
    assert.ok(seen.at(-1).text.length <= r.text.length);
    assert.equal(r.text.split('\n\n').length, 30);
    assert.equal(r.sentences.length, 60);
    checkRanges(input, r);
  } finally {
    t.dispose();
  }
});

test('translateStreaming() yields translate()\'s sentences chunk by chunk, in order; abort, cancel and errors end it', async () => {
  const t = await create();
  try {
    const paras = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} is here __slow__. And ${'more '.repeat(40)}words.`);
    const input = paras.join('\n\n');
    const options = { chunkChars: 250 };
    const whole = await t.translate(input, options);
    const events = [];
    const streamed = [];
    const stream = t.translateStreaming(input, { ...options, onProgress: (p) => events.push(['progress', p.range]) });
    assert.ok(stream instanceof ReadableStream);
    for await (const s of stream) {
      streamed.push(s);
      events.push(['sentence', s.sourceRange]);
    }
    assert.deepEqual(streamed, whole.sentences, 'the same sentences as translate()');
    checkRanges(input, { text: whole.text, sentences: streamed });
    const firstSentence = events.findIndex(([k]) => k === 'sentence');
    const progress = events.filter(([k]) => k === 'progress');
    assert.ok(progress.length >= 3, `${progress.length} chunks`);
    assert.ok(firstSentence < events.lastIndexOf(progress.at(-1)), 'the first sentence came before the last chunk was done');
    // each sentence is yielded after its chunk is done
    for (const [k, range] of events) {
      if (k !== 'sentence') continue;
      const chunk = progress.find(([, [b, e]]) => range[0] >= b && range[1] <= e);
      assert.ok(events.indexOf(chunk) < events.findIndex(([, r]) => r === range));
    }
    assert.deepEqual((await stream.translation).sentences, whole.sentences);

    // one chunk: everything at the end; bad options and text error the stream
    const one = [];
    for await (const s of t.translateStreaming('Hello world. Bye.')) one.push(s.target);
    assert.deepEqual(one, ['olleH dlrow .', 'eyB .']);
    await assert.rejects(async () => { for await (const s of t.translateStreaming('x', { beam: 0 })) assert.fail(s); }, { code: 'bad-request' });
    await assert.rejects(async () => { for await (const s of t.translateStreaming(42)) assert.fail(s); }, { code: 'bad-request' });
    await assert.rejects(async () => { for await (const s of t.translateStreaming('x', { signal: AbortSignal.abort() })) assert.fail(s); }, { name: 'AbortError' });

    // abort after the first sentence: the iteration rejects at once, the worker is replaced
    const got = await streamAbortedAfterFirstSentence(t, input, options);
    assert.equal(got.length, 1, 'nothing after the abort');
    assert.equal(t.restarts, 1);
    assert.equal((await t.translate('Next.')).text, 'txeN .');

    // leaving the loop early cancels the request the same way
    for await (const s of t.translateStreaming(input, options)) { assert.ok(s); break; }
    assert.equal((await t.translate('Next.')).text, 'txeN .');
    assert.equal(t.restarts, 2);
  } finally {
    t.dispose();
  }
});

test('errors reject with clear messages and the translator stays usable', async () => {
  const t = await create();
  try {
    await assert.rejects(t.translate('__error__'), (e) => e instanceof TranslatorError && e.code === 'translate' && /refuses/.test(e.message));
    await assert.rejects(t.translate(42), { code: 'bad-request' });
    await assert.rejects(t.translate('x', { beam: 0 }), { code: 'bad-request', message: 'translate(): beam must be an integer from 1 to 16 (got 0).' });
    await assert.rejects(t.translate('x', { lengthPenalty: 3 }), { code: 'bad-request', message: /lengthPenalty must be a number from 0 to 2 \(got 3\)/ });
    await assert.rejects(t.translate('x', { allHeads: 'yes' }), { code: 'bad-request', message: /allHeads must be true or false \(got "yes"\)/ });
    // translate()'s own options too: -5 was read as 2-character chunks, '500' and NaN as the default
    for (const chunkChars of [-5, 0, '500', Number.NaN, null]) {
      await assert.rejects(t.translate('x', { chunkChars }), { code: 'bad-request', message: /chunkChars must be a number of characters/ }, String(chunkChars));
    }
    await assert.rejects(t.translate('<p>x</p>', { html: true, chunkChars: -5 }), { code: 'bad-request' });
    // HTML mode checks its names before any request (also with no text to translate) and lists its own batchChars;
    // htmlPlacement (scripts/html-placement.mjs's measurement switch) is no option of it
    for (const html of ['<p>x</p>', '<br>']) {
      await assert.rejects(t.translate(html, { html: true, htmlPlacement: 'hard' }),
        { code: 'bad-request', message: /^translate\(\): "htmlPlacement" is not an option \(options: beam, .*, glossary, signal, onProgress, chunkChars, html, batchChars\)\.$/ }, html);
      await assert.rejects(t.translate(html, { html: true, bean: 4 }), { code: 'bad-request', message: /"bean" is not an option/ }, html);
    }
    for (const batchChars of [-5, 0, '500', Number.NaN, null]) {
      await assert.rejects(t.translate('<p>x</p>', { html: true, batchChars }), { code: 'bad-request', message: /^translate\(\): batchChars must be a number of characters, 1 or more/ }, String(batchChars));
    }
    await assert.rejects(t.translate('x', { batchChars: 100 }), { code: 'bad-request', message: /"batchChars" is not an option/ }, 'plain text: no batches');
    // html is true or false: 'false' or 1 translated the text as HTML
    await assert.rejects(t.translate('<b>x</b>', { html: 'false' }), { code: 'bad-request', message: 'translate(): html must be true or false (got "false").' });
    await assert.rejects(t.translate('<b>x</b>', { html: 1 }), { code: 'bad-request', message: 'translate(): html must be true or false (got 1).' });
    assert.equal((await t.translate('<b>x</b>', { html: false })).html, undefined);
    assert.equal((await t.translate('<b>x</b>', { html: null })).html, undefined);
    const batches = [];
    const perBatch = await t.translate('<p>One here.</p><p>Two here.</p>', { html: true, batchChars: 1, onProgress: (p) => batches.push(p.done) });
    assert.match(perBatch.text, /^<p>.+<\/p><p>.+<\/p>$/);
    assert.equal(batches.length, 2, 'batchChars 1: a request for each paragraph');
    await assert.rejects(t.translate('x', { onProgress: 'show' }), { code: 'bad-request', message: 'translate(): onProgress must be a function (got string).' });
    await assert.rejects(async () => { for await (const s of t.translateStreaming('x', { chunkChars: -5 })) assert.fail(s); },
      { code: 'bad-request', message: /^translateStreaming\(\): chunkChars/ });
    assert.equal((await t.translate('Fine.', { chunkChars: 1, onProgress: null })).sentences.length, 1);
    // `alternatives` is alternatives()'s count (docs/api.md), no translate() option, and no unknown name's message lists it
    await assert.rejects(t.translate('x', { alternatives: 3 }), { code: 'bad-request', message: /"alternatives" is not an option/ });
    await assert.rejects(t.translate('x', { bean: 4 }), (e) => e.code === 'bad-request' && /prefix, shortlist/.test(e.message));
    assert.equal((await t.alternatives('The house.', 'Das ', { count: 2 })).length, 2);
    // nor options of alternatives(), whose count and targetPrefix overrode them: { alternatives: 3 } listed 5
    await assert.rejects(t.alternatives('The house.', 'Das ', { alternatives: 3 }), { code: 'bad-request', message: /"alternatives" is not an option/ });
    await assert.rejects(t.alternatives('The house.', 'Das ', { prefix: 'Die ' }), (e) => e.code === 'bad-request' && /"prefix" is not an option.*count, signal/.test(e.message));
    assert.equal((await t.alternatives('The house.', 'Das ', { count: 3, beam: 1 })).length, 3);
    assert.equal((await t.translate('Still here.')).sentences.length, 1);
  } finally {
    t.dispose();
  }
  await assert.rejects(create({ modelUrl: fileUrl(BAD_MODEL) }), (e) => e.code === 'model-load' && /bad magic/.test(e.message));
  await assert.rejects(create({ modelUrl: fileUrl(path.join(dir, 'missing.nmt')) }), (e) => e.code === 'download' && /missing\.nmt.*no such file/.test(e.message));
  await assert.rejects(create({ modelUrl: undefined, manifestUrl: fileUrl(MANIFEST), from: 'en', to: 'fr' }), (e) => e.code === 'model-not-found' && /en→fr.*en→de, de→en/.test(e.message));
  await assert.rejects(create({ engineUrl: fileUrl(path.join(dir, 'nope.js')) }), (e) => e.code === 'engine-load');
  await assert.rejects(create({ modelUrl: fileUrl(MODEL), modelBytes: 3 }), (e) => e.code === 'integrity');
  await assert.rejects(create({ modelUrl: fileUrl(MODEL), modelSha256: '00'.repeat(32) }), (e) => e.code === 'integrity' && /SHA-256/.test(e.message));
  const models = await listModels({ manifestUrl: fileUrl(MANIFEST) });
  assert.deepEqual(models.map((m) => `${m.from}-${m.to}`), ['en-de', 'de-en']);
  assert.equal((await listModels({ manifestUrl: new URL(fileUrl(MANIFEST)) })).length, 2);
  // listModels() checks its option as create() does: a typo read the default manifest without a word
  await assert.rejects(listModels({ manifestURL: fileUrl(MANIFEST) }), { code: 'bad-request', message: 'listModels(): "manifestURL" is not an option (options: manifestUrl).' });
  await assert.rejects(Translator.listModels({ manifestUrl: 42 }), { code: 'bad-request', message: 'listModels(): manifestUrl must be a string or a URL (got 42).' });
  await assert.rejects(listModels('manifest.json'), { code: 'bad-request', message: 'listModels(): options must be an object (got string).' });
  const viaManifest = await create({ modelUrl: undefined, manifestUrl: fileUrl(MANIFEST), from: 'de', to: 'en' });
  assert.equal(viaManifest.info.requested.from, 'de');
  assert.equal(viaManifest.info.source, 'network'); // Node: no service-worker cache to read from
  viaManifest.dispose();
});

/**
 * Enough of a DOM element for translateElement() in Node: a div of paragraphs with no text, each
 * with a title attribute to translate (attributes are set in place, so no node is built).
 */
function pageOfTitles(titles) {
  const element = (name, attributes, children) => ({
    nodeType: 1, localName: name, childNodes: children, textContent: '', ownerDocument: null,
    getAttribute: (n) => attributes[n] ?? null,
    setAttribute: (n, v) => { attributes[n] = v; },
  });
  return element('div', {}, titles.map((title) => element('p', { title }, [])));
}
const titlesOf = (page) => page.childNodes.map((p) => p.getAttribute('title'));

test('translateElement() checks its options before its first request, as HTML mode does, and lists its own', async () => {
  const t = await create();
  try {
    const page = pageOfTitles(['One here.', 'Two here.']);
    await t.translateElement(page, { beam: 1 });
    const translated = titlesOf(page);
    assert.deepEqual(translated, ['enO ereh .', 'owT ereh .']);
    // with text and without (no request, nothing checked them before); bad options leave the last translation in place
    for (const element of [page, pageOfTitles([])]) {
      for (const call of [(options) => t.translateElement(element, options), (options) => translateElement(element, { translator: t, ...options })]) {
        await assert.rejects(call({ bean: 4 }),
          { code: 'bad-request', message: /^translateElement\(\): "bean" is not an option \(options: beam, .*, glossary, translator, signal, onProgress, chunkChars, batchChars\)\.$/ });
        await assert.rejects(call({ html: true }), { code: 'bad-request', message: /^translateElement\(\): "html" is not an option/ });
        for (const batchChars of [-5, 0, 'abc', Number.NaN, null]) {
          await assert.rejects(call({ batchChars }), { code: 'bad-request', message: /^translateElement\(\): batchChars must be a number of characters, 1 or more/ }, String(batchChars));
        }
        await assert.rejects(call({ onProgress: 'log' }), { code: 'bad-request', message: 'translateElement(): onProgress must be a function (got string).' });
        await assert.rejects(call({ chunkChars: -5 }), { code: 'bad-request', message: /^translateElement\(\): chunkChars must be/ });
        await assert.rejects(call({ signal: {} }), { code: 'bad-request', message: /^translateElement\(\): signal must be an AbortSignal/ });
        await assert.rejects(call({ beam: 0 }), { code: 'bad-request', message: 'translateElement(): beam must be an integer from 1 to 16 (got 0).' });
      }
      await assert.rejects(t.translateElement(element, 'fast'), { code: 'bad-request', message: 'translateElement(): options must be an object (got string).' });
    }
    assert.deepEqual(titlesOf(page), translated, 'a refused call leaves the last translation in place');
    const batches = [];
    const again = await translateElement(page, {
      translator: t, batchChars: 1, chunkChars: 500, signal: new AbortController().signal, onProgress: (p) => batches.push(p.done),
    });
    assert.equal(batches.length, 2, 'batchChars 1: a request for each title');
    assert.deepEqual(titlesOf(page), translated);
    again.restore();
    assert.deepEqual(titlesOf(page), ['One here.', 'Two here.']);
    assert.equal((await t.translateElement(pageOfTitles([]), null)).attributes, 0);
  } finally {
    t.dispose();
  }
});

test('create() rejects a recycleChars that is no number of characters, as it does a bad workers', async () => {
  for (const recycleChars of [null, '5000', Number.NaN, -1]) {
    await assert.rejects(create({ recycleChars }), { code: 'bad-request', message: /recycleChars must be a number/ }, String(recycleChars));
  }
  const t = await create({ recycleChars: Infinity });
  try {
    await t.translate('One.');
    await t.translate('Two.');
    assert.equal(t.restarts, 0);
  } finally {
    t.dispose();
  }
});

test('create() rejects a name that is no option (a typo, the standard API\'s sourceLanguage) and lists the options translator.d.ts declares', async () => {
  await assert.rejects(create({ form: 'de' }), { code: 'bad-request', message: /"form" is not an option/ });
  let listed;
  await assert.rejects(create({ sourceLanguage: 'de', targetLanguage: 'en' }), (e) => {
    assert.equal(e.code, 'bad-request');
    listed = e.message.match(/\(options: (.*)\)\.$/)[1].split(', ');
    return true;
  });
  const dts = readFileSync(path.join(ROOT, 'web/translator.d.ts'), 'utf8');
  const body = dts.slice(dts.indexOf('export interface TranslatorOptions {'), dts.indexOf('\n}', dts.indexOf('export interface TranslatorOptions {')));
  assert.deepEqual(listed.sort(), [...body.matchAll(/^  (\w+)\?:/gm)].map((m) => m[1]).sort());
  // Values of another type: rerank 'false' was true (the reverse model downloaded), warmUp 'no' too, from 5 a model lookup of "5".
  for (const [key, value] of [['rerank', 'false'], ['warmUp', 'no'], ['from', 5], ['onProgress', 'log'], ['modelUrl', 42], ['modelBytes', '25']]) {
    await assert.rejects(create({ [key]: value }), { code: 'bad-request', message: new RegExp(`^Translator\\.create\\(\\): ${key} must be`) }, key);
  }
  const t = await create({ from: 'en', to: 'de', workers: 1, warmUp: false, rerank: undefined, onProgress: null, modelUrl: new URL(fileUrl(MODEL)) });
  t.dispose();
});

test('a module and a worker of different protocol versions refuse each other clearly', async () => {
  // A worker from another build: worker.js beside a protocol.js of version 999.
  const other = mkdtempSync(path.join(tmpdir(), 'nmt-web-other-'));
  for (const f of readdirSync(path.join(ROOT, 'web')).filter((x) => x.endsWith('.js') && x !== 'protocol.js')) { // worker.js and what it imports
    writeFileSync(path.join(other, f), readFileSync(path.join(ROOT, 'web', f)));
  }
  const protocol = readFileSync(path.join(ROOT, 'web/protocol.js'), 'utf8');
  writeFileSync(path.join(other, 'protocol.js'), protocol.replace(`PROTOCOL_VERSION = ${PROTOCOL_VERSION};`, 'PROTOCOL_VERSION = 999;'));
  await assert.rejects(create({ workerUrl: fileUrl(path.join(other, 'worker.js')) }),
    (e) => e.code === 'protocol-mismatch' && e.message.includes(`the page speaks protocol ${PROTOCOL_VERSION}, this file protocol 999`));
  // A worker that answers 'ready' without saying which protocol it speaks (one from before version 2).
  const old = path.join(other, 'old-worker.mjs');
  writeFileSync(old, "import { parentPort } from 'node:worker_threads';\n" +
    "parentPort.on('message', (m) => parentPort.postMessage({ id: m.id, status: 'ready', info: {} }));\n");
  await assert.rejects(create({ workerUrl: fileUrl(old) }),
    (e) => e.code === 'protocol-mismatch' && e.message.includes(`the worker speaks protocol (none), this file protocol ${PROTOCOL_VERSION}`));
});

test('a dead worker rejects what was pending and the next call starts a new one', async () => {
  let loads = 0;
  const t = await create({ onProgress: () => { loads += 1; } });
  const firstLoad = loads;
  try {
    // Several chunks, so the worker yields between them and handles the crash message mid-request.
    const pending = t.translate(Array.from({ length: 6 }, (_, i) => `Slow ${i} __slow__ ${'y'.repeat(1000)}.`).join('\n\n'));
    const queued = t.translate('Queued.');
    await sleep(50);
    t._crashWorkerForTest();
    await assert.rejects(pending, (e) => e.code === 'worker-died' && /exited.*next request starts a new worker/i.test(e.message));
    await assert.rejects(queued, { code: 'worker-died' });
    const r = await t.translate('After the crash.');
    assert.equal(r.sentences.length, 1);
    assert.equal(t.restarts, 1);
    assert.equal(loads, firstLoad, 'the new worker started from the model already loaded: no download to report');

    // An engine that traps: the request fails, the worker is replaced.
    await assert.rejects(t.translate('Boom __trap__.'), (e) => e.code === 'engine-crashed' || e.code === 'worker-died');
    assert.equal((await t.translate('Alive again.')).sentences.length, 1);
  } finally {
    t.dispose();
  }
});

test('dispose() rejects pending requests and later calls', async () => {
  const t = await create();
  const p = t.translate('Slow __slow__.');
  t.dispose();
  await assert.rejects(p, { code: 'disposed' });
  await assert.rejects(t.translate('x'), { code: 'disposed' });
  await assert.rejects(t.memory(), { code: 'disposed' });
});

test('without WebAssembly SIMD, create() fails with a clear message', async () => {
  const validate = WebAssembly.validate;
  WebAssembly.validate = () => false;
  try {
    await assert.rejects(create(), (e) => e.code === 'no-simd' && /WebAssembly SIMD/.test(e.message));
  } finally {
    WebAssembly.validate = validate;
  }
});

test('an idle translator does not keep a Node process alive', () => {
  const script = `
    import { Translator } from ${JSON.stringify(fileUrl(path.join(ROOT, 'web/translator.js')))};
    const t = await Translator.create({ engineUrl: ${JSON.stringify(FAKE_ENGINE)}, wasmUrl: ${JSON.stringify(FAKE_ENGINE)}, modelUrl: ${JSON.stringify(fileUrl(MODEL))} });
    console.log((await t.translate('Bye now.')).text);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 15000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'eyB won .');
});
