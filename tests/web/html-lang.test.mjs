/**
 * translateElement() and lang attributes, in Node through a stand-in DOM of elements without text
 * (attributes are set in place, so no node is built) and the stand-in translator of html-fake.mjs:
 * an element whose lang names another language than the source keeps its attributes as written,
 * a translated one whose lang named the source says the target's, and restore() puts every lang
 * back. (The HTML string path: html.test.mjs.)
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateElement } from '../../web/html/translate-element.js';
import { fakeTranslator } from './html-fake.mjs';

function element(name, attributes, children = []) {
  const el = {
    nodeType: 1, localName: name, childNodes: children, textContent: '', ownerDocument: null, parentNode: null,
    getAttribute: (n) => attributes[n] ?? null,
    setAttribute: (n, v) => { attributes[n] = String(v); },
    removeAttribute: (n) => { delete attributes[n]; },
  };
  for (const c of children) c.parentNode = el;
  return el;
}

test('translateElement: a part in another language keeps its attributes; lang of the source becomes the target\'s; restore puts it back', async () => {
  const german = element('p', { lang: 'de', title: 'Ein Gruß' });
  const english = element('p', { lang: 'en-US', title: 'The dog' });
  const inside = element('p', { lang: 'en', title: 'A cat' });
  const quote = element('div', { lang: 'fr' }, [inside]);
  const root = element('div', { title: 'Some title' }, [german, english, quote]);
  const translator = Object.assign(fakeTranslator('reverse'), { from: 'en', to: 'de' });
  const done = await translateElement(root, { translator });
  assert.deepEqual([root, german, english, quote, inside].map((n) => [n.getAttribute('lang'), n.getAttribute('title')]),
    [[null, 'title Some'], ['de', 'Ein Gruß'], ['de', 'dog The'], ['fr', null], ['de', 'cat A']]);
  assert.ok(translator.calls.every((c) => !c.text.includes('Gruß')), 'the German title was not sent');
  done.restore();
  assert.deepEqual([root, german, english, quote, inside].map((n) => [n.getAttribute('lang'), n.getAttribute('title')]),
    [[null, 'Some title'], ['de', 'Ein Gruß'], ['en-US', 'The dog'], ['fr', null], ['en', 'A cat']]);
});
