/**
 * nmt-translator: English↔German machine translation with word alignments, run by a WebAssembly
 * engine in a Web Worker (browser) or a worker thread (Node).
 *
 * @example
 * import { Translator } from 'nmt-translator';
 * const t = await Translator.create({ from: 'en', to: 'de', onProgress: (p) => bar.value = p.loaded / p.total });
 * const r = await t.translate('The house is small.', { alignments: true });
 * console.log(r.text);              // "Das Haus ist klein."
 * t.dispose();
 */

/** A half-open range of UTF-16 code unit offsets, [begin, end). */
export type Range = [number, number];

export interface LoadProgress {
  /**
   * Each phase is reported once the start reaches it, in this order: 'download' while bytes arrive,
   * 'verify' when the models' size and SHA-256 checks begin, 'compile' when the start waits for the
   * WebAssembly engine, 'load' just before the model is instantiated. The engine compiles while the
   * model downloads, so the 'compile' wait is often over at once. (A cached model that fails its check
   * is downloaded again: more 'download' reports follow 'verify' then.)
   */
  phase: 'download' | 'verify' | 'compile' | 'load';
  /** Bytes received so far, engine.wasm and the model together. */
  loaded: number;
  /**
   * Bytes expected in all (the manifest's sizes, engine.wasm's included, else Content-Length): 0
   * until every file's size is known, then the same number to the end (it does not grow mid-way).
   */
  total: number;
  files: {
    /**
     * engine.wasm. When an earlier Translator on this page compiled it already, it is reused, not
     * fetched, and counted as loaded from the first report (absent when no manifest gives its size).
     */
    engine?: { loaded: number; total: number };
    model: { loaded: number; total: number };
    /** With `rerank`: the other direction's model. */
    reverse?: { loaded: number; total: number };
  };
}

/**
 * Translator.create()'s options: a name that is none of these, or a value of another type, rejects
 * create() with code 'bad-request' (undefined and null: not given). A relative URL resolves as
 * fetch() resolves it: against the document's base URL (a <base href> counts), in a worker its
 * location, in Node the working directory.
 */
export interface TranslatorOptions {
  /** Source language code, e.g. 'en'. Default 'en'. */
  from?: string;
  /** Target language code, e.g. 'de'. Default: 'de' (or 'en' when from is 'de'). */
  to?: string;
  /** Weights manifest listing the models; default ./models/manifest.json next to the module. */
  manifestUrl?: string | URL;
  /** Load this model file directly instead of looking it up in the manifest. */
  modelUrl?: string | URL;
  /** Expected size and SHA-256 (hex) of modelUrl, checked after download when given. */
  modelBytes?: number;
  modelSha256?: string;
  /**
   * Also load the other direction's model (to→from, from the manifest or reverseModelUrl) and use it
   * to rerank the beam's candidates: each is scored by how well the reverse model gets the source
   * back from it. Better translations (weights/README.md, "Reranking with the reverse model": about
   * +0.2-0.4 BLEU) for a second download (~9.5 MB), its memory, and ~2.5x the time per sentence.
   * Default false.
   */
  rerank?: boolean;
  /** With rerank and modelUrl: the reverse model's file. */
  reverseModelUrl?: string | URL;
  /** The Emscripten ES module of the engine; default ./engine/engine.js next to the module. */
  engineUrl?: string | URL;
  /** The engine's .wasm; default: engineUrl with .wasm for .js. */
  wasmUrl?: string | URL;
  /**
   * The worker script; default ./worker.js next to the module. One of another origin (a CDN) runs
   * in a worker started from a blob: URL (data: in an opaque origin) that imports it: its host must
   * send CORS headers, and a Content-Security-Policy must list blob: and the host in worker-src.
   */
  workerUrl?: string | URL;
  /**
   * Called while the engine and the model download and start. A worker started later in place of
   * another (after an abort, a large request or a crash) starts from the model bytes and compiled
   * engine already loaded and reports nothing (unless that fails: the next start downloads again).
   */
  onProgress?: (progress: LoadProgress) => void;
  /**
   * After a request of this many characters or more, the worker is ended and a new one started
   * from the model bytes and compiled engine already loaded (no download), which gives the
   * WebAssembly memory the request grew back (it never shrinks otherwise). The new one starts
   * once the old one (and the pool's helpers) have ended, so the two never hold memory at once;
   * `restarts` counts it from the moment it is decided. Default 200000; Infinity never. Anything else
   * than a number from 0 up rejects create() with code 'bad-request'.
   */
  recycleChars?: number;
  /**
   * The int8 GEMM's kernel. 'auto' (default): WebAssembly relaxed SIMD where the browser has it
   * (Chrome/Edge 114+, Firefox 145+), with activations quantized to 7 bits except the output
   * projection's (faster; BLEU within -0.14..+0.17 of SIMD128 on the six dev sets), else SIMD128.
   * 'relaxed' forces it: where it cannot run, create() rejects with code 'no-simd'. 'simd128':
   * SIMD128 with 8-bit activations everywhere. Any other value rejects with 'bad-request'.
   * `info.simd` says which runs.
   */
  simd?: 'auto' | 'relaxed' | 'simd128';
  /**
   * How many workers, each with its own engine instance, translate the chunks of a long input at
   * once (1 to 16). Only inputs of several chunks (about 1,000 characters each, see chunkChars)
   * are spread; shorter ones run on the first worker. The extra workers start, the first time such
   * an input comes, from the model bytes the first worker downloaded and verified and the
   * WebAssembly module it compiled (nothing is fetched, checked or compiled again), and stay for
   * later requests. Each costs about its engine's WebAssembly memory (~23 MiB with the shipped
   * model, README "Every core"). Results, progress and streaming are in input order as with one
   * worker, and the translation is the same. Default: one per logical core
   * (navigator.hardwareConcurrency), at most 4. Anything else than a whole number from 1 to 16
   * rejects create() with code 'bad-request'.
   */
  workers?: number;
  /**
   * When no request comes within 100 ms of the start, the worker translates a short sentence in that
   * idle time, so the first request does not pay for the engine's first call (buffers allocated,
   * code compiled and optimized by the browser). A request that comes sooner runs at once, without
   * it. Default true; false turns it off.
   */
  warmUp?: boolean;
  /**
   * Aborts the start: create() rejects with the signal's reason (an AbortError without one) and the
   * worker ends, with the model's download, check or compile. An abort after create() resolved does nothing.
   */
  signal?: AbortSignal;
}

/**
 * Where Translator.create()'s time went, in ms (translator.timings.startup). Phases overlap: the
 * engine is fetched, compiled and instantiated while the manifest and the model are read, and the
 * model's SHA-256 is computed (off the worker's thread) while it loads into the engine.
 */
export interface StartupTimings {
  /** create() to the worker ready (the model loaded and checked). */
  totalMs: number;
  /** create() to the worker's script running (spawning the worker and fetching its modules). */
  workerMs: number;
  /** Reading the weights manifest. */
  manifestMs: number;
  /** Fetching and compiling engine.wasm (0 when `compiled` is 'reused'). */
  compileMs: number;
  /** Importing engine.js (the Emscripten glue). */
  engineScriptMs: number;
  /** Reading the model (and the reverse model): from the site's cache or the network, see `source`. */
  downloadMs: number;
  /** Checking the model's size and SHA-256 against the manifest. */
  sha256Ms: number;
  /** Instantiating the compiled engine (and starting its runtime). */
  instantiateMs: number;
  /** Copying the model into the engine and building it (checks, tokenizer). */
  modelLoadMs: number;
  /**
   * How engine.wasm was compiled: 'streaming' (WebAssembly.compileStreaming: on a repeat visit, when
   * the site's service worker has a model cached, so the browser can reuse machine code it cached),
   * 'bytes' (from the downloaded bytes: a first visit, Node, or a server that does not send
   * application/wasm), or 'reused' (the module an earlier Translator on this page compiled).
   */
  compiled: 'streaming' | 'bytes' | 'reused' | null;
  /** Where the model came from. */
  source: 'cache' | 'network' | null;
  /** Each phase's [start, end] in ms after create() (keys: init, manifest, compile, engineScript, download, sha256, instantiate, modelLoad). */
  phases: Record<string, [number, number]>;
}

export interface TranslateProgress {
  /** Input characters translated so far, of `total`. */
  done: number;
  total: number;
  /** The [begin, end) of the input the last chunk covered (one engine call). */
  range: Range;
  /** The translation so far (gaps between chunks included). */
  text: string;
  /** The sentences the last chunk added. */
  sentences: Sentence[];
}

/**
 * The decoding options, as checked by translate() and by the engine: DECODING_OPTIONS (web/options.js,
 * the engine's table in engine/options.h). A value outside its range rejects with code 'bad-request'.
 * The table's options below are generated from it (scripts/gen-options.mjs); translate()'s own
 * (`signal`, `onProgress`, `chunkChars`) are written here.
 */
export interface TranslateOptions {
  // BEGIN generated options: scripts/gen-options.mjs writes this from web/options.js: edit there
  /**
   * Beam size: 1 is greedy search (fastest).
   * An integer from 1 to 16; default 4.
   */
  beam?: number;
  /**
   * GNMT length penalty alpha for ranking finished beams (0 = raw log-probability).
   * A number from 0 to 2; default 0.6.
   */
  lengthPenalty?: number;
  /**
   * GNMT coverage penalty beta: marks down beams that skipped source words (0 = off).
   * A number from 0 to 2; default 0.1.
   */
  coveragePenalty?: number;
  /**
   * At most source tokens × this + 10 target tokens (and at most the model's max_length).
   * A number from 0.1 to 4; default 1.5.
   */
  maxLengthRatio?: number;
  /**
   * With `rerank`: the weight of the reverse model's score, log p(source | candidate), when reranking.
   * A number from 0 to 5; default 0.3.
   */
  reverseWeight?: number;
  /**
   * With a Translator created with `rerank`: rerank this request's candidates. Ignored for beam 1.
   * Default true.
   */
  rerank?: boolean;
  /**
   * Return the attention and the word alignments (Sentence.attention, wordAlignments,
   * targetWordConfidence, ...).
   * Default true.
   */
  alignments?: boolean;
  /**
   * Also return every decoder layer's per-head cross-attention (Sentence.heads).
   * Default false.
   */
  allHeads?: boolean;
  /**
   * A cap on the result's size: sentences with more than this many source or target tokens come
   * without `attention` (and `heads`); their word alignments, words and confidence stay (0 = no
   * limit). A 255-token chunk's matrices are ~1 MB of JSON.
   * An integer from 0 to 1024; default 0.
   */
  attentionLimit?: number;
  /**
   * A forced target prefix: the text must be one sentence (else the request rejects with code
   * 'bad-request'), and its translation starts with this string exactly; the search (greedy or
   * beam) continues after it. A prefix ending in a letter or digit may be completed by the model
   * ("Das Ha" → "Das Haus ist klein."; "Das Haus" may become "Das Hauses …"); one ending in a space
   * is followed by a new word. Token probabilities and alignments cover the prefix's tokens too
   * (their probabilities under the model).
   * Default: none.
   * @example
   * await t.translate('The house is small.', { prefix: 'Das Gebäude ' });   // "Das Gebäude ist klein."
   */
  prefix?: string;
  /**
   * Decode over the model's lexical shortlist (the likely target pieces of the source's pieces)
   * instead of the whole vocabulary: faster, and the translation may differ slightly. No effect with
   * a model that has none (`translator.info.shortlist` says whether it has one).
   * Default false.
   */
  shortlist?: boolean;
  /**
   * Sampling, for back-translation: with `beam: 1`, each next token is drawn from the model's
   * `sampleTopK` most probable ones (renormalized; at least the vocabulary size = unrestricted)
   * instead of taking the most probable (0 = off). With a beam above 1 the request rejects with
   * code 'bad-request'.
   * An integer from 0 to 1000000; default 0.
   */
  sampleTopK?: number;
  /**
   * With `sampleTopK`: the random stream (the same seed and sentence draw the same translation).
   * An integer from 0 to 2147483647; default 0.
   */
  seed?: number;
  /**
   * Sentences in capitals ("THE MEETING IS CANCELLED."), in Title Case or all in lower case ("wir
   * treffen uns in berlin") are recased for the model, which saw few of them in training, and a
   * sentence in capitals comes back in capitals ("DIE SITZUNG IST ABGESAGT."). `keepCase: true`
   * translates them as written.
   * Default false.
   */
  keepCase?: boolean;
  /**
   * The model sometimes drops or garbles a number ("50.000 Besucher" → "5,000 visitors", "im Juni
   * 2014" → "in June"). A sentence whose translation lacks one of its numbers is translated again
   * with the numbers it lost copied in, written the target language's way ("50,000"), and numbers
   * the model copied in the source's form are rewritten so ("1,234.56" in German: "1.234,56"); a
   * currency sign the model left out goes back by its amount ("mehr als 180 $"), and clock times
   * get the right half of the day: an English p.m. hour the model wrote as a morning one in German
   * goes on the 24-hour clock ("um 18 Uhr"), a German hour gets the right a.m. or p.m. in English
   * ("um 8 Uhr" → "at 8 a.m.", not "8 p.m."; "19:30 Uhr" → "7:30 p.m."). Version and section
   * numbers keep their dot ("Python 3.11", not "Python 3,11"), English ordinals their ending ("am 3.
   * Oktober" → "on October 3rd", not "3th") and ranges the source's en dash ("3–5 Werktage").
   * `rawNumbers: true` keeps the model's first translation as it wrote it.
   * Default false.
   */
  rawNumbers?: boolean;
  /**
   * Short everyday sentences that the small model gets wrong although the training corpus holds
   * them word for word ("Tschüss, bis morgen!" came out "Shut up until tomorrow.") are in the model
   * file's translation memory: such a sentence, written alone (case, spacing and its final marks do
   * not count), gets the memory's human translation ("Goodbye till tomorrow!"), decoded through the
   * model so that its alignments are the model's, and says `memory: true`. `modelOnly: true` leaves
   * every sentence to the model.
   * Default false.
   */
  modelOnly?: boolean;
  /**
   * The engine's text passes (`translator.info.passes`, in the order they run: addresses copied,
   * recasing, numbers kept, clock times, quotes, ...) each switched off by name:
   * `passes: { numbers: false, quotes: false }`. `keepCase`, `rawNumbers` and `modelOnly` are
   * aliases that switch off the passes of theirs. An unknown name rejects with 'bad-request'.
   * Default: all on.
   */
  passes?: Partial<Record<PassName, boolean>>;
  /**
   * The user's glossary: source terms to target terms, `{ 'Kündigungsfrist': 'notice period',
   * 'Acme Cloud': 'Acme Cloud' }`. Each source term found in a sentence (a whole word, in any letter
   * case, but a word the term writes in capitals, "IT" or "US", only in capitals; not inside an
   * address or a name from code) comes out as its target term, with the alignments pointing at it;
   * a term mapped to itself stays untranslated; overlapping terms: the longest wins. Terms of 2 bytes
   * or more (target terms not empty), at most 10,000: else the request rejects with 'bad-request'.
   * Works with beam, prefix, alternatives and HTML. The pass "glossary".
   * Default: none.
   */
  glossary?: Record<string, string>;
  // END generated options
  /**
   * Cancels the request: a queued one never runs; a running one rejects at once with an AbortError,
   * and its worker is replaced by a fresh one (from the model already loaded) so that the requests
   * queued behind it do not wait for the engine call it was in.
   */
  signal?: AbortSignal;
  /**
   * Called after each engine call of a request that takes several: each chunk of a long input, and
   * each group of 2, 2, 4, 8, … sentences of a short text of four sentences or more (not with beam 1,
   * where one call is faster), with the sentences it added: what was reported before an abort is
   * the caller's to keep (the promise rejects).
   */
  onProgress?: (progress: TranslateProgress) => void;
  /**
   * Chunk size in characters (default 1000). Long inputs are cut at paragraph breaks, failing that
   * at line breaks, sentence ends, spaces, and failing all between two characters (never inside a
   * surrogate pair or a grapheme cluster). A paragraph, line or sentence of up to 3 × chunkChars is
   * kept whole; pieces cut at spaces or between characters are at most chunkChars. No engine call
   * gets more than 3 × chunkChars characters. Anything else than a number from 1 up rejects with
   * code 'bad-request' (so does an onProgress that is not a function).
   */
  chunkChars?: number;
}

/**
 * translate(html, { html: true }): the input is HTML and so is the result (see HtmlTranslation).
 * `html` is true or false (undefined or null: false); another value ('false', 1) rejects with code
 * 'bad-request'.
 */
export interface HtmlTranslateOptions extends TranslateOptions {
  html: true;
  /** Characters of text per engine request (default 5000, at least 1): onProgress is called after each. */
  batchChars?: number;
}

/**
 * What translate(html, { html: true }) resolves with. `text` is the translated HTML: the text of
 * every run of text between block elements translated as a paragraph, inline elements (a, b, em,
 * span, …) placed on the target words aligned to their source words, code/kbd/samp/var, script,
 * style, pre, comments and anything under translate="no" (or class="notranslate") copied as
 * written, title/alt/placeholder/aria-label/aria-description (and button inputs' value, an
 * iframe's or a video's title, an inline SVG's <title> and <desc>) translated; an element the
 * user edits (contenteditable) left as written; translated text escaped, every element closed. The input is read by the module's own
 * tokenizer: nothing in it runs or loads. The output keeps the input's scripts, handlers and URLs:
 * it is as safe to insert into a page as the input was.
 */
export interface HtmlTranslation extends Translation {
  html: true;
  /** Runs of text translated (one per block), and attributes translated. */
  segments: number;
  attributes: number;
  /** Inline elements placed on words, and those the alignment put on no word (kept, empty, where their text began). */
  elements: number;
  lost: number;
}

/**
 * translateElement()'s options: translate()'s (decoding options, `signal`, `chunkChars`; alignments
 * are always on), `batchChars` and its own `onProgress`. Checked before the first request, also for
 * an element without text: a name that is no option (`html` included) or a bad value rejects with
 * code 'bad-request', the message naming translateElement() and listing its options, and the
 * element is left as it was; so does a missing `translator`, or an element that is no DOM Element.
 */
export interface TranslateElementOptions extends Omit<TranslateOptions, 'onProgress'> {
  /** The Translator to use (Translator#translateElement passes itself). */
  translator?: Translator;
  /** Characters per request (default 1500, at least 1): each batch is applied to the page when it is done. */
  batchChars?: number;
  /** After each batch is applied: input characters done of total, and segments translated so far. */
  onProgress?: (progress: { done: number; total: number; segments: number }) => void;
}

/** What translateElement() resolves with. */
export interface TranslatedElement {
  /** Puts the original nodes, text and attributes back (once). */
  restore(): void;
  segments: number;
  attributes: number;
  elements: number;
  lost: number;
  /** Segments or attributes the page changed while they were being translated (left as the page made them). */
  skipped: number;
}

/**
 * Translates a live DOM subtree in place (main thread), like Firefox's page translation: the same
 * segments, placement and attributes as translate(html, { html: true }). Translated text goes into
 * new Text nodes (no innerHTML, nothing parsed); inline elements keep their identity (a shallow
 * clone without id only where one is split in two); images and untranslated elements are moved, not
 * cloned. onProgress gets {done, total, segments} after each batch. An abort (`signal`) or an error
 * restores the original and rejects; translating an element again restores it first.
 */
export declare function translateElement(element: Element, options: TranslateElementOptions & { translator: Translator }): Promise<TranslatedElement>;
/** Restores what translateElement() changed under `element`; false when it had nothing to restore. */
export declare function restoreElement(element: Element): boolean;

export interface Token {
  /** The SentencePiece piece, e.g. "▁Hal"; the last token is "</s>". */
  piece: string;
  /** Offsets within the sentence text ([b, b] for "</s>"). */
  range: Range;
}

export interface WordAlignment {
  /** Index into targetWords. */
  target: number;
  /** Index into sourceWords. */
  source: number;
  /** Soft weight of the link, 0..1 (wordAttention[target][source]). */
  weight: number;
  /** Offsets of the two words within their sentence texts. */
  targetRange: Range;
  sourceRange: Range;
}

export interface Sentence {
  source: string;
  target: string;
  /** Where this sentence lies in the whole input / the whole translation. */
  sourceRange: Range;
  targetRange: Range;
  sourceTokens: Token[];
  targetTokens: Token[];
  /**
   * What the search ranked this translation by (higher is better, at most 0): log p(target | source)
   * / ((5 + target tokens) / 6)^lengthPenalty, plus with a beam the coverage penalty and with rerank
   * the reverse model's weighted term (engine/README.md). Compares candidates of one sentence; across
   * sentences only roughly.
   */
  score: number;
  /**
   * Each target token's probability under the model, p(token | source, the tokens before it), in
   * targetTokens order ("</s>" included when generated), 4 decimals. With rerank, the chosen
   * candidate's probabilities under the forward model. A sentence with no word in it is copied
   * (see `copied`): its tokens are the source's, each with probability 1 and attending to itself
   * (also in `heads`).
   */
  tokenProbs: number[];
  /**
   * True when the sentence has nothing the model can translate (only digits, punctuation, symbols or
   * emoji, such as "* * *" or "— 12 —"; or words only in scripts the vocabulary lacks, such as
   * "Привет, как дела?" or "今天天气很好。"; or nothing but an address or a long run without spaces):
   * `target` is its own text (numbers written the target language's way), not the model's. Absent
   * otherwise.
   */
  copied?: true;
  /**
   * True when the translation is the translation memory's human translation of the sentence (see
   * `modelOnly`): each token's probability is 1, and the alignments are the model's attention while
   * it reads that translation. Absent otherwise.
   */
  memory?: true;
  /**
   * The engine's text passes that changed this sentence, in the order they ran (`translator.info.passes`):
   * e.g. ['verbatim', 'numbers', 'quotes'] for one whose address was copied, which was translated
   * again with a lost number copied, and whose quotation marks were set. Absent when none did.
   */
  passes?: PassName[];
  /** Soft alignment [targetTokens][sourceTokens]: the alignment layer's cross-attention, mean over heads; rows sum to 1. */
  attention?: number[][];
  /** With allHeads: [decoderLayer][head][targetTokens][sourceTokens]. */
  heads?: number[][][][];
  /** Word offsets within the sentence texts. */
  sourceWords?: Range[];
  targetWords?: Range[];
  /**
   * With alignments: the model's confidence in each targetWords entry, 0..1: its probability given
   * the source and the words before it, the product of its tokens' probabilities (a word inside
   * another word's token, such as the "." of "1.", gets that token's). The models are
   * label-smoothed, so a sure word seldom gets much more than 0.9. The demo page marks words below 0.15:
   * on the dev sets (beam 4) that flags 13% / 10% of the words (en→de / de→en), which are absent
   * from the reference translation 2.2x / 2.6x as often as the others (weights/recipe/calibrate_confidence.py).
   */
  targetWordConfidence?: number[];
  /** Soft word alignment [targetWords][sourceWords]; rows sum to 1. */
  wordAttention?: number[][];
  /** Hard word links. */
  wordAlignments?: WordAlignment[];
}

export interface Translation {
  /** The whole translation; whitespace between sentences and paragraphs is kept as in the input. */
  text: string;
  /**
   * Plain objects with the keys above (JSON.stringify, spreading and structuredClone see them all).
   * Every field is held packed (texts, ranges, tokens, probabilities, attention, alignments: ~0.55 kB
   * for a short sentence with alignments, a few kB for a long one) and turned into plain values the
   * first time it is read, then kept: a long document's result stays small until it is read through.
   */
  sentences: Sentence[];
  stats: {
    sourceTokens: number;
    targetTokens: number;
    /** target tokens per second of engine time */
    tokensPerSecond: number;
    /** Engine calls the input was cut into (see TranslateOptions.chunkChars). */
    chunks: number;
    /** The worker's WebAssembly memory after the request, in bytes: it only grows, so the most it has needed so far. With several workers, the largest. */
    wasmHeapBytes: number | null;
    /** Workers that translated chunks of this request (TranslatorOptions.workers); 1 for a text of one chunk. */
    workers: number;
  };
  timings: {
    /** Engine time (encode + decode + the rest), summed over chunks. */
    engineMs: number;
    encodeMs: number;
    decodeMs: number;
    /** Time inside the worker, from receiving the request to posting the result. */
    workerMs: number;
    /** Time spent waiting behind earlier requests. */
    queueMs: number;
    /** From the translate() call to the result. */
    totalMs: number;
  };
}

/**
 * What translateStreaming() returns: a ReadableStream of the request's Sentences, in order, which
 * `for await` reads (where the browser's streams are not async-iterable, translateStreaming() adds
 * the iterator).
 */
export type SentenceStream = ReadableStream<Sentence> & AsyncIterable<Sentence> & {
  /**
   * The whole Translation (text, sentences, stats, timings), as translate() would resolve: settles
   * when the stream ends, and rejects with the stream's error.
   */
  readonly translation: Promise<Translation>;
};

/** Options of alternatives(). */
export interface AlternativesOptions {
  /** How many words to list, 1 to 20. Default 5. */
  count?: number;
  /** Cancels the request, as translate()'s `signal`. */
  signal?: AbortSignal;
}

/** One next word after a target prefix: what alternatives() lists. */
export interface Alternative {
  /**
   * The text after the prefix up to the end of the word (the next word start or punctuation); it
   * begins with a space when the prefix does not end with one and the word is a new word.
   */
  word: string;
  /** p(word | source, prefix) under the model, 0..1 (4 decimals): the product of the word's pieces' probabilities. */
  probability: number;
  /** The rest of the sentence after the word, decoded greedily: prefix + word + continuation is a whole translation. */
  continuation: string;
}

/** One worker's memory: its engine's WebAssembly memory, its JS heap, the model file's size. */
export interface WorkerMemory {
  wasmBytes: number | null;
  jsHeapBytes: number | null;
  modelFileBytes: number | null;
}

// BEGIN generated pass names: scripts/gen-options.mjs writes this from web/options.js: edit there
/** The engine's text passes (engine/text/passes.h), in the order they run. */
export type PassName = 'verbatim' | 'glossary' | 'memory' | 'casing' | 'emphasis' | 'gender_forms'
  | 'retry_empty' | 'numbers' | 'capitals' | 'pass_through' | 'number_separators' | 'currency' | 'ranges'
  | 'approximate' | 'number_labels' | 'number_commas' | 'ordinals' | 'clock_times' | 'repeated_words'
  | 'final_marks' | 'quotes' | 'capital_start' | 'emphasis_marks' | 'no_break_spaces';
// END generated pass names

export interface ModelInfo {
  config: { d_model: number; n_heads: number; encoder_layers: number; decoder_layers: number; [key: string]: unknown };
  languages: { source: string; target: string };
  provenance: Record<string, unknown>;
  file_bytes: number;
  /** Whether the model file carries a lexical shortlist (the `shortlist` option uses it). */
  shortlist: boolean;
  /** The text passes in the order they run: 'source' (before tokenizing), 'retry', 'target' (after decoding). */
  passes: Array<{ name: PassName; stage: 'source' | 'retry' | 'target'; doc: string; alias?: 'keep_case' | 'raw_numbers' | 'model_only' }>;
  /** The int8 GEMM's kernel: 'relaxed' (relaxed SIMD, 7-bit activations) or 'simd128' (see the `simd` option). */
  simd: 'relaxed' | 'simd128';
  /** Where the model came from, and the direction that was asked for. */
  url: string;
  requested: { from: string; to: string };
  /** 'cache': read from the site's service-worker model cache (sw.js); 'network': downloaded. */
  source: 'cache' | 'network';
  /** The reverse model used for reranking (created with `rerank`), else null. */
  reverse: { url: string; source: 'cache' | 'network'; bytes: number } | null;
  [key: string]: unknown;
}

export interface ManifestModel {
  from: string;
  to: string;
  file: string;
  /** Absolute URL of the file. */
  url: string;
  bytes?: number;
  sha256?: string;
}

export type ErrorCodeValue =
  | 'no-simd' | 'no-worker' | 'bad-request' | 'model-not-found' | 'download' | 'integrity' | 'engine-load'
  | 'model-load' | 'translate' | 'engine-crashed' | 'worker-died' | 'disposed' | 'aborted' | 'protocol-mismatch';

export declare const ErrorCode: Readonly<{
  NO_SIMD: 'no-simd'; NO_WORKER: 'no-worker'; BAD_REQUEST: 'bad-request'; MODEL_NOT_FOUND: 'model-not-found';
  DOWNLOAD: 'download'; INTEGRITY: 'integrity'; ENGINE_LOAD: 'engine-load'; MODEL_LOAD: 'model-load';
  TRANSLATE: 'translate'; ENGINE_CRASHED: 'engine-crashed'; WORKER_DIED: 'worker-died'; DISPOSED: 'disposed';
  ABORTED: 'aborted'; PROTOCOL_MISMATCH: 'protocol-mismatch';
}>;

/** The worker protocol's version; translator.js and worker.js refuse a peer with another (code 'protocol-mismatch'). */
export declare const PROTOCOL_VERSION: number;

/** One decoding option: its engine (snake_case) name, default and allowed range. */
export interface DecodingOptionSpec {
  /** The engine's name; translate() takes it in camelCase (length_penalty → lengthPenalty). */
  name: string;
  kind: 'integer' | 'number' | 'flag' | 'text' | 'switches' | 'terms';
  /** The engine's default (translate()'s own default for `alignments` is true; switches and terms: {}). */
  default: number | boolean | string | Record<string, boolean | string>;
  /** Allowed values, inclusive (integer and number options). */
  min?: number;
  max?: number;
  /** The names a 'switches' option takes (`passes`: the text passes, in the order they run). */
  names?: ReadonlyArray<string>;
  /** The `nmt` command takes it (as --name with '-' for '_'). */
  cli: boolean;
  doc: string;
}

/** The decoding options' table (engine/options.h). */
export declare const DECODING_OPTIONS: ReadonlyArray<Readonly<DecodingOptionSpec>>;

/** Errors from the translator carry a machine-readable code. Aborts reject with a DOMException named 'AbortError' instead. */
export declare class TranslatorError extends Error {
  constructor(code: ErrorCodeValue, message: string, options?: { cause?: unknown });
  name: 'TranslatorError';
  code: ErrorCodeValue;
}

/** True when WebAssembly SIMD128 is available (the engine needs it). */
export declare function hasWasmSimd(): boolean;

/** Languages detectLanguage() names besides English and German (the models cannot translate them). */
export type OtherLanguage = 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'sv' | 'da' | 'nb' | 'pl' | 'cs' | 'ro' | 'tr' | 'id' | 'hu';
/** What detectLanguage() found. */
export interface DetectedLanguage {
  /**
   * 'en' or 'de'; another language's code when the text's function words are clearly that
   * language's (French, Spanish, Dutch, ...: see OtherLanguage); 'und' when there is too little
   * text, it is mostly in another script, or it fits none of these.
   */
  language: 'en' | 'de' | 'und' | OtherLanguage;
  /**
   * For 'en'/'de': the probability of `language` against the other of the two (0.5 for 'und').
   * For another language: how clearly its function words outnumber the runner-up's (0.5: a tie,
   * as Danish and Norwegian can be).
   */
  confidence: number;
  /** Each language's average log-probability per character trigram (nats). */
  scores: Record<string, number>;
}
/**
 * Tells English from German (character trigrams counted on the training corpus; ~60 kB, no model
 * needed): 99.9% right on the dev sentences of 20 or more characters. Text in another Latin-script
 * language is named by its function words ('fr', 'nl', ...) where they are clear, and otherwise
 * 'und' or (for a short sentence) English or German.
 */
export declare function detectLanguage(text: string): DetectedLanguage;

/**
 * The entry for from→to in a parsed weights manifest; throws a TranslatorError (code
 * 'model-not-found') naming the directions it offers when there is none.
 */
export declare function pickModel<M extends { from: string; to: string; file: string }>(
  manifest: { models: M[] }, from: string, to: string): M;

/** Lists the directions a weights manifest offers. Another option name, or a manifestUrl of another type, rejects with code 'bad-request'. */
export declare function listModels(options?: { manifestUrl?: string | URL }): Promise<ManifestModel[]>;

export declare class Translator {
  /** Starts a worker, downloads the engine and the model, and resolves when it can translate. */
  static create(options?: TranslatorOptions): Promise<Translator>;
  static listModels(options?: { manifestUrl?: string | URL }): Promise<ManifestModel[]>;
  private constructor();
  readonly from: string;
  readonly to: string;
  /** What the engine reports about the loaded model. */
  readonly info: ModelInfo | null;
  /** True while a worker is running with the model loaded. */
  readonly ready: boolean;
  /** How many times the worker was replaced: after an abort of a running request, a request of recycleChars or more, or a crash. */
  readonly restarts: number;
  /** How many workers translate a long input at once (TranslatorOptions.workers, or its default). */
  readonly workers: number;
  /** Where create()'s time went, and the time from create() to the first translate() result (null until then). */
  readonly timings: { startup: StartupTimings | null; firstTranslationMs: number | null };
  /** Queues a translation. */
  translate(html: string, options: HtmlTranslateOptions): Promise<HtmlTranslation>;
  translate(text: string, options?: TranslateOptions): Promise<Translation>;
  /** translateElement(element, { ...options, translator: this }). */
  translateElement(element: Element, options?: TranslateElementOptions): Promise<TranslatedElement>;
  /**
   * Queues a translation like translate(), with the same options, and streams its sentences: each
   * chunk's as soon as that chunk is done (a text of one chunk yields them all at the end). An
   * abort (`signal`), cancelling the stream or leaving a `for await` loop early stops the request
   * as translate()'s abort does; after an abort the iteration rejects with an AbortError.
   * @example
   * for await (const s of t.translateStreaming(text, { signal })) show(s.target, s.sourceRange);
   */
  translateStreaming(text: string, options?: TranslateOptions): SentenceStream;
  /**
   * The `count` most probable next words after `targetPrefix` ('' for the first word) in a
   * translation of `source` (one sentence), most probable first, each with the rest of the
   * sentence decoded greedily after it. The model's own (greedy) next word is always among them. To
   * go on from a chosen word, translate `source` with `{ prefix: targetPrefix + word }`, plus the
   * continuation's first character when it is a space or punctuation (that keeps the word whole).
   * A sentence with nothing to translate ("* * *", copied by translate()) offers only its own next
   * word, with probability 1, while targetPrefix is its start.
   * Rejects with code 'bad-request' when `source` is not one sentence or targetPrefix not a string.
   * @example
   * const words = await t.alternatives('The house is small.', 'Das ', { count: 5 });
   * // [{ word: 'Haus', probability: 0.89, continuation: ' ist klein.' }, { word: 'Gebäude', … }, …]
   */
  alternatives(source: string, targetPrefix: string, options?: AlternativesOptions): Promise<Alternative[]>;
  /** Memory used inside the worker; with a pool, `helpers` lists each extra worker's. */
  memory(): Promise<WorkerMemory & { helpers?: WorkerMemory[] }>;
  /** Ends the worker; pending requests reject with code 'disposed'. */
  dispose(): void;
}

export default Translator;
