/**
 * Confidence: which output words the model is unsure of, and what it makes of a whole sentence,
 * read from the module's Sentence.targetWordConfidence (a word's probability under the model: the
 * product of its tokens') and Sentence.tokenProbs (engine/README.md, "Confidence"). The
 * thresholds come from the dev sets (weights/recipe/calibrate_confidence.py: 500 flores-dev + 500
 * tatoeba-dev lines per direction, beam 4, the round-23 models): below UNSURE_BELOW fall 12% of
 * the words en→de and 9% de→en, and those are absent from the reference translation 2.3x / 2.7x as
 * often as the others. Recalibrate when the models change: round 23 is more confident than round
 * 22, for which 0.15 flagged 13% / 10% but only 9% / 6% of round 23's words. Punctuation is never
 * marked. Nothing here touches the DOM.
 */

/** A word whose confidence is below this is marked (dotted underline). */
export const UNSURE_BELOW = 0.2;

/** A sentence's geometric-mean token probability: at least SURE_FROM (with no word marked) reads
 * "sure" (about the dev sets' top quarter: 0.753 / 0.767 is their 75th percentile), below
 * UNSURE_UNDER "unsure" (their bottom quarter: 0.617 / 0.636), "fairly sure" between. */
export const SURE_FROM = 0.76;
export const UNSURE_UNDER = 0.625;

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
 * 'sure' | 'fairly' | 'unsure', `unsure` how many words are marked, and `text` in plain words;
 * null without token probabilities.
 */
export function sentenceConfidence(sentence) {
  const probs = sentence && sentence.tokenProbs;
  if (!probs || !probs.length) return null;
  const mean = Math.exp(probs.reduce((a, p) => a + Math.log(Math.max(p, 1e-4)), 0) / probs.length);
  const unsure = unsureWords(sentence).size;
  const level = mean >= SURE_FROM && unsure === 0 ? 'sure' : mean < UNSURE_UNDER ? 'unsure' : 'fairly';
  const head = { sure: 'The model is sure of this translation', fairly: 'The model is fairly sure of this translation',
    unsure: 'The model is unsure of this translation: check it' }[level];
  const words = unsure ? `; it doubts ${unsure} word${unsure === 1 ? '' : 's'} (dotted underline)` : '';
  return { mean, level, unsure, text: `${head}${words}.` };
}
