/**
 * The page's confidence rules (web/app/confidence.js): which words get marked, and how a sentence's
 * confidence is put in words. No engine needed.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { unsureWords, sentenceConfidence, mayBeIncomplete, SHORT_BELOW, UNSURE_BELOW, SURE_FROM, UNSURE_UNDER } from '../../web/app/confidence.js';

const sentence = (target, targetWordConfidence, tokenProbs) => {
  const targetWords = [...target.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)].map((m) => [m.index, m.index + m[0].length]);
  return { target, targetWords, targetWordConfidence, tokenProbs };
};

test('unsureWords: words below the threshold, never punctuation, nothing without confidences', () => {
  assert.ok(UNSURE_BELOW > 0 && UNSURE_BELOW < SURE_FROM && UNSURE_UNDER < SURE_FROM);
  const s = sentence('Der Zorblax quibelte , mit .', [0.9, 0.5, 0.05, 0.01, 0.8, 0.02], [0.9]);
  assert.deepEqual([...unsureWords(s)], [2]);
  assert.equal(unsureWords(sentence('Hallo .', undefined, [0.9])).size, 0);
  assert.equal(unsureWords(null).size, 0);
});

test('sentenceConfidence: geometric mean of the token probabilities, in plain words', () => {
  const sure = sentenceConfidence(sentence('Das Haus ist klein .', [0.87, 0.93, 0.8, 0.89, 0.93], [0.87, 0.93, 0.8, 0.89, 0.93, 0.94]));
  assert.equal(sure.level, 'sure');
  assert.equal(sure.text, 'The model is sure of this translation.');
  const doubts = sentenceConfidence(sentence('Der Zorblax quibelte .', [0.7, 0.6, 0.05, 0.8], [0.95, 0.95, 0.95, 0.9, 0.9, 0.95, 0.95]));
  assert.ok(doubts.mean >= SURE_FROM);  // sure on average, but one word is doubted
  assert.equal(doubts.unsure, 1);
  assert.equal(doubts.level, 'fairly', 'a doubted word is never "sure"');
  assert.match(doubts.text, /fairly sure of this translation; it doubts 1 word \(dotted underline\)\.$/);
  const low = sentenceConfidence(sentence('x y', [0.3, 0.3], [0.3, 0.4, 0.5]));
  assert.equal(low.level, 'unsure');
  assert.ok(Math.abs(low.mean - Math.cbrt(0.3 * 0.4 * 0.5)) < 1e-9);
  assert.match(low.text, /unsure of this translation: check it\.$/);
  assert.equal(sentenceConfidence(sentence('x', [0.5], [])), null);
  // a sentence the engine copied ("* * *") is not the model's: it says so
  const copied = sentenceConfidence({ ...sentence('* * *', [1, 1, 1], [1, 1, 1, 1]), copied: true });
  assert.equal(copied.level, 'sure');
  assert.equal(copied.text, 'Nothing here the model can translate: copied as it is.');
  // so is one from the translation memory (a human translation)
  const remembered = sentenceConfidence({ ...sentence('Goodbye!', [1, 1, 1], [1, 1, 1, 1]), memory: true });
  assert.equal(remembered.level, 'sure');
  assert.match(remembered.text, /translation memory/);
});

test('mayBeIncomplete: a translation far shorter than its sentence says part of it may be missing', () => {
  const probs = [0.9, 0.95, 0.9, 0.92, 0.95, 0.9, 0.93, 0.95];
  // the QA pass's case: a clause and its subject left out, with the model sure of what it wrote
  const dropped = { ...sentence('On October 7th, no one was injured.', probs.map(() => 0.9), probs),
    source: 'Am 7. Oktober löste sich beim Start ein Triebwerk, es wurde allerdings niemand verletzt.' };
  assert.equal(mayBeIncomplete(dropped, 'de-en'), true);
  const c = sentenceConfidence(dropped, 'de-en');
  assert.equal(c.short, true);
  assert.equal(c.level, 'unsure', 'never "sure" when part may be missing');
  assert.match(c.text, /much shorter than the original: part of the sentence may be missing\.$/);
  // a whole translation, the same sentence without a direction, short sentences, other directions
  const whole = { ...dropped, target: 'On 7 October an engine came loose at take-off, but nobody was hurt.' };
  assert.equal(mayBeIncomplete(whole, 'de-en'), false);
  assert.equal(sentenceConfidence(whole, 'de-en').short, false);
  assert.equal(sentenceConfidence(dropped).short, false, 'no direction, no length rule');
  assert.equal(mayBeIncomplete({ source: 'Guten Morgen, Herr X!', target: 'Hi.' }, 'de-en'), true);
  assert.equal(mayBeIncomplete({ source: 'Danke schön!', target: 'Ok.' }, 'de-en'), false, 'under 20 characters');
  assert.equal(mayBeIncomplete({ source: 'x'.repeat(40), target: 'y' }, 'fr-en'), false);
  assert.ok(SHORT_BELOW['en-de'] > SHORT_BELOW['de-en'], 'German runs longer than English');
});
