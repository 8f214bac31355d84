/**
 * The worker protocol, as code: the message types that pass between the public module
 * (translator.js, main thread) and the engine's worker (worker.js), the error codes, and the pure
 * data transforms both sides share (splitting long input into chunks, turning the engine's JSON
 * into the public result shape). Nothing here touches the DOM, the network or the engine, so the
 * same file runs in a page, a Web Worker, a Node worker thread and the unit tests.
 *
 * Every message carries the `id` of the request it belongs to. Main → worker messages have a
 * `type` (Request); worker → main messages have a `status` (Status):
 *
 *   main                                     worker
 *   {id, type:'init', protocol, engineUrl,
 *    wasmUrl, modelUrl | manifestUrl,
 *    from, to, reuse?, wasmModule?,       →   (reuse: a restart, see below; wasmModule: engine.wasm compiled
 *    warmUp?}                                 by an earlier Translator; warmUp false: no warm-up sentence)
 *                                        ←   {id, status:'progress', phase, loaded, total, files}  (0..n)
 *                                        ←   {id, status:'ready', protocol, info, reuse, startup, wasmModule?}  or {id, status:'error', error}
 *                                                (startup: the start's phases, {phases: {name: [start, end]}, compiled,
 *                                                source}, in ms since the epoch: translator.timings.startup;
 *                                                wasmModule: a restart's engine.wasm compiled anew, as the module it was
 *                                                handed is of another build than its engine.js: a release since)
 *   {id, type:'translate', text, options,
 *    chunkChars}                         →   (options: the engine's JSON options, see options.js)
 *                                        ←   {id, status:'partial', text, sentences, range, done, total}
 *                                                (one per chunk of a long input, or per group of sentences of
 *                                                a short one: sentenceGroups; range: the chunk's [b, e);
 *                                                sentences: the chunk's, packed: packed-sentences.js)
 *                                        ←   {id, status:'result', result}      or {id, status:'error', error}
 *                                                (result.sentences: packed, or null after 'partial's: theirs, in order)
 *   {id, type:'alternatives', source,
 *    options}                            →   (options: the engine's JSON options with `prefix` and `alternatives`)
 *                                        ←   {id, status:'result', result:{alternatives:[{word, probability, continuation}]}}
 *                                                or {id, status:'error', error}
 *   {id, type:'cancel', target}          →   (no reply: the request `target` is dropped or stopped)
 *   {id, type:'memory'}                  →
 *                                        ←   {id, status:'result', result:{wasmBytes, jsHeapBytes}}
 *                                        ←   {id:0, status:'fatal', error}  the engine is unusable; the worker closes
 *
 * The worker runs one request at a time, in arrival order. The engine call itself is synchronous,
 * so a `cancel` takes effect between chunks (a long text is translated chunk by chunk, yielding to
 * the event loop in between); the main thread never waits for that: it rejects the aborted
 * request at once and discards whatever the worker still sends for it. translator.js does not send
 * 'cancel' for a running request any more: it ends that worker and starts another, which the
 * 'ready' of the first start made cheap: its `reuse` is {model, reverse, wasmModule, info}, the
 * checked model bytes (Blobs: passed on to each new worker without a copy on the main thread;
 * plain bytes are read too), the compiled engine (null where it cannot be posted) and the
 * model's url/source/reverse; an 'init' that carries it back starts from those, with no download,
 * check, compile or progress report (its own 'ready' then has `reuse: null`). The worker pool
 * (pool.js) starts its extra workers the same way and sends each chunk of a long input as a
 * 'translate' with chunkChars Infinity (the chunk is given to the engine whole). The 'error' the pool
 * gives translator.js for a pooled request that failed while the first worker was still inside one
 * of its chunks carries `primaryBusy: true` (main thread only, no worker sends it): that worker is
 * then replaced, so nothing of that chunk reaches the next request.
 */
import { packSentences, shiftBlock } from './packed-sentences.js';

/**
 * The version of this protocol. translator.js sends it in 'init' and the worker refuses another;
 * the worker sends its own back in 'ready' and translator.js refuses another. A page and a worker
 * from different builds (a stale cache, a hand-copied file) then fail with a clear message instead
 * of misreading each other's messages. Raise it with every change to the messages.
 * 2: 'translate' carries the engine's JSON options (options.js) and chunkChars.
 * 3: 'ready' carries `reuse` and 'init' may; 'partial' carries the chunk's `range`.
 * 4: 'alternatives'; a 'translate' whose options have a `prefix` goes to the engine in one call.
 * 5: sentences are packed blocks (packed-sentences.js); a 'result' after 'partial's has `sentences: null`.
 * 6: the model bytes in `reuse` are Blobs.
 */
export const PROTOCOL_VERSION = 6;

/** The Cache Storage cache where sw.js keeps model files (scripts/build-web.mjs writes it into dist/sw.js). */
export const MODEL_CACHE = 'nmt-models';

/** Main → worker message types. */
export const Request = Object.freeze({
  INIT: 'init',
  TRANSLATE: 'translate',
  ALTERNATIVES: 'alternatives',
  CANCEL: 'cancel',
  MEMORY: 'memory',
  /** Test only: makes the worker die, to exercise the restart path. */
  TEST_CRASH: '__test_crash',
});

/** Worker → main message statuses. */
export const Status = Object.freeze({
  PROGRESS: 'progress',
  READY: 'ready',
  PARTIAL: 'partial',
  RESULT: 'result',
  ERROR: 'error',
  FATAL: 'fatal',
});

/** Error codes carried by TranslatorError#code. */
export const ErrorCode = Object.freeze({
  NO_SIMD: 'no-simd',
  NO_WORKER: 'no-worker',
  BAD_REQUEST: 'bad-request',
  MODEL_NOT_FOUND: 'model-not-found',
  DOWNLOAD: 'download',
  INTEGRITY: 'integrity',
  ENGINE_LOAD: 'engine-load',
  MODEL_LOAD: 'model-load',
  TRANSLATE: 'translate',
  ENGINE_CRASHED: 'engine-crashed',
  WORKER_DIED: 'worker-died',
  DISPOSED: 'disposed',
  ABORTED: 'aborted',
  PROTOCOL_MISMATCH: 'protocol-mismatch',
});

/** The error for a peer that speaks another PROTOCOL_VERSION (`theirs`: what it sent, maybe nothing). */
export function protocolMismatch(side, theirs) {
  return new TranslatorError(ErrorCode.PROTOCOL_MISMATCH,
    `The translator module and its worker come from different versions: the ${side} speaks protocol ${theirs ?? '(none)'}, ` +
    `this file protocol ${PROTOCOL_VERSION}. Reload the page: a new version of the site may have been installed since it opened ` +
    '(translator.js, worker.js and protocol.js must come from the same build).');
}

/**
 * The error for a model the manifest names that the server does not have (`answer`: 'HTTP 404',
 * 'HTTP 410', or a web page in its place): most likely the page (and the manifest it was served) is
 * older than the site on the server, whose new release replaced the file.
 */
export function modelGone(url, answer) {
  const name = new URL(url).pathname.split('/').pop();
  return new TranslatorError(ErrorCode.DOWNLOAD,
    `Could not download ${name}: ${answer} (the server does not have it). Reload the page: a new version of the site may have ` +
    'been installed since it opened, with other model files (if you host the site, check that the file is on the server).');
}

/** Serialisable error payload: `{code, message}`. */
export function errorPayload(code, message) {
  return { code, message: String(message) };
}

/** An Error with a machine-readable `code` (one of ErrorCode). */
export class TranslatorError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'TranslatorError';
    this.code = code;
  }
}

/** The error an aborted request rejects with: a DOMException named 'AbortError', like fetch(). */
export function abortError(reason) {
  if (reason instanceof Error) return reason;
  const message = typeof reason === 'string' ? reason : 'The translation was aborted.';
  if (typeof DOMException === 'function') return new DOMException(message, 'AbortError');
  const e = new Error(message);
  e.name = 'AbortError';
  return e;
}

// ---------------------------------------------------------------------------------------------
// Chunking: long inputs are translated piece by piece, so that no engine call gets more than a
// bounded amount of text (its time and the WebAssembly heap it needs grow with it), the page can
// show progress, and a cancel takes effect early. Chunks are cut at paragraph breaks (blank
// lines); a paragraph longer than `3 * maxChars` is cut at line breaks, failing that after
// sentence-final punctuation, failing that at any whitespace (text without punctuation), and
// failing all (one "word" of thousands of characters) at a character boundary every `maxChars`:
// never inside a UTF-16 surrogate pair and, where Intl.Segmenter exists, never inside a grapheme
// cluster (a letter and its combining marks, an emoji sequence). So no chunk is longer than
// `3 * maxChars` (CHUNK_BUDGET_FACTOR), and pieces cut at whitespace or by force are grouped into
// chunks of at most `maxChars`. Every chunk is trimmed: the whitespace between chunks is copied to
// the output verbatim; a forced cut has no whitespace, so the translations of its two sides meet.
// Markdown's code blocks (fenced and indented) lie between chunks too, copied as they are.

/**
 * Markdown's fenced code blocks, as [begin, end) ranges of `text`: from a line that starts (after
 * up to three spaces) with ``` or ~~~ to the next line that starts with the same fence, both lines
 * included. A fence never closed opens no block (a stray ``` must not leave a text untranslated).
 * The engine finds them by the same rule (engine/text/verbatim.h, fenced_code_blocks).
 * @param {string} text
 * @returns {Array<[number, number]>}
 */
export function fencedCodeBlocks(text) {
  const blocks = [];
  let fence = '';
  let openAt = 0;
  for (let line = 0; line < text.length;) {
    let end = text.indexOf('\n', line);
    end = end < 0 ? text.length : end + 1;
    let k = line;
    while (k < end && k - line < 3 && text[k] === ' ') k++;
    const starts = text.slice(k, k + 3);
    if (!fence && (starts === '```' || starts === '~~~')) {
      fence = starts;
      openAt = line;
    } else if (fence && starts === fence && k + 3 <= end) {
      blocks.push([openAt, end]);
      fence = '';
    }
    line = end;
  }
  return blocks;
}

const CODE_INSIDE = ['()', '{}', '[]', '=>', '->', '::', '==', '!=', '&&', '||', ' = ', '+=', '</', '/>'];
const CODE_FIRST = ['$ ', '# ', '#!', '#include', '//', '/*', '>>> '];
const asciiAlnum = (c) => /^[A-Za-z0-9]$/.test(c);
const asciiAlpha = (c) => /^[A-Za-z]$/.test(c);

/** A line of code: symbols that prose seldom writes (engine/text/verbatim.cpp, shows_code). */
function showsCode(line) {
  if (CODE_INSIDE.some((s) => line.includes(s)) || CODE_FIRST.some((s) => line.startsWith(s))) return true;
  if (/[;{}\\(]$/.test(line) || line.endsWith('):')) return true;
  for (let k = 1; k < line.length; k++) {
    if (line[k] === '(' && (asciiAlnum(line[k - 1]) || line[k - 1] === '_')) {
      const close = line.indexOf(')', k);
      if (close < 0 || close + 1 === line.length || !asciiAlpha(line[close + 1])) return true;
    }
    if (line[k] === '-' && line[k - 1] === ' ' && k + 1 < line.length && (asciiAlpha(line[k + 1]) || line[k + 1] === '-')) return true;
  }
  return false;
}

/** 'code', 'prose' or 'other' (engine/text/verbatim.cpp, line_kind). */
function lineKind(line) {
  const capital = /^["'(]*[\p{Lu}\p{Lt}]\p{Ll}/u.test(line);
  const sentenceEnd = /(?:[.!?]|\u2026)["')]*$/.test(line);
  if (capital && sentenceEnd) return 'prose';
  if (showsCode(line)) return 'code';
  return capital || sentenceEnd ? 'prose' : 'other';
}

/** The column where a list item's text starts when `line` starts one ("- ", "1. "), else 0. */
function listItemText(text, line) {
  if (line.text === line.end || line.indent > 3) return 0;
  let k = line.text;
  if ('-*+'.includes(text[k])) {
    k++;
  } else {
    while (k < line.end && k - line.text < 9 && text[k] >= '0' && text[k] <= '9') k++;
    if (k === line.text || k >= line.end || (text[k] !== '.' && text[k] !== ')')) return 0;
    k++;
  }
  if (k < line.end && text[k] !== ' ' && text[k] !== '\t') return 0;
  let spaces = 0;
  while (k < line.end && text[k] === ' ' && spaces < 4) { k++; spaces++; }
  return line.indent + (k - line.text);
}

/**
 * Markdown's indented code blocks that read as code, as [begin, end) ranges of `text`: CommonMark's
 * (lines indented by four or more columns after a blank line, a heading, a fenced block or the
 * text's start; in a list, four more than the item's text), kept when more of their lines show code
 * than read as prose, or none reads as prose and the line before ends in ":". The engine finds them
 * by the same rule (engine/text/verbatim.h, indented_code_blocks).
 * @param {string} text
 * @returns {Array<[number, number]>}
 */
export function indentedCodeBlocks(text) {
  if (!/^(?: {4}| {0,3}\t)/m.test(text)) return []; // (no line indented by four columns: a long text's common case)
  const lines = [];
  for (let at = 0; at < text.length;) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    let k = at;
    let columns = 0;
    for (; k < end && (text[k] === ' ' || text[k] === '\t'); k++) columns = text[k] === '\t' ? Math.floor(columns / 4) * 4 + 4 : columns + 1;
    const blank = k === end || (text[k] === '\r' && k + 1 === end);
    lines.push({ begin: at, end, indent: columns, text: blank ? end : k });
    at = end + 1;
  }
  const content = (line) => text.slice(line.text, line.end).replace(/\r$/, '');
  const fenced = fencedCodeBlocks(text);
  const blocks = [];
  let fence = 0;
  let mayStart = true;
  let listText = 0;
  let leadIn = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    while (fence < fenced.length && fenced[fence][1] <= line.begin) fence++;
    if (fence < fenced.length && fenced[fence][0] <= line.begin) {
      mayStart = true;
      listText = 0;
      leadIn = '';
      continue;
    }
    if (line.text === line.end) {
      mayStart = true;
      continue;
    }
    const codeIndent = listText + 4;
    if (line.indent >= codeIndent && mayStart) {
      let last = i;
      let code = 0;
      let prose = 0;
      for (let j = i; j < lines.length && (lines[j].text === lines[j].end || lines[j].indent >= codeIndent); j++) {
        if (fence < fenced.length && fenced[fence][0] <= lines[j].begin) break;
        if (lines[j].text === lines[j].end) continue;
        last = j;
        const kind = lineKind(content(lines[j]));
        if (kind === 'code') code++;
        else if (kind === 'prose') prose++;
      }
      if (code > prose || (prose === 0 && leadIn.endsWith(':'))) blocks.push([line.begin, lines[last].end]);
      i = last;
      mayStart = false;
      leadIn = '';
      continue;
    }
    const item = listItemText(text, line);
    if (item > 0) listText = item;
    else if (mayStart && line.indent < listText) listText = 0;
    const words = content(line);
    const hashes = /^#*/.exec(words)[0].length;
    mayStart = line.indent < 4 && hashes >= 1 && hashes <= 6 && (hashes === words.length || words[hashes] === ' ');
    leadIn = words;
  }
  return blocks;
}

/** Both kinds of Markdown code blocks, fenced and indented, in order. */
export function codeBlocks(text) {
  return [...fencedCodeBlocks(text), ...indentedCodeBlocks(text)].sort((x, y) => x[0] - y[0]);
}

/** A chunk is at most this many times `maxChars` long (a whole paragraph, line or sentence up to that size). */
export const CHUNK_BUDGET_FACTOR = 3;

const SPACE = /\s/;
const SEPARATORS = [
  /\n[^\S\n]*\n\s*/g, // blank line(s)
  // a line break after a sentence end, before any line break: the engine reads a line break inside a
  // sentence as a space (a hard-wrapped paragraph, docs/text-rules.md), so a chunk ends between sentences
  /(?<=[.!?…。;:]["'”’»)\]]*)[^\S\n]*\n\s*/g,
  /\n\s*/g, // line break
  /(?<=[.!?…。;:]["'”’»)\]]*)\s+/g, // after a sentence end
  /\s+/g, // any whitespace
];

function trimRange(text, b, e) {
  while (b < e && SPACE.test(text[b])) b++;
  while (e > b && SPACE.test(text[e - 1])) e--;
  return [b, e];
}

const graphemes = typeof Intl === 'object' && typeof Intl.Segmenter === 'function'
  ? new Intl.Segmenter('und', { granularity: 'grapheme' }) : null;
const isHigh = (c) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c) => c >= 0xdc00 && c <= 0xdfff;
/** Marks, joiners and selectors that belong to the character before them (used without Intl.Segmenter). */
const EXTENDS = /[\p{M}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;

/**
 * Where to cut `text` near `target` (lo < target < hi) so that [lo, cut) and [cut, hi) are both
 * non-empty: the last grapheme boundary at or before `target` (else the first after it), and
 * failing that (a "grapheme" of hundreds of marks) a code point boundary. `lo` must be a boundary
 * (the start of a run of non-space characters, or an earlier cut): the segmenter reads from there,
 * so that pairs like flags (two regional indicators) are counted right.
 */
export function cutPoint(text, lo, target, hi) {
  if (graphemes) {
    // containing() finds the grapheme around `target` from near it (ICU's random access gives the
    // boundaries a reading from `lo` gives), where iterating from `lo` cost ~1 µs a character.
    const end = Math.min(hi, target + 64);
    const { index, segment } = graphemes.segment(text.slice(lo, end)).containing(target - lo);
    if (index > 0) return lo + index;
    if (segment.length < end - lo) return lo + segment.length;
  } else {
    for (let c = target; c > lo && c > target - 64; c--) {
      const ch = String.fromCodePoint(text.codePointAt(c));
      if (!isLow(text.charCodeAt(c)) && !EXTENDS.test(ch) && text.charCodeAt(c - 1) !== 0x200d) return c;
    }
  }
  let cut = target;
  if (isLow(text.charCodeAt(cut)) && isHigh(text.charCodeAt(cut - 1))) cut = cut - 1 > lo ? cut - 1 : cut + 1;
  return cut;
}

function hardCut(text, b, e, maxChars, out) {
  while (e - b > maxChars) {
    const cut = cutPoint(text, b, b + maxChars, e);
    if (cut >= e) break;
    out.push([b, cut]);
    b = cut;
  }
  out.push([b, e]);
}

function splitRange(text, b, e, level, maxChars, out) {
  [b, e] = trimRange(text, b, e);
  if (b >= e) return;
  if (e - b <= CHUNK_BUDGET_FACTOR * maxChars) {
    out.push([b, e]);
    return;
  }
  if (level >= SEPARATORS.length) {
    hardCut(text, b, e, maxChars, out);
    return;
  }
  const re = new RegExp(SEPARATORS[level].source, 'g');
  const segment = text.slice(b, e);
  let start = 0;
  let m;
  while ((m = re.exec(segment)) !== null) {
    if (m[0].length === 0) { re.lastIndex++; continue; }
    splitRange(text, b + start, b + m.index, level + 1, maxChars, out);
    start = m.index + m[0].length;
  }
  splitRange(text, b + start, e, level + 1, maxChars, out);
}

/**
 * Cuts `text` into trimmed, non-overlapping [begin, end) ranges in order; together they cover all
 * its non-whitespace characters, and none is longer than `CHUNK_BUDGET_FACTOR * maxChars`.
 * Neighbouring pieces are grouped while a chunk stays under `maxChars` (the whitespace inside a
 * chunk goes to the engine, which keeps it verbatim).
 * @param {string} text
 * @param {number} [maxChars] at least 2
 * @returns {Array<[number, number]>}
 */
export function planChunks(text, maxChars = 1000) {
  maxChars = Math.max(2, Math.floor(maxChars) || 1000);
  const pieces = [];
  // Markdown's code blocks are left out: copied between the chunks as they are, never cut into
  // halves that no longer read as code (the engine copies a whole block it is given, too; an
  // indented one it can only tell from its first line and the lines before it).
  const breaks = []; // piece indices that start after a code block
  let from = 0;
  for (const [b, e] of [...codeBlocks(text), [text.length, text.length]]) {
    // Level 0 always splits at blank lines so paragraphs are grouped, never cut, when possible.
    const re = new RegExp(SEPARATORS[0].source, 'g');
    const part = text.slice(0, b);
    re.lastIndex = from;
    let start = from;
    let m;
    while ((m = re.exec(part)) !== null) {
      splitRange(text, start, m.index, 1, maxChars, pieces);
      start = m.index + m[0].length;
    }
    splitRange(text, start, b, 1, maxChars, pieces);
    breaks.push(pieces.length);  // no chunk reaches across the block
    from = e;
  }

  const chunks = [];
  let next = 0;
  pieces.forEach(([b, e], i) => {
    const last = chunks[chunks.length - 1];
    const across = i === breaks[next];
    while (next < breaks.length && breaks[next] <= i) next++;
    if (last && !across && e - last[0] <= maxChars) last[1] = e;
    else chunks.push([b, e]);
  });
  return chunks;
}

/**
 * A chunk [b, e) cut between its sentences into groups of 2, 2, 4, 8, … sentences, so that the
 * worker can send the first sentences before the rest is done (a Stop then keeps them), also
 * inside one long line, while most sentences still go to the engine together (it translates the
 * sentences of one call in batches: with greedy search, one call per line took 1.36x as long).
 * `sentences`: the chunk's sentences as the engine reads them (its sentences(), ranges of the
 * text, in order), so each group translates as it does in the whole chunk: the engine translates
 * each sentence on its own, except that a text of one sentence can read as a fragment (a lone
 * "ok then" keeps its small letters), so every group has two sentences or more (a last one left
 * alone joins the group before it). The first group starts at b and the last ends at e; what lies
 * between two groups (whitespace, a list's number, a menu's " » ") is copied as it is, as the
 * engine copies it. Fewer than four sentences make one group, the chunk.
 * @param {Array<[number, number]>} sentences
 * @param {[number, number]} chunk
 * @returns {Array<[number, number]>}
 */
export function sentenceGroups(sentences, [b, e]) {
  if (sentences.length < 4) return [[b, e]];
  const groups = [];
  for (let i = 0, size = 2; i < sentences.length; size = groups.length < 2 ? 2 : size * 2) {
    let last = Math.min(sentences.length, i + size) - 1;
    if (last === sentences.length - 2) last += 1; // (one sentence would be left alone)
    groups.push([sentences[i][0], sentences[last][1]]);
    i = last + 1;
  }
  groups[0][0] = b;
  groups[groups.length - 1][1] = e;
  return groups;
}

// ---------------------------------------------------------------------------------------------
// The engine's results (snake_case JSON) → the result of a request, its sentences packed
// (packed-sentences.js: translator.js turns them into the public Sentence objects).

/**
 * An engine sentence with the matrices the engine leaves out of a copied sentence written back
 * (engine/README.md): `identity_attention`, an attention that is the identity (each token on the
 * one it copies), and `word_attention_from_links`, a word attention that is 0 but at each word
 * link's cell, where it is the link's weight. A Sentence has them as full matrices, as before.
 */
export function expandCopiedAlignments(s) {
  if (s.identity_attention) {
    const n = s.source_tokens.length;
    s.attention = Array.from({ length: n }, (_, r) => {
      const row = new Array(n).fill(0);
      row[r] = 1;
      return row;
    });
    delete s.identity_attention;
  }
  if (s.word_attention_from_links) {
    s.word_attention = Array.from({ length: s.target_words.length }, () => new Array(s.source_words.length).fill(0));
    for (const [target, source, weight] of s.word_alignments) s.word_attention[target][source] = weight;
    delete s.word_attention_from_links;
  }
  return s;
}

/**
 * Accumulates the results of consecutive chunks into one result. It keeps the translated text, not
 * the sentences: each chunk's go out in its 'partial' message (add() returns them), and the
 * result carries them only when there was one chunk (else `sentences: null`: the partials had
 * them), so the worker's memory follows the chunk, not the document.
 */
export class ResultBuilder {
  constructor(text) {
    this.input = text;
    this.text = '';
    this.consumed = 0; // input characters copied or translated so far
    this.chunks = 0;
    this.last = null; // the last chunk's packed sentences
    this.stats = { sourceTokens: 0, targetTokens: 0, ms: { total: 0, encode: 0, decode: 0 } };
  }

  /**
   * Adds the engine's result for input range [b, e). Returns what was appended, for 'partial'.
   * @returns {{text: string, sentences: object, done: number}} (sentences: a packed block)
   */
  add(b, e, engineResult) {
    const st = engineResult.stats || {};
    const ms = st.ms || {};
    engineResult.sentences.forEach(expandCopiedAlignments);
    return this.#append(b, e, engineResult.text, (offset) => packSentences(engineResult.sentences, { text: engineResult.text, sourceOffset: b, targetOffset: offset, input: this.input }),
      [st.source_tokens, st.target_tokens, ms.total, ms.encode, ms.decode]);
  }

  /**
   * Adds a worker's finished result for the chunk [b, e) of the input (its sentences a packed block
   * with ranges within the chunk): the pool (pool.js) assembles its helpers' chunks this way.
   */
  addResult(b, e, result) {
    const t = result.timings || {};
    return this.#append(b, e, result.text, (offset) => shiftBlock(result.sentences, b, offset),
      [result.stats.sourceTokens, result.stats.targetTokens, t.engineMs, t.encodeMs, t.decodeMs]);
  }

  /** The input's gap before b, then the chunk's text; `place(offset)` gives its block placed at offset. */
  #append(b, e, text, place, [sourceTokens, targetTokens, total, encode, decode]) {
    const gap = this.input.slice(this.consumed, b);
    this.text += gap;
    const added = place(this.text.length);
    this.text += text;
    this.consumed = e;
    this.chunks += 1;
    this.last = added;
    this.stats.sourceTokens += sourceTokens || 0;
    this.stats.targetTokens += targetTokens || 0;
    this.stats.ms.total += total || 0;
    this.stats.ms.encode += encode || 0;
    this.stats.ms.decode += decode || 0;
    return { text: gap + text, sentences: added, done: e };
  }

  /** Copies the trailing whitespace and returns the result (timings filled in by the caller). */
  finish() {
    this.text += this.input.slice(this.consumed);
    this.consumed = this.input.length;
    const { sourceTokens, targetTokens, ms } = this.stats;
    return {
      text: this.text,
      sentences: this.chunks === 0 ? packSentences([], { targetOffset: this.text.length }) : this.chunks === 1 ? this.last : null,
      stats: {
        sourceTokens,
        targetTokens,
        tokensPerSecond: ms.total > 0 ? (targetTokens * 1000) / ms.total : 0,
      },
      timings: { engineMs: ms.total, encodeMs: ms.encode, decodeMs: ms.decode, workerMs: 0, queueMs: 0, totalMs: 0 },
    };
  }
}

/** Picks the model for from→to in a parsed weights manifest; throws TranslatorError if none. */
export function pickModel(manifest, from, to) {
  const models = (manifest && Array.isArray(manifest.models)) ? manifest.models : null;
  if (!models) throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, 'The weights manifest has no "models" list.');
  const m = models.find((x) => x.from === from && x.to === to);
  if (!m) {
    const have = models.map((x) => `${x.from}→${x.to}`).join(', ') || 'none';
    throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, `No ${from}→${to} model in the weights manifest (available: ${have}).`);
  }
  if (typeof m.file !== 'string' || !m.file) {
    throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, `The ${from}→${to} entry of the weights manifest names no file.`);
  }
  return m;
}
