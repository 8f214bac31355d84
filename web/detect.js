/**
 * Language detection for the translator's two languages, before any model is loaded: a naive-Bayes
 * vote of character trigrams, with English and German trigram log-probabilities counted on the
 * training corpus (langid-data.js, made by weights/recipe/make_langid.py, ~60 kB).
 *
 *   detectLanguage('Wo ist der Bahnhof?')  // { language: 'de', confidence: 0.99..., scores: {...} }
 *
 * `language` is 'en', 'de' or 'und' (undetermined: too little text, mostly other scripts, or text
 * that fits neither language's trigrams). Only the Latin-script words are weighed: an English
 * sentence quoting a Hebrew or Arabic phrase is English. It tells English from German; other languages in the
 * Latin script (French, Dutch) may come out as either, usually with a lower confidence. `confidence`
 * is the probability of the chosen language against the other one (0.5 for 'und').
 */
import data from './langid-data.js';
import { otherLanguage } from './other-languages.js';

export const DETECTABLE_LANGUAGES = Object.freeze(Object.keys(data.languages));

// A text whose trigrams score below this average log-probability (tenths of a nat per trigram)
// under both languages is neither (Polish, Czech, ...): English and German dev sentences of 20+
// characters average above -100 (the lowest of 9,700). Closer Latin-script languages (French,
// Spanish, Dutch) score like English or German and are not told apart: the detector only decides
// between the translator's two languages.
const MIN_AVERAGE = -105;
// Fewer trigrams than this ("ok", "ja") decide nothing.
const MIN_TRIGRAMS = 4;
// The trigram votes are not independent; dividing their sum keeps the confidence of short texts
// honest (calibrated on the dev sets: a 0.9 confidence is right about 9 times in 10 or more).
const TEMPERATURE = 25;
// A text with letters of another script is 'und' unless its Latin-script letters are a third of
// its letters, in two words or more (not "Я купил новый iPhone").
const MIN_LATIN_SHARE = 1 / 3;
const MIN_LATIN_WORDS = 2;

/** NFC, lower case, each run of non-letters one space, a space at both ends (as make_langid.py). */
export function normalizeForDetection(text) {
  const letters = String(text).normalize('NFC').toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();
  return letters ? ` ${letters} ` : '';
}

/**
 * @param {string} text
 * @returns {{language: 'en'|'de'|'und', confidence: number, scores: Record<string, number>}}
 *   scores: each language's average log-probability per trigram of the Latin-script words (nats),
 *   for callers that want to apply their own threshold.
 */
export function detectLanguage(text) {
  // Only a string is text: null, undefined or a number are 'und' (not the letters of "null").
  const norm = typeof text === 'string' ? normalizeForDetection(text) : '';
  // Only the Latin-script letters vote: a Hebrew or Arabic phrase quoted in an English sentence
  // would otherwise pull both languages' averages down to the floor.
  const latinText = norm.replace(/[^\p{Script=Latin} ]+/gu, ' ').replace(/ {2,}/g, ' ');
  const latinWords = latinText.trim().split(' ').filter(Boolean);
  const chars = [...(latinWords.length ? ` ${latinWords.join(' ')} ` : '')];
  const latin = chars.length - (latinWords.length + 1);
  const letters = [...norm].filter((c) => c !== ' ').length;
  const scores = {};
  const totals = {};
  const count = Math.max(0, chars.length - 2);
  for (const lang of DETECTABLE_LANGUAGES) {
    const { floor, trigrams } = data.languages[lang];
    let sum = 0;
    for (let i = 0; i + 3 <= chars.length; i += 1) {
      const g = chars[i] + chars[i + 1] + chars[i + 2];
      sum += trigrams[g] ?? floor;
    }
    totals[lang] = sum;
    scores[lang] = count ? sum / count / 10 : 0;
  }
  const und = { language: 'und', confidence: 0.5, scores };
  const otherScript = latin < letters;
  if (count < MIN_TRIGRAMS || (otherScript && (latin < letters * MIN_LATIN_SHARE || latinWords.length < MIN_LATIN_WORDS))) return und;
  const foreign = otherLanguage(latinWords);
  if (foreign) return { ...foreign, scores };
  const [best, other] = [...DETECTABLE_LANGUAGES].sort((a, b) => totals[b] - totals[a]);
  if (totals[best] / count < MIN_AVERAGE) return und;
  const margin = (totals[best] - totals[other]) / TEMPERATURE;
  return { language: best, confidence: 1 / (1 + Math.exp(-margin)), scores };
}
