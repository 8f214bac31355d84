// Type test of web/translator.d.ts: the public API used as README.md and the .d.ts show it. Never
// run, only compiled (tests/web/typecheck.test.mjs runs `tsc --noEmit --strict` on it). Each
// `@ts-expect-error` line is a misuse the types must reject: if the types get too loose to catch
// it, tsc reports the directive as unused and the test fails.
import Default, {
  DECODING_OPTIONS, ErrorCode, PROTOCOL_VERSION, Translator, TranslatorError, hasWasmSimd, listModels, pickModel,
  restoreElement, translateElement,
} from '../../web/translator.js';
import type {
  Alternative, AlternativesOptions, DecodingOptionSpec, ErrorCodeValue, LoadProgress, ManifestModel, ModelInfo, Range, Sentence, SentenceStream, Token,
  TranslateOptions, TranslateProgress, Translation, TranslatorOptions, WordAlignment, StartupTimings, WorkerMemory,
} from '../../web/translator.js';

export async function readme(): Promise<string> {
  // README.md, "Use it"
  const t = await Translator.create({ from: 'en', to: 'de', onProgress: (p) => console.log(p.loaded, p.total) });
  const r = await t.translate('The house is small.', { beam: 4, alignments: true });
  const text: string = r.text;
  const links: WordAlignment[] | undefined = r.sentences[0].wordAlignments;
  t.dispose();

  const best = await Translator.create({ from: 'en', to: 'de', rerank: true });
  await best.translate('Hello.', { rerank: false });
  best.dispose();
  return text + (links ? links.length : 0);
}

export async function everything(manifestUrl: URL): Promise<number> {
  const phases: LoadProgress['phase'][] = [];
  const options: TranslatorOptions = {
    from: 'de', to: 'en', manifestUrl, engineUrl: './engine/engine.js', wasmUrl: new URL('./engine.wasm', manifestUrl),
    workerUrl: './worker.js', modelBytes: 1, modelSha256: 'ab', onProgress: (p: LoadProgress) => phases.push(p.phase),
    recycleChars: 100000,
  };
  const t: Translator = await Default.create(options);
  const controller = new AbortController();
  const request: TranslateOptions = {
    beam: 1, lengthPenalty: 0.6, coveragePenalty: 0.1, maxLengthRatio: 1.5, reverseWeight: 0.3, alignments: true,
    allHeads: true, attentionLimit: 64, rerank: false, chunkChars: 500, signal: controller.signal,
    onProgress: (p: TranslateProgress) => console.log(p.done / p.total, p.text, p.sentences.length, p.range[1] - p.range[0]),
  };
  const r: Translation = await t.translate('Hallo Welt.', request);
  const s: Sentence = r.sentences[0];
  const range: Range = s.sourceRange;
  const tokens: Token[] = s.targetTokens;
  const confidence: number[] | undefined = s.targetWordConfidence;
  const score: number = s.score + s.tokenProbs[0] + (confidence?.[0] ?? 0);
  const heads: number[][][][] | undefined = s.heads;
  const ms: number = r.timings.totalMs + r.timings.queueMs + r.stats.tokensPerSecond + r.stats.chunks + (r.stats.wasmHeapBytes ?? 0) + t.restarts;
  const info: ModelInfo | null = t.info;
  const source: 'cache' | 'network' | undefined = info?.source;
  const memory = await t.memory();
  const models: ManifestModel[] = await listModels({ manifestUrl });
  const same: ManifestModel[] = await Translator.listModels();
  const picked = pickModel({ models: [{ from: 'en', to: 'de', file: 'm.nmt' }] }, 'en', 'de');
  const specs: ReadonlyArray<Readonly<DecodingOptionSpec>> = DECODING_OPTIONS;
  const beamMax: number | undefined = specs.find((o) => o.name === 'beam')?.max;
  try {
    await t.translate('x', { beam: 0 });
  } catch (e) {
    if (e instanceof TranslatorError) {
      const code: ErrorCodeValue = e.code;
      if (code === ErrorCode.BAD_REQUEST || code === ErrorCode.PROTOCOL_MISMATCH) console.log(e.message);
    }
  }
  const stream: SentenceStream = t.translateStreaming('Hallo Welt.\n\nWie geht es?', request);
  const streamed: Sentence[] = [];
  for await (const x of stream) streamed.push(x);
  const whole: Translation = await stream.translation;
  // prefixes and alternatives (README.md, "Steering a sentence")
  const altOptions: AlternativesOptions = { count: 3, signal: controller.signal };
  const alts: Alternative[] = await t.alternatives('Hallo Welt.', 'Hello ', altOptions);
  const altText: string = alts[0].word + alts[0].continuation + alts[0].probability.toFixed(2);
  const prefixed: Translation = await t.translate('Hallo Welt.', { prefix: 'Hello ' + alts[0].word, beam: 1 });
  console.log(altText, prefixed.sentences[0].target, (await t.alternatives('Hallo.', '')).length);
  const reader = t.translateStreaming('Hallo.', { beam: 1 }).getReader();
  const first = await reader.read();
  const firstRange: Range | undefined = first.done ? undefined : first.value.targetRange;
  await reader.cancel();
  const ready: boolean = t.ready && hasWasmSimd() && streamed.length === whole.sentences.length && !!firstRange;
  t.dispose();
  return range[0] + tokens.length + (heads ? 1 : 0) + ms + (source ? 1 : 0) + (memory.wasmBytes ?? 0) + models.length +
    same.length + picked.file.length + (beamMax ?? 0) + PROTOCOL_VERSION + phases.length + Number(ready) +
    new TranslatorError(ErrorCode.DOWNLOAD, 'offline').code.length;
}

export async function misuse(t: Translator): Promise<void> {
  // @ts-expect-error Translator has no public constructor: use Translator.create()
  new Translator();
  // @ts-expect-error the text must be a string
  await t.translate(42);
  // @ts-expect-error beam is a number
  await t.translate('x', { beam: '4' });
  // @ts-expect-error alignments is a boolean
  await t.translate('x', { alignments: 'yes' });
  // @ts-expect-error not an option
  await t.translate('x', { length_penalty: 0.6 });
  // @ts-expect-error the prefix is a string
  await t.translate('x', { prefix: 5 });
  // @ts-expect-error alternatives() needs the target prefix ('' for the first word)
  await t.alternatives('x');
  // @ts-expect-error count is a number
  await t.alternatives('x', '', { count: '5' });
  // @ts-expect-error an alternative's probability is a number
  const p: string = (await t.alternatives('x', ''))[0].probability;
  console.log(p);
  // @ts-expect-error the stream yields Sentences, not strings
  for await (const x of t.translateStreaming('x')) { const str: string = x; console.log(str); }
  // @ts-expect-error translateStreaming takes the same options as translate
  t.translateStreaming('x', { beam: '4' });
  // @ts-expect-error results are read-only facts about the model
  t.info = null;
  // @ts-expect-error no such phase
  const phase: LoadProgress['phase'] = 'unzip';
  // @ts-expect-error no such error code
  const code: ErrorCodeValue = 'oops';
  console.log(phase, code);
}

export async function htmlUsage(t: Translator, element: Element, signal: AbortSignal): Promise<number> {
  const h = await t.translate('<p>Click <a href="/x">here</a>.</p>', { html: true, beam: 4, signal });
  const html: string = h.text;
  const counts: number = h.segments + h.attributes + h.elements + h.lost;
  const done = await translateElement(element, { translator: t, signal, batchChars: 2000, onProgress: (p) => console.log(p.done / p.total, p.segments) });
  const again = await t.translateElement(element, { beam: 1 });
  done.restore();
  const restored: boolean = restoreElement(element);
  return html.length + counts + again.segments + done.skipped + Number(restored);
}

export async function htmlMisuse(t: Translator, element: Element): Promise<void> {
  // @ts-expect-error translateElement needs an Element
  await t.translateElement('<p>x</p>');
  // @ts-expect-error the module function needs the translator
  await translateElement(element, { beam: 4 });
  // @ts-expect-error html is `true` or absent
  await t.translate('x', { html: 'yes' });
}

// README.md, "Every core" and "First translation": the pool option and the start-up breakdown.
export async function poolUsage(longText: string): Promise<number> {
  const t = await Translator.create({ from: 'en', to: 'de', workers: 2, warmUp: true });
  const r = await t.translate(longText, { beam: 4 });
  const used: number = r.stats.workers + t.workers;
  const startup: StartupTimings | null = t.timings.startup;
  const phases: number = startup ? startup.totalMs + startup.downloadMs + startup.sha256Ms + startup.compileMs + startup.instantiateMs +
    startup.modelLoadMs + startup.workerMs + startup.manifestMs + startup.engineScriptMs + startup.phases.download[1] : 0;
  const how: 'streaming' | 'bytes' | 'reused' | null = startup ? startup.compiled : null;
  const first: number | null = t.timings.firstTranslationMs;
  const memory = await t.memory();
  const helpers: WorkerMemory[] = memory.helpers ?? [];
  const engineBytes: number | undefined = (await new Promise<LoadProgress>((resolve) => Translator.create({ onProgress: resolve }))).files.engine?.total;
  // @ts-expect-error workers is a number
  await Translator.create({ workers: '2' });
  // @ts-expect-error the start-up timings are read-only
  t.timings = { startup: null, firstTranslationMs: null };
  t.dispose();
  return used + phases + (how ? 1 : 0) + (first ?? 0) + helpers.length + (engineBytes ?? 0);
}

// The options the functions above leave out (tests/web/typecheck.test.mjs checks that every option
// of every options interface is passed somewhere in this file).
export async function remainingOptions(): Promise<string> {
  const t = await Translator.create({
    from: 'en', to: 'de', modelUrl: '../weights/en-de/model.nmt', reverseModelUrl: new URL('https://example.org/de-en.nmt'), simd: 'auto',
  });
  const sampled = await t.translate('The house is small.', { beam: 1, sampleTopK: 10, seed: 7 });
  const plain = await t.translate('THE HOUSE IS SMALL.', {
    shortlist: true, keepCase: true, rawNumbers: true, modelOnly: true, passes: { numbers: false, quotes: true },
    glossary: { house: 'Gebäude' },
  });
  // @ts-expect-error simd is 'auto', 'relaxed' or 'simd128'
  await Translator.create({ simd: 'sse' });
  // @ts-expect-error no such text pass
  await t.translate('x', { passes: { spelling: false } });
  // @ts-expect-error glossary terms are strings
  await t.translate('x', { glossary: { house: 1 } });
  t.dispose();
  return sampled.text + plain.text;
}
