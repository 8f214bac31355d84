// The user's glossary through the JS module with the real WASM engine and the shipped models:
// plain text, and HTML (the term comes out inside the element that held its source words, the
// markup kept), both directions; the engine's own rules are in tests/engine/test_cli_glossary.py.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
const manifestUrl = skip ? '' : fileUrl(testManifest().file);

const CASES = {
  'en-de': { glossary: { 'notice period': 'Kündigungsfrist', 'Acme Cloud': 'Acme Cloud' },
             text: 'The notice period for Acme Cloud is three months.',
             html: '<p>The <b>notice period</b> for <i>Acme Cloud</i> is three months.</p>' },
  'de-en': { glossary: { Kündigungsfrist: 'notice period', 'Acme Cloud': 'Acme Cloud' },
             text: 'Die Kündigungsfrist für Acme Cloud beträgt drei Monate.',
             html: '<p>Die <b>Kündigungsfrist</b> für <i>Acme Cloud</i> beträgt drei Monate.</p>' },
};

for (const [pair, c] of Object.entries(CASES)) {
  test(`${pair}: glossary terms in plain text and in HTML, inside their elements`, { skip, timeout: 120000 }, async () => {
    const [from, to] = pair.split('-');
    const t = await Translator.create({ from, to, manifestUrl, workers: 1 });
    try {
      const plain = await t.translate(c.text, { glossary: c.glossary });
      for (const target of Object.values(c.glossary)) assert.ok(plain.text.includes(target), `${target} in ${plain.text}`);
      assert.ok(plain.sentences[0].passes.includes('glossary'));
      const html = await t.translate(c.html, { glossary: c.glossary, html: true });
      const [first, second] = Object.values(c.glossary);
      assert.match(html.text, new RegExp(`<b>[^<]*${first}[^<]*</b>`), html.text);
      assert.match(html.text, new RegExp(`<i>[^<]*${second}[^<]*</i>`), html.text);
      assert.match(html.text, /^<p>.*<\/p>$/s);
    } finally {
      t.dispose();
    }
  });
}

// A term is found however the text writes its spaces and apostrophes: HTML's &nbsp; between its
// words, a typographic apostrophe ("Acme&nbsp;Cloud" and "customer’s" were left to the model).
test('en-de: a term written with a no-break space or a typographic apostrophe is found, in HTML and plain text', { skip, timeout: 120000 }, async () => {
  const t = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  try {
    const glossary = { 'Acme Cloud': 'Zeta Sky', "customer's": 'Kundenkonto' };
    const html = await t.translate('<p>We use <b>Acme&nbsp;Cloud</b> every day.</p>', { glossary, html: true });
    assert.match(html.text, /<b>Zeta Sky<\/b>/, html.text);
    assert.doesNotMatch(html.text, /Acme/, html.text);
    const plain = await t.translate('Check the customer\u2019s data today.', { glossary });
    assert.equal(plain.text.split('Kundenkonto').length - 1, 1, plain.text);
  } finally {
    t.dispose();
  }
});
