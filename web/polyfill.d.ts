/**
 * nmt-translator/polyfill: the web's standard Translator and LanguageDetector API (WICG
 * translation-api draft) run by this project's engine, offline, in any browser with WebAssembly
 * SIMD, in a Web Worker and in Node.
 *
 * @example
 * import { install } from 'nmt-translator/polyfill';
 * install(); // only where the browser has no Translator / LanguageDetector of its own
 * const translator = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' });
 * await translator.translate('The house is small.'); // "Das Haus ist klein."
 */

export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

export interface CreateMonitorEventMap {
  downloadprogress: ProgressEvent;
}

/** What a create() monitor callback receives; 'downloadprogress' events are ProgressEvents with total 1. */
export interface CreateMonitor extends EventTarget {
  ondownloadprogress: ((this: CreateMonitor, event: ProgressEvent) => any) | null;
  addEventListener<K extends keyof CreateMonitorEventMap>(type: K, listener: (this: CreateMonitor, event: CreateMonitorEventMap[K]) => any, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof CreateMonitorEventMap>(type: K, listener: (this: CreateMonitor, event: CreateMonitorEventMap[K]) => any, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

export type CreateMonitorCallback = (monitor: CreateMonitor) => void;

export interface TranslatorCreateCoreOptions {
  /** A BCP 47 tag: 'en', 'en-US', 'de-CH', ... (canonicalized; a bad tag is a RangeError, as in Chrome). */
  sourceLanguage: string;
  targetLanguage: string;
}

export interface TranslatorCreateOptions extends TranslatorCreateCoreOptions {
  signal?: AbortSignal;
  monitor?: CreateMonitorCallback;
}

export interface TranslatorTranslateOptions {
  signal?: AbortSignal;
}

export declare class Translator {
  private constructor();
  static availability(options: TranslatorCreateCoreOptions): Promise<Availability>;
  static create(options: TranslatorCreateOptions): Promise<Translator>;
  /** The model's language after best-fit matching ('en' for 'en-US'), or the tag given for the identity translation. */
  readonly sourceLanguage: string;
  readonly targetLanguage: string;
  /** 1,000,000 UTF-16 code units. */
  readonly inputQuota: number;
  translate(input: string, options?: TranslatorTranslateOptions): Promise<string>;
  /** Pieces of the translation (strings, each new text only) that concatenate to what translate() gives; `for await` reads it in every browser. */
  translateStreaming(input: string, options?: TranslatorTranslateOptions): ReadableStream<string> & AsyncIterable<string>;
  measureInputUsage(input: string, options?: TranslatorTranslateOptions): Promise<number>;
  destroy(): void;
}

export interface LanguageDetectorCreateCoreOptions {
  expectedInputLanguages?: string[];
}

export interface LanguageDetectorCreateOptions extends LanguageDetectorCreateCoreOptions {
  signal?: AbortSignal;
  monitor?: CreateMonitorCallback;
}

export interface LanguageDetectorDetectOptions {
  signal?: AbortSignal;
}

export interface LanguageDetectionResult {
  /** A canonical BCP 47 tag, or 'und' (always the last entry). */
  detectedLanguage: string;
  confidence: number;
}

export declare class LanguageDetector {
  private constructor();
  static availability(options?: LanguageDetectorCreateCoreOptions): Promise<Availability>;
  static create(options?: LanguageDetectorCreateOptions): Promise<LanguageDetector>;
  readonly expectedInputLanguages: ReadonlyArray<string> | null;
  /** Infinity (measureInputUsage() is then 0). */
  readonly inputQuota: number;
  detect(input: string, options?: LanguageDetectorDetectOptions): Promise<LanguageDetectionResult[]>;
  measureInputUsage(input: string, options?: LanguageDetectorDetectOptions): Promise<number>;
  destroy(): void;
}

/** A Translator's inputQuota. */
export declare const TRANSLATOR_INPUT_QUOTA: number;

/**
 * Where the module's files are, when the defaults do not fit (non-standard; see translator.d.ts's
 * TranslatorOptions). configure() throws a TypeError for another name, a URL that is no string or
 * URL, or workers that is no whole number from 1 to 16.
 */
export interface PolyfillConfig {
  manifestUrl?: string | URL;
  engineUrl?: string | URL;
  wasmUrl?: string | URL;
  workerUrl?: string | URL;
  workers?: number;
}

export declare function configure(options: PolyfillConfig): void;

/**
 * Sets globalThis.Translator and globalThis.LanguageDetector where the environment has none (or
 * always, with `force`: true or false, another value throws a TypeError); other options go to
 * configure(), which throws a TypeError for a bad one, before anything is set. Returns which of the
 * two it set.
 */
export declare function install(options?: PolyfillConfig & { force?: boolean }): { Translator: boolean; LanguageDetector: boolean };
