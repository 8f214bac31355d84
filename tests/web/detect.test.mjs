// detectLanguage (web/detect.js, exported by the module): English vs German from character
// trigrams, other Latin-script languages by their function words (web/other-languages.js), no model needed. Measured on the dev sets copied into tests/fixtures/dev (the trigram
// tables were counted on the training corpus, not on these).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectLanguage } from '../../web/translator.js';
import { OTHER_LANGUAGES } from '../../web/other-languages.js';

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
    'שלום, מה שלומך היום?', 'Chrząszcz brzmi w trzcinie, Szczebrzeszyn słynie.']) {
    const r = detectLanguage(text);
    assert.equal(r.language, 'und', `${JSON.stringify(text)} -> ${r.language}`);
    assert.equal(r.confidence, 0.5);
  }
});

test('mixed input: the language of most of the text wins; odd input never throws', () => {
  assert.equal(detectLanguage('Das ist ein langer deutscher Satz über das Wetter in Berlin, with a few English words.').language, 'de');
  for (const odd of ['\u0000\uD800x', '🙂'.repeat(100), 'a'.repeat(100000), '<b onclick="x">Hallo Welt</b>', null, 42]) {
    const r = detectLanguage(odd);
    assert.ok(['en', 'de', 'und', ...OTHER_LANGUAGES].includes(r.language));
    assert.ok(r.confidence >= 0.5 && r.confidence <= 1);
  }
  // What is no string is no text: 'und', not the letters of "null" or "undefined" read as English.
  for (const notText of [null, undefined, 42, {}, ['Das ist ein langer deutscher Satz über das Wetter.']]) {
    assert.equal(detectLanguage(notText).language, 'und', String(notText));
    assert.equal(detectLanguage(notText).confidence, 0.5);
  }
});

test('an English or German sentence quoting a Hebrew or Arabic phrase is that language; another script with a Latin-script name stays undetermined', () => {
  for (const [text, lang] of [
    ['She wrote السلام عليكم ورحمة الله وبركاته in her letter.', 'en'],
    ['The Hebrew greeting שלום עליכם שלום עולם מה שלומך means peace be upon you.', 'en'],
    ['He said שלום עולם, מה שלומך היום to everyone in the room.', 'en'],
    ['Sie hat „مرحبا بكم في بيتنا الجميل“ an die Tür geschrieben.', 'de'],
  ]) {
    const r = detectLanguage(text);
    assert.equal(r.language, lang, `${text} -> ${JSON.stringify(r)}`);
    assert.ok(r.confidence > 0.9, `${text}: ${r.confidence}`);
  }
  for (const text of ['Я купил новый iPhone вчера в магазине.', 'הוא אמר "good morning" לכולם בחדר הגדול היום ובערב',
    'שלום עולם, מה שלומך היום? הבית קטן והגינה גדולה מאוד.']) {
    assert.equal(detectLanguage(text).language, 'und', text);
  }
});

// Everyday sentences written for this test (the same four things said in each language); the lists
// of function words were not made from them. Measured on other text too: weights/EXPERIMENTS.md.
const OTHER = {
  fr: ['Le chat dort sur le canapé pendant que nous préparons le dîner.', 'Je ne sais pas si elle viendra demain avec ses amis.',
    'Les enfants jouent dans le jardin depuis ce matin.', 'Nous avons visité le musée et il était très intéressant.'],
  es: ['El perro duerme en el sofá mientras preparamos la cena.', 'No sé si ella vendrá mañana con sus amigos.',
    'Los niños juegan en el jardín desde esta mañana.', 'Visitamos el museo y fue muy interesante.'],
  it: ['Il gatto dorme sul divano mentre prepariamo la cena.', 'Non so se lei verrà domani con i suoi amici.',
    'I bambini giocano nel giardino da questa mattina.', 'Abbiamo visitato il museo ed era molto interessante.'],
  pt: ['O gato dorme no sofá enquanto preparamos o jantar.', 'Não sei se ela virá amanhã com os seus amigos.',
    'As crianças brincam no jardim desde esta manhã.', 'Visitámos o museu e foi muito interessante.'],
  nl: ['De kat slaapt op de bank terwijl wij het eten maken.', 'Ik weet niet of zij morgen met haar vrienden komt.',
    'De kinderen spelen sinds vanochtend in de tuin.', 'We hebben het museum bezocht en het was heel interessant.'],
  sv: ['Katten sover på soffan medan vi lagar middag.', 'Jag vet inte om hon kommer i morgon med sina vänner.',
    'Barnen har lekt i trädgården sedan i morse.', 'Vi besökte museet och det var mycket intressant.'],
  da: ['Katten sover på sofaen, mens vi laver aftensmad.', 'Jeg ved ikke, om hun kommer i morgen med sine venner.',
    'Børnene har leget i haven siden i morges.', 'Vi besøgte museet, og det var meget interessant.'],
  pl: ['Kot śpi na kanapie, a my przygotowujemy kolację.', 'Nie wiem, czy ona przyjdzie jutro ze swoimi przyjaciółmi.',
    'Dzieci bawią się w ogrodzie od samego rana.', 'Odwiedziliśmy muzeum i było bardzo ciekawe.'],
  cs: ['Kočka spí na gauči, zatímco vaříme večeři.', 'Nevím, jestli zítra přijde se svými přáteli.',
    'Děti si hrají na zahradě už od rána.', 'Navštívili jsme muzeum a bylo to velmi zajímavé.'],
  ro: ['Pisica doarme pe canapea în timp ce pregătim cina.', 'Nu știu dacă ea va veni mâine cu prietenii ei.',
    'Copiii se joacă în grădină de azi dimineață.', 'Am vizitat muzeul și a fost foarte interesant.'],
  tr: ['Kedi biz akşam yemeğini hazırlarken kanepede uyuyor.', 'Yarın arkadaşlarıyla gelip gelmeyeceğini bilmiyorum.',
    'Çocuklar bu sabahtan beri bahçede oynuyor.', 'Müzeyi ziyaret ettik ve çok ilginçti.'],
  id: ['Kucing itu tidur di sofa sementara kami menyiapkan makan malam.', 'Saya tidak tahu apakah dia akan datang besok dengan teman-temannya.',
    'Anak-anak bermain di taman sejak pagi ini.', 'Kami mengunjungi museum itu dan sangat menarik.'],
  hu: ['A macska a kanapén alszik, amíg mi a vacsorát készítjük.', 'Nem tudom, hogy holnap eljön-e a barátaival.',
    'A gyerekek reggel óta a kertben játszanak.', 'Meglátogattuk a múzeumot, és nagyon érdekes volt.'],
};

test('other languages: named by their function words (or undetermined), seldom taken for English or German', () => {
  let named = 0; let homeLanguage = 0; let total = 0;
  for (const [lang, sentences] of Object.entries(OTHER)) {
    const got = sentences.map((s) => detectLanguage(s));
    console.log(`${lang}: ${got.map((r) => `${r.language} ${r.confidence.toFixed(2)}`).join(', ')}`);
    for (const r of got) {
      assert.ok(r.confidence >= 0.5 && r.confidence <= 1);
      named += r.language === lang;
      homeLanguage += r.language === 'en' || r.language === 'de';
      total += 1;
    }
  }
  console.log(`other languages: ${named}/${total} named, ${homeLanguage}/${total} taken for English or German`);
  assert.ok(named >= 0.6 * total, `${named}/${total} named`);
  assert.ok(homeLanguage <= 0.15 * total, `${homeLanguage}/${total} taken for English or German`);
  // Longer text names its language surely: two of each language's sentences together.
  for (const [lang, sentences] of Object.entries(OTHER)) {
    if (['cs', 'tr'].includes(lang)) continue; // few short function words: mostly 'und'
    const r = detectLanguage(`${sentences[0]} ${sentences[1]} ${sentences[3]}`);
    assert.equal(r.language, lang, `${lang}: ${JSON.stringify(r)}`);
  }
});

test('English and German text is never named another language: the dev sets, a French title in German', () => {
  const others = devSentences().filter(([text]) => !['en', 'de', 'und'].includes(detectLanguage(text).language));
  console.log(`dev sentences named another language: ${others.length}`, others.slice(0, 5));
  assert.ok(others.length <= 2, `${others.length}: ${JSON.stringify(others.slice(0, 5))}`);
  assert.equal(detectLanguage('Sie sang „Je ne regrette rien“ in Paris, und das Publikum war begeistert.').language, 'de');
  assert.equal(detectLanguage('The menu said "coq au vin" and "crème brûlée", which we both ordered.').language, 'en');
  assert.equal(detectLanguage('I want to do it, and I will do it today.').language, 'en');
});

test('speed: prints the time per sentence (no model, no worker)', () => {
  const sentences = devSentences().slice(0, 10000).map(([t]) => t);
  const t0 = performance.now();
  for (const s of sentences) detectLanguage(s);
  const ms = performance.now() - t0;
  console.log(`detectLanguage: ${(ms / sentences.length * 1000).toFixed(1)} µs per sentence`);
});
