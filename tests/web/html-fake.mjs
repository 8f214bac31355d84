/**
 * Shared by the HTML tests: a stand-in Translator whose translate() answers in-process with the
 * engine's result shape (sentences cut at line breaks and sentence ends, words, hard and soft word
 * alignments), either keeping every word ('same', less the words of `drop`), writing each
 * sentence's words in reverse order ('reverse'), or as a weak model might ('random', from `seed`:
 * words left out, neighbours swapped, some aligned to the wrong word), and a checker that markup is
 * balanced.
 */
import { tokenize, VOID } from '../../web/html/tokenize.js';

const WORD = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
const words = (text) => [...text.matchAll(WORD)].map((m) => [m.index, m.index + m[0].length]);

export function fakeTranslator(mode = 'same', { drop = [], seed = 1 } = {}) {
  let state = seed;
  const rand = (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const calls = [];
  return {
    calls,
    async translate(text, options = {}) {
      calls.push({ text, options });
      if (options.signal && options.signal.aborted) throw new DOMException('aborted', 'AbortError');
      const sentences = [];
      const re = /[^\s][^\n]*?(?:[.!?](?=\s)|(?=\n)|$)/g;
      let m;
      let out = '';
      let pos = 0;
      while ((m = re.exec(text)) !== null) {
        if (!m[0]) { re.lastIndex += 1; continue; }
        const source = m[0].trimEnd();
        const sw = words(source);
        const order = mode === 'reverse' ? sw.map((_, i) => sw.length - 1 - i) : sw.map((_, i) => i);
        if (mode === 'random') { // as a model can: words left out, neighbours swapped
          order.splice(0, order.length, ...order.filter(() => rand(6) > 0));
          for (let i = 0; i + 1 < order.length; i++) if (rand(5) === 0) [order[i], order[i + 1]] = [order[i + 1], order[i]];
        }
        let target = mode === 'same' ? source : '';
        const tw = mode === 'same' && !drop.length ? sw : [];
        if (mode === 'same' && drop.length) { // the words in `drop` left out, as a model can
          order.splice(0, order.length, ...order.filter((k) => !drop.includes(source.slice(...sw[k]))));
          target = '';
          let prev = 0;
          for (const k of order) {
            if (target && /\s/.test(source.slice(prev, sw[k][0]))) target += ' ';
            tw.push([target.length, target.length + sw[k][1] - sw[k][0]]);
            target += source.slice(...sw[k]);
            prev = sw[k][1];
          }
        } else if (mode !== 'same') {
          for (const k of order) {
            if (target) target += ' ';
            tw.push([target.length, target.length + sw[k][1] - sw[k][0]]);
            target += source.slice(...sw[k]);
          }
        }
        out += text.slice(pos, m.index);
        const targetRange = [out.length, out.length + target.length];
        out += target;
        pos = m.index + source.length;
        // 'random': a word aligned to another source word now and then, its attention spread
        const to = order.map((k) => (mode === 'random' && rand(4) === 0 ? rand(sw.length) : k));
        const wordAttention = tw.map((_, t) => sw.map((_, s) => (mode === 'random' ? (s === to[t] ? 0.5 : 0) + rand(30) / 100 : s === to[t] ? 1 : 0)));
        sentences.push({
          source, target, sourceRange: [m.index, m.index + source.length], targetRange,
          sourceWords: sw, targetWords: tw, wordAttention,
          wordAlignments: tw.map((r, t) => ({ target: t, source: to[t], weight: 1, targetRange: r, sourceRange: sw[to[t]] })),
        });
        re.lastIndex = m.index + Math.max(1, m[0].length);
      }
      out += text.slice(pos);
      return { text: out, sentences, stats: { sourceTokens: 1, targetTokens: 1, chunks: 1, wasmHeapBytes: null }, timings: { engineMs: 1 } };
    },
  };
}

/** Throws unless every start tag of a non-void element is closed by its own end tag, in order. */
export function assertBalanced(html) {
  const stack = [];
  for (const t of tokenize(html)) {
    if (t.type === 'start') {
      if (VOID.has(t.name) || (t.selfClosing && stack.some((n) => n === 'svg' || n === 'math'))) continue;
      if (t.selfClosing && (t.name === 'svg' || t.name === 'math')) continue;
      stack.push(t.name);
    } else if (t.type === 'end') {
      const top = stack.pop();
      if (top !== t.name) throw new Error(`</${t.name}> closes <${top}> in ${html.slice(Math.max(0, t.start - 80), t.end + 20)}`);
    }
  }
  if (stack.at(-1) === 'plaintext') stack.pop(); // (it runs to the end of the document)
  if (stack.length) throw new Error(`unclosed: ${stack.join(' ')}`);
}

/** The tag names of the start tags in `html`, counted. */
export function tagCounts(html) {
  const counts = {};
  for (const t of tokenize(html)) if (t.type === 'start') counts[t.name] = (counts[t.name] || 0) + 1;
  return counts;
}
