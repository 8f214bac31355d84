/**
 * web/html/render-safe.js (the demo's HTML mode draws a translation with it) in Node, through a
 * stand-in Document that records the elements, attributes and text it is asked to build.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { renderSafe } from '../../web/html/render-safe.js';

function standInDocument() {
  const node = (nodeName) => ({
    nodeName, childNodes: [], attributes: {}, className: '', title: '',
    appendChild(c) { this.childNodes.push(c); return c; },
    setAttribute(n, v) { this.attributes[n] = v; },
    set textContent(v) { this.childNodes = [{ nodeName: '#text', data: v }]; },
  });
  return {
    createDocumentFragment: () => node('#fragment'),
    createTextNode: (data) => ({ nodeName: '#text', data }),
    createElement: node,
  };
}

/** The drawn tree as markup-like text: elements by name with their safe attributes, text as is. */
function drawn(n) {
  if (n.nodeName === '#text') return n.data;
  const inner = n.childNodes.map(drawn).join('');
  if (n.nodeName === '#fragment') return inner;
  const attrs = Object.entries(n.attributes).map(([k, v]) => ` ${k}="${v}"`).join('');
  return `<${n.nodeName}${attrs}>${inner}</${n.nodeName}>`;
}

test('a <ruby> is drawn with its base text and its annotations (rt, rp, rb, rtc)', () => {
  const html = '<p>Er hat <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rp>(</rp><rt>ji</rt><rp>)</rp></ruby> gelernt und '
    + '<ruby><rb>東</rb><rb>京</rb><rtc><rt>とう</rt><rt>きょう</rt></rtc></ruby> besucht.</p>';
  assert.equal(drawn(renderSafe(html, standInDocument())),
    '<p>Er hat <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rp>(</rp><rt>ji</rt><rp>)</rp></ruby> gelernt und '
    + '<ruby><rb>東</rb><rb>京</rb><rtc><rt>とう</rt><rt>きょう</rt></rtc></ruby> besucht.</p>');
});

test('what can load or run is still left out around a ruby', () => {
  const html = '<ruby onclick="x()" style="color:red" lang="ja">字<rt onmouseover="y()">ji<script>z()</script><img src="a.png" alt="A"></rt></ruby>';
  assert.equal(drawn(renderSafe(html, standInDocument())), '<ruby lang="ja">字<rt>ji<span>[image: A]</span></rt></ruby>');
});
