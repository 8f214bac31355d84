/**
 * translateElement() on paragraphs with thousands of inline elements, in Debian's Chromium: how long
 * the HTML side takes (collecting, placing, rebuilding the DOM, restoring), the model's time left
 * out (a stand-in translator in the page that keeps every word). Prints one line a shape:
 *   node scripts/bench-html-element.mjs [--count 10000] [--profile]
 * --profile also prints the functions that took the most time (Chromium's sampling profiler).
 */
import { launchBrowser, serveSite } from '../tests/web/_browsers.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const count = Number(arg('count', 10000));
const profile = process.argv.includes('--profile');

const { server } = await serveSite('bench-html-element');
const browser = await launchBrowser('chromium');
const page = await (await browser.newContext()).newPage();
await page.goto(`${server.url}article.html`);
let cdp = null;
if (profile) {
  cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
}
const results = await page.evaluate(async (n) => {
  const { translateElement } = await import('./translator.js');
  // a translator that keeps every word, with the engine's result shape (one word aligned to itself)
  let modelMs = 0;
  const translator = {
    from: 'en',
    to: 'de',
    async translate(text) {
      const t0 = performance.now();
      const sentences = [];
      for (const m of text.matchAll(/[^\s][^\n]*?(?:[.!?](?=\s)|(?=\n)|$)/g)) {
        if (!m[0]) continue;
        const source = m[0].trimEnd();
        const words = [...source.matchAll(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu)].map((w) => [w.index, w.index + w[0].length]);
        sentences.push({
          source, target: source, sourceRange: [m.index, m.index + source.length], targetRange: [m.index, m.index + source.length],
          sourceWords: words, targetWords: words, wordAttention: words.map((_, t) => words.map((__, s) => (s === t ? 1 : 0))),
          wordAlignments: words.map((r, t) => ({ target: t, source: t, weight: 1, targetRange: r, sourceRange: r })),
        });
      }
      modelMs += performance.now() - t0;
      return { text, sentences, stats: { sourceTokens: 1, targetTokens: 1, chunks: 1, wasmHeapBytes: null }, timings: { engineMs: 1 } };
    },
  };
  const shapes = {
    // a span a word, sentences of 12 words
    'spans, one a word': () => Array.from({ length: n }, (_, i) => `<span>word${i}</span>${i % 12 === 11 ? '.' : ''} `).join(''),
    // a link a sentence
    'links, one a sentence': () => Array.from({ length: n }, (_, i) => `<a href="#${i}">Link number ${i}</a> is here. `).join(''),
    // a word of spans, one a letter
    'one word of spans': () => `The ${Array.from({ length: n }, () => '<span>a</span>').join('')} word.`,
  };
  const out = [];
  for (const [name, make] of Object.entries(shapes)) {
    const p = document.createElement('p');
    const tpl = document.createElement('template');
    tpl.innerHTML = make(); // (the bench's own markup)
    p.append(tpl.content);
    document.body.append(p);
    const before = p.innerHTML;
    modelMs = 0;
    const t0 = performance.now();
    const done = await translateElement(p, { translator, batchChars: 1e9 });
    const t1 = performance.now();
    done.restore();
    const t2 = performance.now();
    out.push({ name, translateMs: t1 - t0 - modelMs, restoreMs: t2 - t1, same: p.innerHTML === before, elements: done.elements });
    p.remove();
  }
  return out;
}, count);
for (const r of results) {
  console.log(`${count} ${r.name}: translateElement ${(r.translateMs / 1000).toFixed(2)} s (stand-in model's time left out), restore ${(r.restoreMs / 1000).toFixed(2)} s, ${r.elements} elements placed, restored ${r.same ? 'exactly' : 'NOT exactly'}`);
}
if (cdp) {
  const { profile: prof } = await cdp.send('Profiler.stop');
  const self = new Map();
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const dt = prof.timeDeltas;
  prof.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) || 0) + (dt[i] || 0) / 1000);
  });
  for (const [key, ms] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 15)) console.log(`${ms.toFixed(0).padStart(7)} ms  ${key}`);
}
await browser.close();
await server.close();
