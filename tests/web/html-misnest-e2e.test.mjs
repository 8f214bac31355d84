/**
 * translate(html, { html: true })'s own tree builder against the browser's parser, in Debian's
 * Chromium and Firefox ESR (tests/web/_browsers.mjs): misnested and unclosed tags ("<b>one <i>two</b>
 * three</i>", "<p><b>x</p><p>y", stray end tags) go through the string path with a stand-in
 * translator that keeps every word, and the browser parses the input and the output: the same
 * text, every word inside the same elements, the same elements by name (but the empty <p> a
 * browser makes of a stray </p>, which the string path drops). Not in the soup: a table's parts,
 * which the string path reads as a table's wherever they stand (a fragment may be a table's rows)
 * and a browser parsing a page's body drops outside a table. (No engine is needed.)
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { browsers, launchBrowser } from './_browsers.mjs';
import { translateHtml } from '../../web/html/translate-html.js';
import { fakeTranslator } from './html-fake.mjs';

/** Tag soup of words (each followed by a space), start and end tags in any order. */
function soups(count, seed) {
  let state = seed;
  const rand = (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const words = ['one', 'two', 'three', 'four', 'five', 'six.'];
  const tags = ['b', 'i', 'a', 'p', 'span', 'em', 'div', 'li', 'ul', 'u', 'strong', 'h1', 'font', 'code', 'nobr', 'sup',
    's', 'small', 'label', 'blockquote', 'section', 'dl', 'dd', 'q'];
  const out = ['<p><b>one <i>two</b> three</i> four.</p>', '<p>Unclosed paragraph<p>Second one</span> here.</p>',
    '<b>one<p>two</b> three</p>', '<p><b>x</p>\n<p>y</p>', '<a href=1>one <a href=2>two</a> three</a>', '<i>a <div>b </i>c </div>d'];
  while (out.length < count) {
    let d = '';
    for (let k = 0; k < 14; k++) {
      const r = rand(3);
      if (r === 0) d += `${words[rand(words.length)]} `;
      else d += `<${r === 2 ? '/' : ''}${tags[rand(tags.length)]}>`;
    }
    out.push(d);
  }
  return out;
}

for (const name of browsers()) describe(name, () => {
  let browser;
  let page;
  before(async () => {
    browser = await launchBrowser(name);
    page = await (await browser.newContext()).newPage();
  });
  after(async () => {
    if (browser) await browser.close();
  });

  test('misnested tags: the browser reads the output as it reads the input (text, each word\'s elements, elements by name)', { timeout: 120000 }, async () => {
    const inputs = soups(300, 5);
    const outputs = [];
    for (const html of inputs) outputs.push((await translateHtml(fakeTranslator('same'), html)).text);
    const read = await page.evaluate(([a, b]) => {
      const parse = (html) => {
        const { body } = new DOMParser().parseFromString(html, 'text/html'); // (inert: nothing runs or loads)
        const words = [];
        const tags = {};
        const walker = document.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.nodeType === 1) {
            // (a stray </p>, which a browser reads as an empty <p>, the string path drops)
            if (!(n.localName === 'p' && !n.firstChild)) tags[n.localName] = (tags[n.localName] || 0) + 1;
            continue;
          }
          const around = [];
          for (let p = n.parentNode; p !== body; p = p.parentNode) around.push(p.localName);
          for (const word of n.data.split(/\s+/).filter(Boolean)) words.push(`${word} in ${around.sort().join(',')}`);
        }
        return { words, tags: Object.entries(tags).sort().map((e) => e.join(':')).join(' ') };
      };
      return a.map((html, i) => [parse(html), parse(b[i])]);
    }, [inputs, outputs]);
    read.forEach(([input, output], i) => {
      const where = `${JSON.stringify(inputs[i])} -> ${JSON.stringify(outputs[i])}`;
      assert.deepEqual(output.words, input.words, where);
      assert.equal(output.tags, input.tags, where);
    });
  });
});
