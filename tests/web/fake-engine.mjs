/**
 * A stand-in for build-wasm/engine.js with the same interface (createEngine → Module.Translator with
 * load/info/translate/sentences/alternatives/delete) and the same result JSON, written in plain JavaScript. It lets the
 * module-API tests exercise the real worker, protocol, queue, cancellation and restart logic
 * quickly and deterministically; the same tests then run against the real WASM engine.
 *
 * "Translation": every word reversed, sentence by sentence. Special inputs:
 *   contains "__slow__"   each sentence busy-waits 150 ms (the engine call is synchronous)
 *   contains "__error__"  returns {ok:false}
 *   contains "__trap__"   throws a WebAssembly.RuntimeError (as a trapping engine would)
 * A model file starting with "BAD" fails to load; one containing "__slowload__" takes 300 ms to load.
 * A "wasm" file containing "compile_ms=N" makes createEngine take N ms (a slow WebAssembly compile).
 */
const WORD = /[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;

function words(text) {
  return [...text.matchAll(WORD)].map((m) => [m.index, m.index + m[0].length]);
}

function translateSentence(source, allHeads) {
  const sw = words(source);
  let target = '';
  const tw = [];
  for (const [b, e] of sw) {
    if (target) target += ' ';
    const w = [...source.slice(b, e)].reverse().join('');
    tw.push([target.length, target.length + w.length]);
    target += w;
  }
  const tokens = (ws, text) => [...ws.map(([b, e]) => ({ piece: '▁' + text.slice(b, e), range: [b, e] })), { piece: '</s>', range: [text.length, text.length] }];
  const st = tokens(sw, source);
  const tt = tokens(tw, target);
  const attention = tt.map((_, i) => st.map((_, j) => (i === j ? 0.7 : 0.3 / (st.length - 1 || 1))));
  for (const row of attention) { const s = row.reduce((a, b) => a + b, 0); row.forEach((v, j) => { row[j] = v / s; }); }
  const wordAttention = tw.map((_, i) => sw.map((_, j) => (i === j ? 0.8 : 0.2 / (sw.length - 1 || 1))));
  for (const row of wordAttention) { const s = row.reduce((a, b) => a + b, 0); row.forEach((v, j) => { row[j] = v / s; }); }
  const out = {
    source, target,
    score: -0.5,
    token_probs: tt.map(() => 0.9),
    source_tokens: st, target_tokens: tt,
    attention,
    source_words: sw, target_words: tw,
    word_attention: wordAttention,
    word_alignments: tw.map((_, i) => [i, i, wordAttention[i][i]]),
    target_word_probs: tw.map(() => 0.9),
  };
  if (allHeads) out.heads = [[attention, attention], [attention, attention]];
  return out;
}

/** Sentences: after . ! ? and at line breaks, as [begin, end) ranges (the gaps between them are kept verbatim). */
function sentenceRanges(text) {
  const ranges = [];
  const re = /[^.!?\n]+[.!?]*|\n+/g;
  let m;
  while ((m = re.exec(text)) !== null) {
    const body = m[0].trim();
    if (!body) continue;
    const b = m.index + m[0].length - m[0].trimStart().length;
    ranges.push([b, b + body.length]);
  }
  return ranges;
}

class Translator {
  constructor() { this.loaded = false; }

  load(bytes) {
    if (!(bytes instanceof Uint8Array)) return 'load(bytes): expected a Uint8Array';
    if (bytes.length < 3) return 'the model file is shorter than 32 bytes';
    if (String.fromCharCode(bytes[0], bytes[1], bytes[2]) === 'BAD') return 'not a model file (bad magic)';
    if (new TextDecoder().decode(bytes).includes('__slowload__')) { const until = Date.now() + 300; while (Date.now() < until) { /* busy */ } }
    this.loaded = true;
    this.bytes = bytes.length;
    return '';
  }

  info() {
    return JSON.stringify({
      config: { d_model: 8, n_heads: 2, encoder_layers: 1, decoder_layers: 2 },
      languages: { source: 'en', target: 'de' },
      provenance: { recipe: 'fake' },
      file_bytes: this.bytes,
    });
  }

  translate(text, optionsJson) {
    const o = JSON.parse(optionsJson);
    if (text.includes('__trap__')) throw new WebAssembly.RuntimeError('unreachable');
    if (text.includes('__error__')) return JSON.stringify({ ok: false, error: 'the fake engine refuses "__error__"' });
    const sentences = [];
    let out = '';
    let pos = 0;
    for (const [b, e] of sentenceRanges(text)) {
      const body = text.slice(b, e);
      out += text.slice(pos, b);
      if (text.includes('__slow__')) { const until = Date.now() + 150; while (Date.now() < until) { /* busy */ } }
      const s = translateSentence(body, o.all_heads);
      s.source_range = [b, e];
      s.target_range = [out.length, out.length + s.target.length];
      out += s.target;
      pos = e;
      if (!o.alignments) { for (const k of ['attention', 'source_words', 'target_words', 'word_attention', 'word_alignments', 'target_word_probs', 'heads']) delete s[k]; }
      sentences.push(s);
    }
    out += text.slice(pos);
    const st = sentences.reduce((a, s) => a + s.source_tokens.length, 0);
    const tt = sentences.reduce((a, s) => a + s.target_tokens.length, 0);
    return JSON.stringify({ ok: true, result: { text: out, sentences, stats: { source_tokens: st, target_tokens: tt, ms: { total: 1, encode: 0.4, decode: 0.6 } } } });
  }

  sentences(text) {
    return JSON.stringify({ ok: true, result: sentenceRanges(text) });
  }

  /** The next word of the fake translation after the prefix, and two made-up others (no prefix forcing). */
  alternatives(source, optionsJson) {
    const o = JSON.parse(optionsJson);
    const { target } = translateSentence(source.trim(), false);
    const prefix = o.prefix || '';
    const rest = target.startsWith(prefix) ? target.slice(prefix.length) : target;
    const [, word = 'x', continuation = ''] = /^(\s*[^\s.!?]+)(.*)$/s.exec(rest) || [];
    const list = [[word, 0.6], [`${word}x`, 0.3], [`${word}y`, 0.1]].slice(0, o.alternatives || 5);
    return JSON.stringify({ ok: true, result: { alternatives: list.map(([w, probability]) => ({ word: w, probability, continuation })) } });
  }

  delete() {}
}

export default async function createEngine(options = {}) {
  if (!options.wasmBinary) throw new Error('fake engine: wasmBinary missing');
  const compileMs = /compile_ms=(\d+)/.exec(new TextDecoder().decode(options.wasmBinary));
  if (compileMs) await new Promise((resolve) => setTimeout(resolve, Number(compileMs[1])));
  return { Translator, HEAPU8: new Uint8Array(1024) };
}
