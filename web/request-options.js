/**
 * The checks of a request's options that the module's entry points share: translate(),
 * translateStreaming() and alternatives() (translator.js), and the requests made of batches of text,
 * translate(html, { html: true }) and translateElement() (html/translate-element.js), which check
 * theirs before the first batch: an HTML or an element without text makes no request that would.
 * A bad option rejects with a TranslatorError (code 'bad-request') naming the caller.
 */
import { ErrorCode, TranslatorError } from './protocol.js';
import { engineOptions } from './options.js';

/**
 * The options argument: an object (undefined or null: none) whose `signal`, if any, is an
 * AbortSignal. Anything else is a TranslatorError ('bad-request'), as a bad option value is, never
 * a TypeError from inside.
 */
export function requestOptions(options, where) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: options must be an object (got ${typeof options}).`);
  }
  const { signal } = options;
  if (signal !== undefined && signal !== null && !isAbortSignal(signal)) {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: signal must be an AbortSignal (AbortController's signal).`);
  }
  return options;
}

/** Whether `value` works as an AbortSignal (one of another realm's too: no instanceof). */
export const isAbortSignal = (value) => typeof value === 'object' && typeof value.addEventListener === 'function'
  && typeof value.removeEventListener === 'function' && typeof value.aborted === 'boolean';

/** translate()'s `chunkChars` (absent or a number, 1 or more) and `onProgress` (absent or a function). */
export function checkOwnOptions({ chunkChars, onProgress }, where) {
  // (planChunks would read -5 as 2-character chunks, a string or NaN as the default)
  if (chunkChars !== undefined && (typeof chunkChars !== 'number' || !(chunkChars >= 1))) {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: chunkChars must be a number of characters, 1 or more (got ${shown(chunkChars)}).`);
  }
  if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function') {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: onProgress must be a function (got ${typeof onProgress}).`);
  }
}

/** A true-or-false option (undefined or null: not given), which 'false' or 1 would turn on. */
export function checkFlag(options, name, where) {
  const value = options[name];
  if (value !== undefined && value !== null && typeof value !== 'boolean') {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: ${name} must be true or false (got ${shown(value)}).`);
  }
}

/**
 * The options of a request made of batches: the decoding ones, translate()'s own, `batchChars`
 * (the characters of text each engine request takes, html/segment.js; a number from 1) and the
 * caller's other names; `own` lists the names that are no decoding option, as the message of an
 * unknown name lists them. Returns the options (undefined or null: {}).
 * @param {unknown} options
 * @param {string} where the caller, named in the messages
 * @param {string[]} own
 */
export function checkBatchOptions(options, where, own) {
  options = requestOptions(options, where);
  checkOwnOptions(options, where);
  const { batchChars } = options;
  // (-5, a string, NaN or null would mean a request per run of text)
  if (batchChars !== undefined && (typeof batchChars !== 'number' || !(batchChars >= 1))) {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: batchChars must be a number of characters, 1 or more (got ${shown(batchChars)}).`);
  }
  const decoding = Object.fromEntries(Object.entries(options).filter(([name]) => !own.includes(name)));
  engineOptions(decoding, where, {}, own, ['alternatives']);
  return options;
}

const shown = (value) => (typeof value === 'number' ? String(value) : JSON.stringify(value) ?? typeof value);
