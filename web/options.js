/**
 * The decoding options (beam size, penalties, alignments, ...): the engine's table of their names,
 * defaults and allowed ranges (engine/options.h), copied here for the main thread, which checks a
 * request before it queues it. tests/wasm/options.test.mjs fails when this copy and the WASM
 * module's own table (`Module.optionSpecs()`) differ. The engine checks every value again with the
 * same table and the same wording; nothing is ever clamped. The module's types (web/translator.d.ts,
 * TranslateOptions and PassName) and docs/api.md's options table are generated from this file by
 * scripts/gen-options.mjs (OPTION_NOTES below adds the prose the types carry).
 *
 * In JavaScript an option is named in camelCase (`length_penalty` → `lengthPenalty`); the module's
 * one default of its own is `alignments: true` (the engine's is false): results carry alignments
 * unless asked not to. `prefix` (a text option: translate() forces the translation to start with
 * it) and `alternatives` (how many next words alternatives() lists; its `count`) are in the same
 * table. `sample_top_k` (sampling, for back-translation) needs `beam: 1`: engineOptions() refuses it
 * with a beam, as the engine does. `passes` (kind 'switches') takes an object of the engine's text
 * pass names (engine/text/passes.h, listed in `names` and in `translator.info.passes`) to booleans:
 * `passes: { numbers: false }` switches a pass off; the names stay as the engine writes them.
 * `glossary` (kind 'terms') takes an object of source terms to target terms; glossaryError() checks
 * the engine's rules here too (engine/text/glossary.h: terms of 2 bytes or more, at most 10,000), in
 * the engine's words, so that a bad glossary rejects with 'bad-request' before it queues
 * (tests/wasm/glossary-options.test.mjs: the same glossaries refused in the same words).
 */
import { ErrorCode, TranslatorError } from './protocol.js';

/** @type {ReadonlyArray<Readonly<{name: string, kind: 'integer'|'number'|'flag'|'text'|'switches'|'terms', default: number|boolean|string|Record<string, boolean|string>, min?: number, max?: number, names?: ReadonlyArray<string>, cli: boolean, doc: string}>>} */
export const DECODING_OPTIONS = Object.freeze([
  { name: 'beam', kind: 'integer', default: 4, min: 1, max: 16, cli: true, doc: 'beam size; 1 = greedy search' },
  { name: 'length_penalty', kind: 'number', default: 0.6, min: 0, max: 2, cli: true, doc: 'GNMT length penalty alpha for ranking finished beams (0 = raw log-probability)' },
  { name: 'coverage_penalty', kind: 'number', default: 0.1, min: 0, max: 2, cli: true, doc: 'GNMT coverage penalty beta: marks down beams that skipped source words (0 = off)' },
  { name: 'max_length_ratio', kind: 'number', default: 1.5, min: 0.1, max: 4, cli: true, doc: "target tokens <= source tokens * ratio + 10 (and <= the model's max_length)" },
  { name: 'reverse_weight', kind: 'number', default: 0.3, min: 0, max: 5, cli: true, doc: 'with a reverse model: weight of log p(source | candidate) when reranking' },
  { name: 'rerank', kind: 'flag', default: true, cli: false, doc: "rerank the beam's candidates with the reverse model, when one is loaded" },
  { name: 'alignments', kind: 'flag', default: false, cli: true, doc: 'keep the cross-attention and compute word alignments' },
  { name: 'all_heads', kind: 'flag', default: false, cli: true, doc: "with alignments: also keep every decoder layer's every head" },
  { name: 'attention_limit', kind: 'integer', default: 0, min: 0, max: 1024, cli: true, doc: 'with alignments: leave out the token attention (and heads) of sentences with more than this many source or target tokens; word alignments stay (0 = no limit)' },
  { name: 'prefix', kind: 'text', default: '', cli: true, doc: 'one sentence only: the translation starts with this text, kept exactly, and the search continues after it' },
  { name: 'alternatives', kind: 'integer', default: 5, min: 1, max: 20, cli: true, doc: 'list this many next words after the prefix, most probable first, each with the rest of the sentence (greedy)' },
  { name: 'shortlist', kind: 'flag', default: false, cli: true, doc: "decode over the model's lexical shortlist, when it has one (the likely target pieces of the source's pieces), instead of the whole vocabulary: faster, may differ slightly" },
  { name: 'sample_top_k', kind: 'integer', default: 0, min: 0, max: 1000000, cli: true, doc: "beam 1 only: draw each next token from the model's k most probable ones (renormalized; k >= the vocabulary = unrestricted) instead of taking the most probable (0 = off)" },
  { name: 'seed', kind: 'integer', default: 0, min: 0, max: 2147483647, cli: true, doc: 'with sample_top_k: the random stream (the same seed and sentence draw the same translation)' },
  { name: 'keep_case', kind: 'flag', default: false, cli: true, doc: 'translate sentences as they are written, instead of recasing those in capitals, in Title Case or all in lower case for the model (and writing a sentence in capitals back in capitals)' },
  { name: 'raw_numbers', kind: 'flag', default: false, cli: true, doc: "leave numbers as the model writes them, instead of translating a sentence that lost or changed one of its numbers again with the numbers copied (in the target language's separators) and its dates with a month's name written the target language's way (3. Oktober 2023, October 3, 2023), putting back a currency sign it left out, writing clock times with the right half of the day (English p.m. hours on the 24-hour clock in German, German hours with a.m. or p.m. in English), keeping the dot of version and section numbers (Python 3.11), the English ordinal endings (3rd, not 3th) and the source's en dash in ranges (3–5)" },
  { name: 'model_only', kind: 'flag', default: false, cli: true, doc: "translate every sentence with the model, also the short everyday ones whose human translation the model file's translation memory holds" },
  { name: 'passes', kind: 'switches', default: {}, names: ['verbatim', 'glossary', 'memory', 'casing', 'emphasis', 'gender_forms', 'retry_empty', 'numbers', 'capitals', 'pass_through', 'number_separators', 'currency', 'ranges', 'approximate', 'number_labels', 'number_commas', 'ordinals', 'clock_times', 'repeated_words', 'final_marks', 'quotes', 'capital_start', 'emphasis_marks', 'no_break_spaces'], cli: false, doc: 'switch text passes off by name (CLI --no-pass NAME): {numbers: false}; translator.info.passes lists them in the order they run' },
  { name: 'glossary', kind: 'terms', default: {}, cli: false, doc: 'source terms to target terms (CLI --glossary FILE, a TSV): each term found in a sentence, as a whole word in any letter case (a word the term writes in capitals only in capitals), comes out as its target term (a term mapped to itself stays untranslated); overlapping terms: the longest wins' },
].map((o) => Object.freeze(o)));

/**
 * What the module's types (web/translator.d.ts, TranslateOptions) and docs/api.md say about an
 * option beyond its `doc` line (which the engine shares, so it stays short): a few lines of prose
 * each, in JavaScript's names. scripts/gen-options.mjs writes those files' generated regions from
 * the table, these notes and MODULE_DEFAULTS: the type, the allowed values and the default come
 * from the table, never from the prose. An option without a note gets its `doc` line.
 * @type {Readonly<Record<string, ReadonlyArray<string>>>}
 */
export const OPTION_NOTES = Object.freeze({
  beam: ['Beam size: 1 is greedy search (fastest).'],
  max_length_ratio: ["At most source tokens × this + 10 target tokens (and at most the model's max_length)."],
  reverse_weight: ["With `rerank`: the weight of the reverse model's score, log p(source | candidate), when reranking."],
  alignments: ['Return the attention and the word alignments (Sentence.attention, wordAlignments,', 'targetWordConfidence, ...).'],
  all_heads: ["Also return every decoder layer's per-head cross-attention (Sentence.heads)."],
  attention_limit: [
    "A cap on the result's size: sentences with more than this many source or target tokens come",
    'without `attention` (and `heads`); their word alignments, words and confidence stay (0 = no',
    "limit). A 255-token chunk's matrices are ~1 MB of JSON.",
  ],
  rerank: ["With a Translator created with `rerank`: rerank this request's candidates. Ignored for beam 1."],
  shortlist: [
    "Decode over the model's lexical shortlist (the likely target pieces of the source's pieces)",
    'instead of the whole vocabulary: faster, and the translation may differ slightly. No effect with',
    'a model that has none (`translator.info.shortlist` says whether it has one).',
  ],
  sample_top_k: [
    "Sampling, for back-translation: with `beam: 1`, each next token is drawn from the model's",
    '`sampleTopK` most probable ones (renormalized; at least the vocabulary size = unrestricted)',
    'instead of taking the most probable (0 = off). With a beam above 1 the request rejects with',
    "code 'bad-request'.",
  ],
  seed: ['With `sampleTopK`: the random stream (the same seed and sentence draw the same translation).'],
  keep_case: [
    'Sentences in capitals ("THE MEETING IS CANCELLED."), in Title Case or all in lower case ("wir',
    'treffen uns in berlin") are recased for the model, which saw few of them in training, and a',
    'sentence in capitals comes back in capitals ("DIE SITZUNG IST ABGESAGT."). `keepCase: true`',
    'translates them as written.',
  ],
  raw_numbers: [
    'The model sometimes drops or garbles a number ("50.000 Besucher" → "5,000 visitors", "im Juni',
    '2014" → "in June"). A sentence whose translation lacks one of its numbers is translated again',
    'with the numbers it lost copied in, written the target language\'s way ("50,000"), and numbers',
    'the model copied in the source\'s form are rewritten so ("1,234.56" in German: "1.234,56"); a',
    'currency sign the model left out goes back by its amount ("mehr als 180 $"), and clock times',
    'get the right half of the day: an English p.m. hour the model wrote as a morning one in German',
    'goes on the 24-hour clock ("um 18 Uhr"), a German hour gets the right a.m. or p.m. in English',
    '("um 8 Uhr" → "at 8 a.m.", not "8 p.m."; "19:30 Uhr" → "7:30 p.m."). Version and section',
    'numbers keep their dot ("Python 3.11", not "Python 3,11"), English ordinals their ending ("am 3.',
    'Oktober" → "on October 3rd", not "3th") and ranges the source\'s en dash ("3–5 Werktage").',
    "`rawNumbers: true` keeps the model's first translation as it wrote it.",
  ],
  model_only: [
    'Short everyday sentences that the small model gets wrong although the training corpus holds',
    'them word for word ("Tschüss, bis morgen!" came out "Shut up until tomorrow.") are in the model',
    "file's translation memory: such a sentence, written alone (case, spacing and its final marks do",
    "not count), gets the memory's human translation (\"Goodbye till tomorrow!\"), decoded through the",
    "model so that its alignments are the model's, and says `memory: true`. `modelOnly: true` leaves",
    'every sentence to the model.',
  ],
  passes: [
    "The engine's text passes (`translator.info.passes`, in the order they run: addresses copied,",
    'recasing, numbers kept, clock times, quotes, ...) each switched off by name:',
    '`passes: { numbers: false, quotes: false }`. `keepCase`, `rawNumbers` and `modelOnly` are',
    "aliases that switch off the passes of theirs. An unknown name rejects with 'bad-request'.",
  ],
  glossary: [
    "The user's glossary: source terms to target terms, `{ 'Kündigungsfrist': 'notice period',",
    "'Acme Cloud': 'Acme Cloud' }`. Each source term found in a sentence (a whole word, in any letter",
    'case, but a word the term writes in capitals, "IT" or "US", only in capitals; not inside an',
    'address or a name from code) comes out as its target term, with the alignments pointing at it;',
    'a term mapped to itself stays untranslated; overlapping terms: the longest wins. Terms of 2 bytes',
    "or more (target terms not empty), at most 10,000: else the request rejects with 'bad-request'.",
    'Works with beam, prefix, alternatives and HTML. The pass "glossary".',
  ],
  prefix: [
    "A forced target prefix: the text must be one sentence (else the request rejects with code",
    "'bad-request'), and its translation starts with this string exactly; the search (greedy or",
    'beam) continues after it. A prefix ending in a letter or digit may be completed by the model',
    '("Das Ha" → "Das Haus ist klein."; "Das Haus" may become "Das Hauses …"); one ending in a space',
    'is followed by a new word. Token probabilities and alignments cover the prefix\'s tokens too',
    '(their probabilities under the model).',
    '@example',
    "await t.translate('The house is small.', { prefix: 'Das Gebäude ' });   // \"Das Gebäude ist klein.\"",
  ],
});

/** Defaults of the JavaScript module that differ from the engine's (see the file comment). */
export const MODULE_DEFAULTS = Object.freeze({ alignments: true });

/** `length_penalty` → `lengthPenalty`. */
export const jsName = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** 'an integer from 1 to 16', 'a number from 0 to 2', 'true or false', 'a string', 'an object of pass names (...) to true or false' (as engine/options.cpp words it). */
export function allowedValues(spec) {
  if (spec.kind === 'flag') return 'true or false';
  if (spec.kind === 'text') return 'a string';
  if (spec.kind === 'terms') return 'an object of source terms to target terms (strings)';
  if (spec.kind === 'switches') return `an object of pass names (${spec.names.join(', ')}) to true or false`;
  return `${spec.kind === 'integer' ? 'an integer' : 'a number'} from ${spec.min} to ${spec.max}`;
}

function allowed(spec, value) {
  if (spec.kind === 'flag') return typeof value === 'boolean';
  if (spec.kind === 'text') return typeof value === 'string';
  if (spec.kind === 'terms') {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((t) => typeof t === 'string');
  }
  if (spec.kind === 'switches') {
    return typeof value === 'object' && value !== null && !Array.isArray(value) &&
      Object.entries(value).every(([name, on]) => spec.names.includes(name) && typeof on === 'boolean');
  }
  if (typeof value !== 'number' || !(value >= spec.min && value <= spec.max)) return false;
  return spec.kind !== 'integer' || Number.isInteger(value);
}

// engine/text/glossary.h's limits.
const MAX_GLOSSARY_TERMS = 10000;
const MAX_GLOSSARY_TERM_BYTES = 200;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a glossary (an object of strings) breaks engine/text/glossary.h's rules, in glossary_error()'s
 * words, or '' when it keeps them. The engine reads the terms in UTF-8 byte order (a JSON object
 * in nlohmann::json) and names the first bad one: so does this.
 * @param {Record<string, string>} terms
 */
export function glossaryError(terms) {
  const entries = Object.entries(terms);
  if (entries.length > MAX_GLOSSARY_TERMS) return `the glossary has ${entries.length} terms; at most ${MAX_GLOSSARY_TERMS}`;
  const utf8 = new TextEncoder();
  const quoted = (bytes) => `"${bytes.length > 40 ? `${new TextDecoder().decode(bytes.subarray(0, 40))}...` : new TextDecoder().decode(bytes)}"`;
  const problems = [];
  for (const [source, target] of entries) {
    const [s, t] = [utf8.encode(source), utf8.encode(target)];
    let why = '';
    if (s.length < 2) why = `the glossary's source term ${quoted(s)} is shorter than 2 bytes`;
    else if (!t.length) why = `the glossary's term ${quoted(s)} has an empty target term`;
    else if (s.length > MAX_GLOSSARY_TERM_BYTES || t.length > MAX_GLOSSARY_TERM_BYTES) why = `the glossary's term ${quoted(s)} is longer than ${MAX_GLOSSARY_TERM_BYTES} bytes`;
    else if (LONE_SURROGATE.test(source) || LONE_SURROGATE.test(target)) why = `the glossary's term ${quoted(s)} is not valid UTF-8`;
    else if (!/[^ \t\n\r]/.test(source)) why = 'the glossary has a source term of spaces only';
    if (why) problems.push({ bytes: s, why });
  }
  if (!problems.length) return '';
  const byteOrder = (a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
    return a.length - b.length;
  };
  return problems.sort((a, b) => byteOrder(a.bytes, b.bytes))[0].why;
}

/**
 * Checks translate()'s decoding options (camelCase keys; undefined = not given) and returns them as
 * the engine's JSON options (snake_case keys), with the module's own defaults filled in. Throws a
 * TranslatorError (code 'bad-request') naming the first bad option, or a name that is no option
 * (a typo such as `bean: 4` would otherwise be ignored without a word): callers take their own
 * keys (`signal`, `onProgress`, ...) out first and name them in `others` for the message.
 * `caller` names the method in the message; `shown` maps an option to the name the caller took it
 * by (alternatives() takes `alternatives` as `count` and `prefix` as its targetPrefix argument).
 * @param {Record<string, unknown>} options
 * @param {string} [caller]
 * @param {Record<string, string>} [shown]
 * @param {string[]} [others] the caller's own option names, listed in the message of an unknown one
 * @param {string[]} [notHere] the table's options (engine names) that are no options of this caller
 * @returns {Record<string, number|boolean|string>}
 */
export function engineOptions(options, caller = 'translate()', shown = {}, others = [], notHere = []) {
  const specs = DECODING_OPTIONS.filter((spec) => !notHere.includes(spec.name));
  const known = new Set(specs.map((spec) => jsName(spec.name)));
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || known.has(key)) continue;
    const names = [...specs.map((spec) => shown[spec.name] || jsName(spec.name)), ...others];
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${caller}: ${JSON.stringify(key)} is not an option (options: ${names.join(', ')}).`);
  }
  const out = {};
  for (const spec of specs) {
    const key = jsName(spec.name);
    let value = options[key];
    if (value === undefined) value = MODULE_DEFAULTS[spec.name];
    if (value === undefined) continue; // the engine's default
    if (!allowed(spec, value)) {
      const got = typeof value === 'string' || (typeof value === 'object' && value !== null) ? JSON.stringify(value) : String(value);
      throw new TranslatorError(ErrorCode.BAD_REQUEST, `${caller}: ${shown[spec.name] || key} must be ${allowedValues(spec)} (got ${got}).`);
    }
    if (spec.kind === 'terms') {
      const why = glossaryError(value);
      if (why) throw new TranslatorError(ErrorCode.BAD_REQUEST, `${caller}: ${why}.`);
    }
    out[spec.name] = value;
  }
  // Sampling needs beam 1 (engine/options.h, sampling_error; the same wording, in camelCase).
  const beam = out.beam ?? DECODING_OPTIONS.find((spec) => spec.name === 'beam').default;
  if (out.sample_top_k > 0 && beam !== 1) {
    const [k, b] = [shown.sample_top_k || 'sampleTopK', shown.beam || 'beam'];
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${caller}: ${k} must be 0 unless ${b} is 1 (got ${k} ${out.sample_top_k} with ${b} ${beam}).`);
  }
  return out;
}
