/**
 * The sentences of a translation in a compact form, so that memory follows the sentence being read,
 * not the document: the worker packs the engine's sentences of one chunk (its snake_case JSON, see
 * engine/bindings) into a block of typed arrays and one byte array (packSentences), which passes to
 * the main thread as one structured clone; there each Sentence (web/translator.d.ts) is a small
 * object whose every field (texts, ranges, score, tokens, probabilities, attention, alignments) is
 * read out of the block the first time it is asked for (unpackSentences), then kept as a plain
 * value. Held as JavaScript arrays, a 40-token sentence with alignments took ~86 kB (every number a
 * heap object); a short sentence (8 tokens) now takes ~0.4 kB in all, and the sentences of a
 * document that nobody looks at stay that small.
 *
 * A block: {count, ranges: Int32Array (sourceRange, targetRange of each sentence), scores:
 * Float64Array, starts: Int32Array (where each sentence's fields begin in `bytes`), bytes, scale,
 * text, textAt, extras}. A sentence's `source` is the caller's input at its sourceRange (given to
 * unpackSentences); its `target` is the chunk's translation `text` (which starts at `textAt` in
 * the whole translation) at its targetRange, unless `extras` says otherwise; `extras` also holds the
 * rare flags (copied, memory, passes) as [sentence, {...}] pairs.
 *
 * A sentence's fields in `bytes`: a mask of the FIELDS present, the byte length of each present
 * one, then each one. A field is a nested array written as its length then each element. Whole
 * numbers are LEB128 varints (zigzag where they may be negative: the steps between ranges); so are
 * the other numbers when the block has `scale` 1e5: the engine writes probabilities and attention
 * with at most 5 decimals, so each is a whole number of 1e-5 (0.00004 takes one byte, 0.65843
 * three) and reads back as exactly the number the engine wrote; a block with any number that is not
 * (or is negative) has `scale` 0 and writes its numbers as 8-byte doubles. A token is its range
 * (the step from the previous token's end, its length) and its piece: the sentence's text at that
 * range, or that with '▁' for its leading whitespace (most pieces), '</s>', or else its UTF-16 code units.
 * A word link's weight is the word attention at that cell (the engine writes the same number
 * there), written out only when it is not.
 *
 * A copied sentence (text the engine copies: numbers, code, addresses) stores nothing for what its
 * other fields say: an attention that is the identity (each token on the one it copies; the
 * engine's `identity_attention`) and a word attention that is 0 but at each word link, where it is
 * the link's weight (`word_attention_from_links`) are each a present field of no bytes (a field
 * written out has one at least, its length), read back as those full matrices. A long line of
 * copied text held a byte for each of its tokens x tokens zeros.
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
  ['wordAlignments', 'word_alignments', 'links'], // [target, source, weight] triples
];
const ATTENTION = FIELDS.findIndex(([name]) => name === 'attention');
const WORD_ATTENTION = FIELDS.findIndex(([name]) => name === 'wordAttention');
const WORD_ALIGNMENTS = FIELDS.findIndex(([name]) => name === 'wordAlignments');
/** Present in every Sentence (empty when the engine sent none); the others only when it sent them. */
const ALWAYS = new Set(['sourceTokens', 'targetTokens', 'tokenProbs']);
const depth = (kind) => Number(kind.slice(-1));
const zigzag = (n) => (n >= 0 ? n * 2 : -n * 2 - 1);
const unzigzag = (z) => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
/** The end-of-sentence token's piece, which every token list ends with. */
const END = '</s>';
/** A piece that is its text with '▁' for the leading whitespace (SentencePiece's word start). */
function wordStart(text) {
  let i = 0;
  while (i < text.length && SPACE.test(text[i])) i++;
  return `\u2581${text.slice(i)}`;
}
const SPACE = /\s/;

// ---------------------------------------------------------------------------------------------
// Packing (the worker).

/** A growing byte array written as varints and doubles. */
class Writer {
  constructor(size = 4096) {
    this.bytes = new Uint8Array(size);
    this.length = 0;
  }

  room(n) {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }

  uint(n) { // LEB128: 7 bits a byte, low bits first
    this.room(8);
    while (n >= 128) {
      this.bytes[this.length++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    this.bytes[this.length++] = n;
  }

  double(x) {
    this.room(8);
    new DataView(this.bytes.buffer).setFloat64(this.length, x, true);
    this.length += 8;
  }

  append(other) {
    this.room(other.length);
    this.bytes.set(other.bytes.subarray(0, other.length), this.length);
    this.length += other.length;
  }
}

/** Every number of the packed fields is a whole number of 1e-5 (what the engine writes): then `scale` 1e5. */
function fitsScale(engineSentences) {
  const fits = (x) => x >= 0 && x * SCALE < 2 ** 52 && Math.round(x * SCALE) / SCALE === x;
  const all = (v, d) => (d === 1 ? v.every(fits) : v.every((x) => all(x, d - 1)));
  return engineSentences.every((s) => FIELDS.every(([, key, kind]) => {
    const v = s[key];
    if (v == null || kind === 'tokens' || kind === 'ranges') return true;
    return kind === 'links' ? v.every((link) => fits(link[2])) : all(v, depth(kind));
  }));
}

/** Whether an engine sentence's attention is the identity: each of its n tokens on the one it copies. */
function isIdentity(s) {
  if (s.identity_attention) return true;
  const n = s.source_tokens ? s.source_tokens.length : -1;
  const a = s.attention;
  if (!s.copied || !a || a.length !== n || s.target_tokens.length !== n) return false;
  return a.every((row, r) => row.length === n && row.every((x, c) => x === (r === c ? 1 : 0)));
}

/** Whether an engine sentence's word attention is 0 but at its word links, where it is each link's weight. */
function isFromLinks(s) {
  if (s.word_attention_from_links) return true;
  const w = s.word_attention;
  if (!s.copied || !w || !s.word_alignments || !s.target_words || !s.source_words || w.length !== s.target_words.length) return false;
  const linked = new Set();
  for (const [t, src, weight] of s.word_alignments) {
    if (!w[t] || w[t][src] !== weight) return false;
    linked.add(t * s.source_words.length + src);
  }
  return w.every((row, t) => row.length === s.source_words.length && row.every((x, c) => x === 0 || linked.has(t * row.length + c)));
}

/** Writes one field's value (see the file comment); `text` is the sentence's text its token ranges index. */
function writeField(w, kind, value, number, text, wordAttention) {
  if (kind === 'tokens') {
    w.uint(value.length);
    let end = 0;
    for (const { piece, range } of value) {
      w.uint(zigzag(range[0] - end));
      w.uint(zigzag(range[1] - range[0]));
      end = range[1];
      const slice = text.slice(range[0], range[1]);
      if (piece === slice) w.uint(0);
      else if (piece === wordStart(slice)) w.uint(1);
      else if (piece === END) w.uint(2);
      else {
        w.uint(3 + piece.length);
        for (let i = 0; i < piece.length; i++) w.uint(piece.charCodeAt(i));
      }
    }
  } else if (kind === 'ranges') {
    w.uint(value.length);
    let end = 0;
    for (const [b, e] of value) {
      w.uint(zigzag(b - end));
      w.uint(zigzag(e - b));
      end = e;
    }
  } else if (kind === 'links') {
    // the weights are left out when each is the word attention's number at its cell
    const implied = !!wordAttention && value.every(([t, s, weight]) => wordAttention[t] !== undefined && wordAttention[t][s] === weight);
    w.uint(value.length * 2 + (implied ? 0 : 1));
    for (const [t, s, weight] of value) {
      w.uint(t);
      w.uint(s);
      if (!implied) number(weight);
    }
  } else {
    const nested = (v, d) => {
      w.uint(v.length);
      for (const x of v) {
        if (d > 1) nested(x, d - 1);
        else number(x);
      }
    };
    nested(value, depth(kind));
  }
}

/**
 * Packs the engine's sentences of one chunk. `text`: the chunk's translation (the engine's
 * result.text), which starts at `targetOffset` in the whole translation; `sourceOffset`: where the
 * chunk starts in the whole input; `input`: the whole input, whose characters each sentence's
 * `source` is (the engine saw it cleaned: controls as spaces, lone surrogates as U+FFFD); null: the
 * engine's `source` is the input. Sentence ranges index the whole texts; token and word ranges stay
 * relative to the sentence's own text.
 */
export function packSentences(engineSentences, { text = '', sourceOffset = 0, targetOffset = 0, input = null } = {}) {
  const count = engineSentences.length;
  const scale = fitsScale(engineSentences) ? SCALE : 0;
  const w = new Writer();
  const field = new Writer(256); // one field, before its length is known
  const fields = new Writer(1024); // one sentence's fields
  const number = scale ? (x) => field.uint(Math.round(x * scale)) : (x) => field.double(x);
  const ranges = new Int32Array(count * 4);
  const scores = new Float64Array(count);
  const starts = new Int32Array(count);
  const extras = [];
  engineSentences.forEach((s, n) => {
    ranges.set([s.source_range[0] + sourceOffset, s.source_range[1] + sourceOffset, s.target_range[0] + targetOffset, s.target_range[1] + targetOffset], n * 4);
    scores[n] = s.score;
    const extra = {};
    if (s.copied) extra.copied = true;
    if (s.memory) extra.memory = true;
    if (s.passes) extra.passes = s.passes;
    // (the translation at the sentence's range is its target, as the tests check; kept apart if ever not)
    if (text.slice(s.target_range[0], s.target_range[1]) !== s.target) extra.target = s.target;
    if (Object.keys(extra).length) extras.push([n, extra]);
    const source = input !== null ? input.slice(s.source_range[0] + sourceOffset, s.source_range[1] + sourceOffset) : s.source;
    let mask = 0;
    fields.length = 0;
    const lengths = [];
    // (implied: a present field of no bytes, read back from the tokens or the links)
    const identity = isIdentity(s);
    const fromLinks = isFromLinks(s);
    FIELDS.forEach(([, key, kind], k) => {
      const implied = (k === ATTENTION && identity) || (k === WORD_ATTENTION && fromLinks);
      const value = s[key];
      if (!implied && (value === undefined || value === null)) return;
      mask |= 1 << k;
      field.length = 0;
      // (from links, each link keeps its weight: the word attention is read from them)
      if (!implied) writeField(field, kind, value, number, key === 'source_tokens' ? source : s.target, fromLinks ? null : s.word_attention);
      lengths.push(field.length);
      fields.append(field);
    });
    starts[n] = w.length;
    w.uint(mask);
    for (const length of lengths) w.uint(length);
    w.append(fields);
  });
  return { count, ranges, scores, starts, bytes: w.bytes.slice(0, w.length), scale, text, textAt: targetOffset, extras };
}

/** A block with its ranges moved by `sourceBy`/`targetBy` (the pool places a chunk's block). */
export function shiftBlock(block, sourceBy, targetBy) {
  const ranges = block.ranges.slice();
  for (let i = 0; i < ranges.length; i += 4) {
    ranges[i] += sourceBy;
    ranges[i + 1] += sourceBy;
    ranges[i + 2] += targetBy;
    ranges[i + 3] += targetBy;
  }
  return { ...block, ranges, textAt: block.textAt + targetBy };
}

// ---------------------------------------------------------------------------------------------
// Unpacking (the main thread).

const STORE = Symbol('packed block'); // {block, input}, shared by a block's sentences
const AT = Symbol('packed at'); // the sentence's number in its block

/** A reader of `bytes` from `at` on: `uint()` reads one unsigned varint (7 bits a byte, low first); `i` is where it is. */
function cursor(bytes, at) {
  const c = {
    i: at,
    uint() {
      let n = 0;
      let unit = 1;
      for (;;) {
        const b = bytes[c.i++];
        n += (b & 127) * unit;
        if (b < 128) return n;
        unit *= 128;
      }
    },
  };
  return c;
}

/** Where field `k` of the sentence whose fields begin at `at` begins in `bytes`, and its length in bytes (start -1: absent). */
function fieldStart(bytes, at, k) {
  const c = cursor(bytes, at);
  const uint = c.uint;
  const mask = uint();
  if (!(mask & (1 << k))) return { start: -1, length: 0 };
  let skip = 0; // the bytes of the present fields before k
  let own = 0;
  for (let j = 0; j < FIELDS.length; j++) {
    if (!(mask & (1 << j))) continue;
    const length = uint();
    if (j < k) skip += length;
    if (j === k) own = length;
  }
  return { start: c.i + skip, length: own };
}

/** A copied sentence's implied matrix (a field of no bytes): the identity over its tokens, or its word links' weights in a word attention of zeros. */
function impliedField(sentence, k) {
  if (k === ATTENTION) {
    const n = sentence.sourceTokens.length;
    return Array.from({ length: n }, (_, r) => {
      const row = new Array(n).fill(0);
      row[r] = 1;
      return row;
    });
  }
  const cols = sentence.sourceWords.length;
  const rows = Array.from({ length: sentence.targetWords.length }, () => new Array(cols).fill(0));
  for (const [t, s, weight] of readField(sentence, WORD_ALIGNMENTS)) rows[t][s] = weight;
  return rows;
}

/** Reads field `k` of sentence `sentence` into plain values (the shapes of web/translator.d.ts). */
function readField(sentence, k) {
  const { block } = sentence[STORE];
  const { bytes, scale } = block;
  const { start, length } = fieldStart(bytes, block.starts[sentence[AT]], k);
  if (start < 0) return [];
  if (length === 0) return impliedField(sentence, k);
  const c = cursor(bytes, start);
  const uint = c.uint;
  const int = () => unzigzag(uint());
  const view = scale ? null : new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const number = scale ? () => uint() / scale : () => {
    c.i += 8;
    return view.getFloat64(c.i - 8, true);
  };
  const nested = (d) => {
    const out = new Array(uint());
    for (let j = 0; j < out.length; j++) out[j] = d > 1 ? nested(d - 1) : number();
    return out;
  };
  const kind = FIELDS[k][2];
  if (kind === 'tokens') {
    const text = k === 0 ? sentence.source : sentence.target;
    const out = new Array(uint());
    let end = 0;
    for (let j = 0; j < out.length; j++) {
      const b = end + int();
      end = b + int();
      const how = uint();
      let piece;
      if (how < 2) piece = how === 0 ? text.slice(b, end) : wordStart(text.slice(b, end));
      else if (how === 2) piece = END;
      else {
        const units = new Array(how - 3);
        for (let u = 0; u < units.length; u++) units[u] = uint();
        piece = String.fromCharCode(...units);
      }
      out[j] = { piece, range: [b, end] };
    }
    return out;
  }
  if (kind === 'ranges') {
    const out = new Array(uint());
    let end = 0;
    for (let j = 0; j < out.length; j++) {
      const b = end + int();
      end = b + int();
      out[j] = [b, end];
    }
    return out;
  }
  if (kind === 'links') {
    const head = uint();
    const out = new Array(Math.floor(head / 2));
    const cells = head % 2 === 0 ? sentence.wordAttention : null;
    for (let j = 0; j < out.length; j++) {
      const t = uint();
      const s = uint();
      out[j] = [t, s, cells ? cells[t][s] : number()];
    }
    return out;
  }
  return nested(depth(kind));
}

/** wordAlignments from its triples, with each link's word ranges (the same arrays as sourceWords/targetWords). */
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

/** The value of a public field of a packed sentence. */
const READERS = {
  source(s) {
    const { block, input } = s[STORE];
    return input.slice(block.ranges[s[AT] * 4], block.ranges[s[AT] * 4 + 1]);
  },
  target(s) {
    const { block, extras } = s[STORE];
    const extra = extras.get(s[AT]);
    if (extra && extra.target !== undefined) return extra.target;
    const at = s[AT] * 4;
    return block.text.slice(block.ranges[at + 2] - block.textAt, block.ranges[at + 3] - block.textAt);
  },
  sourceRange: (s) => [s[STORE].block.ranges[s[AT] * 4], s[STORE].block.ranges[s[AT] * 4 + 1]],
  targetRange: (s) => [s[STORE].block.ranges[s[AT] * 4 + 2], s[STORE].block.ranges[s[AT] * 4 + 3]],
  score: (s) => s[STORE].block.scores[s[AT]],
};
FIELDS.forEach(([name], k) => {
  READERS[name] = name === 'wordAlignments' ? (s) => alignments(s, readField(s, k)) : (s) => readField(s, k);
});

/** An own, enumerable property that reads its value the first time it is read, then holds it as a plain value. */
const accessor = (name) => {
  const hold = (object, value) => Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
  const read = READERS[name];
  return {
    enumerable: true,
    configurable: true,
    get() {
      return hold(this, read(this))[name];
    },
    set(value) {
      hold(this, value);
    },
  };
};
const ACCESSORS = Object.fromEntries(Object.keys(READERS).map((name) => [name, accessor(name)]));

/** The public keys of a sentence whose present fields are `mask`, in the documented order, and its flags' keys. */
function keysOf(mask, flags) {
  const keys = ['source', 'target', 'sourceRange', 'targetRange'];
  FIELDS.forEach(([name], k) => {
    if (k === 2) keys.push('score'); // (the key order of before: tokens, score, tokenProbs, flags, alignments)
    if (k === 3) keys.push(...flags);
    if (mask & (1 << k) || ALWAYS.has(name)) keys.push(name);
  });
  return keys;
}

/** Object.defineProperties' argument for a sentence without flags, by its fields' mask (few masks occur). */
const descriptorsByMask = new Map();
function descriptors(mask) {
  let d = descriptorsByMask.get(mask);
  if (!d) {
    d = Object.fromEntries(keysOf(mask, []).map((key) => [key, ACCESSORS[key]]));
    descriptorsByMask.set(mask, d);
  }
  return d;
}

/**
 * Points the sentences' blocks at the whole translation `text` (their targetRanges index it), so
 * that the chunks' own texts can go: a long result then holds its translation once.
 */
export function shareWholeText(sentences, text) {
  let last = null;
  for (const s of sentences) {
    const store = s[STORE];
    if (!store || store === last) continue;
    last = store;
    store.block = { ...store.block, text, textAt: 0 };
  }
}

/**
 * The public Sentence objects of a packed block, whose source ranges index `input`. Each is a plain
 * object with the documented keys (JSON.stringify, spreading and structuredClone see every field);
 * every field is read on first use.
 */
export function unpackSentences(block, input) {
  const extras = new Map(block.extras);
  const store = { block, input, extras };
  const out = new Array(block.count);
  for (let n = 0; n < block.count; n++) {
    const s = {};
    Object.defineProperty(s, STORE, { value: store });
    Object.defineProperty(s, AT, { value: n });
    const at = block.starts[n];
    const mask = block.bytes[at] < 128 ? block.bytes[at] : (block.bytes[at] & 127) + 128 * block.bytes[at + 1]; // (10 bits: two bytes at most)
    const extra = extras.get(n);
    const own = extra ? ['copied', 'memory', 'passes'].filter((key) => extra[key] !== undefined) : [];
    if (!own.length) Object.defineProperties(s, descriptors(mask));
    else {
      for (const key of keysOf(mask, own)) {
        if (own.includes(key)) s[key] = extra[key];
        else Object.defineProperty(s, key, ACCESSORS[key]);
      }
    }
    out[n] = s;
  }
  return out;
}
