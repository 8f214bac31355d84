/**
 * The sentences of a translation in a compact form, so that memory follows the sentence being read,
 * not the document: the worker packs the engine's sentences of one chunk (its snake_case JSON, see
 * engine/bindings) into one byte array (packSentences), which passes to the main thread as one
 * structured clone; there each Sentence (web/translator.d.ts) is a small object whose token lists,
 * probabilities, attention and alignments are read out of those bytes the first time they are asked
 * for (unpackSentences), then kept as plain arrays. Held as JavaScript arrays, a 40-token sentence
 * with alignments took ~86 kB (every number a heap object); packed it takes ~5 kB, and the
 * sentences of a document that nobody looks at stay that small.
 *
 * A block: {sentences, bytes: Uint8Array, index: Int32Array, scale}. `sentences` are {source,
 * target, sourceRange, targetRange, score, copied?, memory?, at}; index[at + k] is where FIELDS[k]
 * starts in `bytes` (-1: absent). A field is a nested array written as its length then each element
 * (tokens: their count, then each token's piece length, range and the piece's UTF-16 code units).
 * Whole numbers are LEB128 varints (zigzag, so any sign), and so are the other numbers when the block
 * has `scale` 1e5: the engine writes probabilities and attention with at most 5 decimals, so each is
 * a whole number of 1e-5 (0.00004 takes one byte, 0.65843 three) and reads back as exactly the
 * number the engine wrote. A block with any number that is not (or is negative) has `scale` 0 and
 * writes its numbers as 8-byte doubles.
 */

const SCALE = 1e5;

/** The packed fields, in the public Sentence's key order: [public name, engine key, kind]. */
const FIELDS = [
  ['sourceTokens', 'source_tokens', 'tokens'],
  ['targetTokens', 'target_tokens', 'tokens'],
  ['tokenProbs', 'token_probs', 'numbers1'],
  ['attention', 'attention', 'numbers2'],
  ['heads', 'heads', 'numbers4'],
  ['sourceWords', 'source_words', 'ranges'],
  ['targetWords', 'target_words', 'ranges'],
  ['targetWordConfidence', 'target_word_probs', 'numbers1'],
  ['wordAttention', 'word_attention', 'numbers2'],
  ['wordAlignments', 'word_alignments', 'numbers2'], // [target, source, weight] triples
];
/** Present in every Sentence (empty when the engine sent none); the others only when it sent them. */
const ALWAYS = new Set(['sourceTokens', 'targetTokens', 'tokenProbs']);
const depth = (kind) => Number(kind.slice(-1));

const shift = (range, by) => [range[0] + by, range[1] + by];

// ---------------------------------------------------------------------------------------------
// Packing (the worker).

/** A growing byte array written as varints and doubles. */
class Writer {
  constructor() {
    this.bytes = new Uint8Array(4096);
    this.length = 0;
  }

  room(n) {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  int(n) { // zigzag LEB128: 0, -1, 1, -2, … as 0, 1, 2, 3, …
    let z = n >= 0 ? n * 2 : -n * 2 - 1;
    this.room(8);
    while (z >= 128) {
      this.bytes[this.length++] = (z % 128) | 128;
      z = Math.floor(z / 128);
    }
    this.bytes[this.length++] = z;
  }

  double(x) {
    this.room(8);
    new DataView(this.bytes.buffer).setFloat64(this.length, x, true);
    this.length += 8;
  }
}

/** Every number of the packed fields is a whole number of 1e-5 (what the engine writes): then `scale` 1e5. */
function fitsScale(engineSentences) {
  const fits = (x) => x >= 0 && x * SCALE < 2 ** 52 && Math.round(x * SCALE) / SCALE === x;
  const all = (v, d) => (d === 1 ? v.every(fits) : v.every((x) => all(x, d - 1)));
  return engineSentences.every((s) => FIELDS.every(([, key, kind]) => kind === 'tokens' || kind === 'ranges' || s[key] == null || all(s[key], depth(kind))));
}

/**
 * Packs the engine's sentences of one chunk. `sourceOffset`/`targetOffset`: where the chunk starts
 * in the whole input/output (sentence ranges index the whole texts; token and word ranges stay
 * relative to the sentence's own text); `input`: the whole input, whose characters each sentence's
 * `source` is (the engine saw it cleaned: controls as spaces, lone surrogates as U+FFFD).
 */
export function packSentences(engineSentences, sourceOffset = 0, targetOffset = 0, input = null) {
  const scale = fitsScale(engineSentences) ? SCALE : 0;
  const w = new Writer();
  const index = new Int32Array(engineSentences.length * FIELDS.length).fill(-1);
  const number = scale ? (x) => w.int(Math.round(x * scale)) : (x) => w.double(x);
  const nested = (value, d, write) => {
    w.int(value.length);
    for (const x of value) {
      if (d > 1) nested(x, d - 1, write);
      else write(x);
    }
  };
  const sentences = engineSentences.map((s, n) => {
    const out = {
      source: input !== null ? input.slice(s.source_range[0] + sourceOffset, s.source_range[1] + sourceOffset) : s.source,
      target: s.target,
      sourceRange: shift(s.source_range, sourceOffset),
      targetRange: shift(s.target_range, targetOffset),
      score: s.score,
      at: n * FIELDS.length,
    };
    if (s.copied) out.copied = true;
    if (s.memory) out.memory = true;
    if (s.passes) out.passes = s.passes;
    FIELDS.forEach(([, key, kind], k) => {
      const value = s[key];
      if (value === undefined || value === null) return;
      index[out.at + k] = w.length;
      if (kind === 'tokens') {
        w.int(value.length);
        for (const t of value) {
          w.int(t.piece.length);
          w.int(t.range[0]);
          w.int(t.range[1]);
          for (let i = 0; i < t.piece.length; i++) w.int(t.piece.charCodeAt(i));
        }
      } else if (kind === 'ranges') nested(value, 2, (x) => w.int(x));
      else nested(value, depth(kind), number);
    });
    return out;
  });
  return { sentences, bytes: w.bytes.slice(0, w.length), index, scale };
}

/** A block's sentences with their ranges moved by `sourceBy`/`targetBy` (the pool places a chunk's block). */
export function shiftBlock(block, sourceBy, targetBy) {
  return {
    ...block,
    sentences: block.sentences.map((s) => ({ ...s, sourceRange: shift(s.sourceRange, sourceBy), targetRange: shift(s.targetRange, targetBy) })),
  };
}

// ---------------------------------------------------------------------------------------------
// Unpacking (the main thread).

const STORE = Symbol('packed bytes'); // {bytes, index, scale}, shared by a block's sentences
const AT = Symbol('packed at'); // the sentence's entries in `index`

/** Reads one field of a packed sentence into plain arrays (the shapes of web/translator.d.ts). */
function readField(store, at, k) {
  const { bytes, index, scale } = store;
  let i = index[at + k];
  const int = () => {
    let z = 0;
    let unit = 1;
    for (;;) {
      const b = bytes[i++];
      z += (b & 127) * unit;
      if (b < 128) break;
      unit *= 128;
    }
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  };
  const view = scale ? null : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const number = scale ? () => int() / scale : () => {
    i += 8;
    return view.getFloat64(i - 8, true);
  };
  const nested = (d, read) => {
    const out = new Array(int());
    for (let j = 0; j < out.length; j++) out[j] = d > 1 ? nested(d - 1, read) : read();
    return out;
  };
  const kind = FIELDS[k][2];
  if (kind === 'tokens') {
    const out = new Array(int());
    for (let j = 0; j < out.length; j++) {
      const units = new Array(int());
      const range = [int(), int()];
      for (let u = 0; u < units.length; u++) units[u] = int();
      out[j] = { piece: String.fromCharCode(...units), range };
    }
    return out;
  }
  if (kind === 'ranges') return nested(2, int);
  return nested(depth(kind), number);
}

/** wordAlignments from its packed triples, with each link's word ranges (the same arrays as sourceWords/targetWords). */
function alignments(sentence, triples) {
  const tw = sentence.targetWords;
  const sw = sentence.sourceWords;
  return triples.map(([target, source, weight]) => ({
    target,
    source,
    weight,
    targetRange: tw ? tw[target] : undefined,
    sourceRange: sw ? sw[source] : undefined,
  }));
}

/** An own, enumerable property that reads field `k` the first time it is read, then holds it as a plain value. */
const ACCESSORS = FIELDS.map(([name], k) => {
  const hold = (object, value) => Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
  return {
    enumerable: true,
    configurable: true,
    get() {
      const raw = readField(this[STORE], this[AT], k);
      return hold(this, name === 'wordAlignments' ? alignments(this, raw) : raw)[name];
    },
    set(value) {
      hold(this, value);
    },
  };
});

/**
 * The public Sentence objects of a packed block. Each is a plain object with the documented keys
 * (JSON.stringify, spreading and structuredClone see every field); the packed ones are read on
 * first use.
 */
export function unpackSentences(block) {
  const store = { bytes: block.bytes, index: block.index, scale: block.scale };
  return block.sentences.map((m) => {
    const s = { source: m.source, target: m.target, sourceRange: m.sourceRange, targetRange: m.targetRange };
    Object.defineProperty(s, STORE, { value: store });
    Object.defineProperty(s, AT, { value: m.at });
    for (let k = 0; k < FIELDS.length; k++) {
      const [name] = FIELDS[k];
      if (k === 2) s.score = m.score; // (the key order of before: tokens, score, tokenProbs, flags, alignments)
      if (k === 3) {
        if (m.copied) s.copied = true;
        if (m.memory) s.memory = true;
        if (m.passes) s.passes = m.passes;
      }
      if (block.index[m.at + k] >= 0) Object.defineProperty(s, name, ACCESSORS[k]);
      else if (ALWAYS.has(name)) s[name] = [];
    }
    return s;
  });
}
