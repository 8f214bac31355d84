/**
 * Confidence: which output words the model is unsure of, and what it makes of a whole sentence,
 * read from the module's Sentence.targetWordConfidence (a word's probability under the model: the
 * product of its tokens') and Sentence.tokenProbs (engine/README.md, "Confidence"). The
 * thresholds come from the dev sets (weights/recipe/calibrate_confidence.py: 500 flores-dev + 500
 * tatoeba-dev lines per direction, beam 4, the shipped models: round 23 en→de, round 24 de→en):
 * below UNSURE_BELOW fall 12% of the words en→de and 8% de→en, and those are absent from the
 * reference translation 2.3x / 2.8x as often as the others. Recalibrate when the models change:
 * round 23 is more confident than round 22, for which 0.15 flagged 13% / 10% but only 9% / 6% of
 * round 23's words. Punctuation is never marked. Nothing here touches the DOM.
 */

/** A word whose confidence is below this is marked (dotted underline). */
export const UNSURE_BELOW = 0.2;

/** A sentence's geometric-mean token probability: at least SURE_FROM (with no word marked) reads
 * "sure" (about the dev sets' top quarter: 0.753 / 0.772 is their 75th percentile), below
 * UNSURE_UNDER "unsure" (their bottom quarter: 0.617 / 0.641), "fairly sure" between. */
export const SURE_FROM = 0.76;
export const UNSURE_UNDER = 0.625;

/**
 * A translation this much shorter than its sentence (in characters) may have left part of it out:
 * below the 1st percentile of the dev references' own ratio (0.72 en→de, 0.58 de→en; 500
 * flores-dev + 500 tatoeba-dev lines each). On those lines 0.7% / 1.5% of the translations fall
 * below it, with chrF 26 / 39 against 55 / 58 for the rest ("Am 7. Oktober löste sich beim Start ein
 * Triebwerk, es wurde allerdings niemand verletzt." → "On October 7th, no one was injured.").
 * Sentences under 20 characters are never flagged: their lengths vary too much.
 */
export const SHORT_BELOW = Object.freeze({ 'en-de': 0.7, 'de-en': 0.58 });
const SHORT_MIN_SOURCE = 20;

/** Whether `sentence`'s translation (direction `dir`, e.g. 'de-en') is short enough to have lost part of it. */
export function mayBeIncomplete(sentence, dir) {
  const limit = SHORT_BELOW[dir];
  if (!limit || !sentence || typeof sentence.source !== 'string' || typeof sentence.target !== 'string') return false;
  const source = sentence.source.trim().length;
  return source >= SHORT_MIN_SOURCE && sentence.target.trim().length < limit * source;
}

const WORDLIKE = /[\p{L}\p{N}]/u;

/** Indices of the target words to mark: words (not punctuation) the model is unsure of. */
export function unsureWords(sentence) {
  const out = new Set();
  const conf = sentence && sentence.targetWordConfidence;
  if (!conf || !sentence.targetWords) return out;
  sentence.targetWords.forEach(([b, e], j) => {
    if (conf[j] < UNSURE_BELOW && WORDLIKE.test(sentence.target.slice(b, e))) out.add(j);
  });
  return out;
}

/**
 * The sentence's confidence: `mean` the geometric mean of its token probabilities, `level`
 * 'sure' | 'fairly' | 'unsure', `unsure` how many words are marked, `short` whether the translation
 * may have left part of the sentence out (mayBeIncomplete, with the direction `dir`: then the level
 * is 'unsure' whatever the model thinks), and `text` in plain words; null without token probabilities.
 * A sentence the engine copied (only digits, punctuation, symbols or emoji) says so instead, as does
 * one from the translation memory (a human translation).
 */
export function sentenceConfidence(sentence, dir) {
  const probs = sentence && sentence.tokenProbs;
  if (!probs || !probs.length) return null;
  if (sentence.copied) return { mean: 1, level: 'sure', unsure: 0, short: false, text: 'Nothing here the model can translate: copied as it is.' };
  if (sentence.memory) return { mean: 1, level: 'sure', unsure: 0, short: false, text: 'A human translation of this sentence, from the translation memory.' };
  const mean = Math.exp(probs.reduce((a, p) => a + Math.log(Math.max(p, 1e-4)), 0) / probs.length);
  const unsure = unsureWords(sentence).size;
  const short = mayBeIncomplete(sentence, dir);
  const level = mean >= SURE_FROM && unsure === 0 && !short ? 'sure' : mean < UNSURE_UNDER || short ? 'unsure' : 'fairly';
  const head = { sure: 'The model is sure of this translation', fairly: 'The model is fairly sure of this translation',
    unsure: 'The model is unsure of this translation: check it' }[level];
  const words = unsure ? `; it doubts ${unsure} word${unsure === 1 ? '' : 's'} (dotted underline)` : '';
  const missing = short ? '. It is much shorter than the original: part of the sentence may be missing' : '';
  return { mean, level, unsure, short, text: `${head}${words}${missing}.` };
}
