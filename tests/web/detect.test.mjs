// detectLanguage (web/detect.js, exported by the module): English vs German from character
// trigrams, no model needed. Measured on the dev sets copied into tests/fixtures/dev (the trigram
// tables were counted on the training corpus, not on these).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectLanguage } from '../../web/translator.js';

const DEV = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/dev');

function devSentences() {
  const out = [];
  for (const set of ['flores-dev', 'tatoeba-dev', 'multi30k-val', 'multi30k-test2016']) {
    for (const line of readFileSync(path.join(DEV, `${set}.en-de.tsv`), 'utf8').split('\n')) {
      const [en, de] = line.split('\t');
      if (de === undefined) continue;
      out.push([en, 'en'], [de, 'de']);
    }
  }
  return out;
}

test('at least 99% right on dev sentences of 20 or more characters, in both languages', () => {
  const long = devSentences().filter(([text]) => text.length >= 20);
  for (const lang of ['en', 'de']) {
    const mine = long.filter(([, l]) => l === lang);
    const right = mine.filter(([text]) => detectLanguage(text).language === lang).length;
    const accuracy = right / mine.length;
    console.log(`detectLanguage ${lang}: ${right}/${mine.length} = ${(100 * accuracy).toFixed(2)}%`);
    assert.ok(mine.length > 4000);
    assert.ok(accuracy >= 0.99, `${lang}: ${accuracy}`);
  }
});

test('confident where it is right: 99% of answers above 0.99 confidence are right', () => {
  const answers = devSentences().filter(([text]) => text.length >= 20).map(([text, lang]) => {
    const r = detectLanguage(text);
    return [r.confidence, r.language === lang];
  });
  const sure = answers.filter(([c]) => c >= 0.99);
  assert.ok(sure.length / answers.length > 0.95);
  assert.ok(sure.filter(([, right]) => right).length / sure.length >= 0.995);
});

test('short everyday phrases', () => {
  for (const [text, lang] of [['hello how are you', 'en'], ['wie geht es dir', 'de'], ['Where is the station?', 'en'],
    ['Wo ist der Bahnhof?', 'de'], ['Ich verstehe die Frage nicht.', 'de'], ['I don\'t understand the question.', 'en']]) {
    assert.equal(detectLanguage(text).language, lang, text);
  }
});

test('undetermined: empty, whitespace, too short, numbers, other scripts, unlike either language', () => {
  for (const text of ['', '   \n\t', 'ok', '12345 678', '!!! ???', '猫はソファで寝ています。', 'Кошка спит на диване, а погода хорошая.',
    'שלום, מה שלומך היום?', 'Kot śpi na kanapie, a dzisiaj jest ładna pogoda, chrząszcz brzmi w trzcinie.']) {
    const r = detectLanguage(text);
    assert.equal(r.language, 'und', `${JSON.stringify(text)} -> ${r.language}`);
    assert.equal(r.confidence, 0.5);
  }
});

test('mixed input: the language of most of the text wins; odd input never throws', () => {
  assert.equal(detectLanguage('Das ist ein langer deutscher Satz über das Wetter in Berlin, with a few English words.').language, 'de');
  for (const odd of ['\u0000\uD800x', '🙂'.repeat(100), 'a'.repeat(100000), '<b onclick="x">Hallo Welt</b>', null, 42]) {
    const r = detectLanguage(odd);
    assert.ok(['en', 'de', 'und'].includes(r.language));
    assert.ok(r.confidence >= 0.5 && r.confidence <= 1);
  }
  // What is no string is no text: 'und', not the letters of "null" or "undefined" read as English.
  for (const notText of [null, undefined, 42, {}, ['Das ist ein langer deutscher Satz über das Wetter.']]) {
    assert.equal(detectLanguage(notText).language, 'und', String(notText));
    assert.equal(detectLanguage(notText).confidence, 0.5);
  }
});

test('speed: prints the time per sentence (no model, no worker)', () => {
  const sentences = devSentences().slice(0, 10000).map(([t]) => t);
  const t0 = performance.now();
  for (const s of sentences) detectLanguage(s);
  const ms = performance.now() - t0;
  console.log(`detectLanguage: ${(ms / sentences.length * 1000).toFixed(1)} µs per sentence`);
});
