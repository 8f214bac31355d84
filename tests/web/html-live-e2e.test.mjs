/**
 * translateElement() on what a live page holds besides plain elements, in Debian's Chromium and
 * Firefox ESR (tests/web/_browsers.mjs) with the real engine, on the built site under its strict
 * Content-Security-Policy: a web component's open shadow root is translated with the light DOM
 * around it, what a user edits (contenteditable) is left alone, an iframe's title is translated,
 * and restore() puts the very same DOM back, shadow root included; and a page of everything pages
 * hold keeps every element node, changes only translated attributes, and is restored node for node.
 * (The string path: html.test.mjs.)
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSkip, requireEngine } from './_helpers.mjs';
import { browsers, launchBrowser, serveSite } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);

let server;
before(async () => {
  if (!skip) ({ server } = await serveSite('html-live'));
});
after(async () => {
  if (server) await server.close();
});

for (const name of browsers()) describe(name, () => {
  let browser;
  let page;
  before(async () => {
    if (skip) return;
    browser = await launchBrowser(name);
    const context = await browser.newContext();
    page = await context.newPage();
    await page.goto(`${server.url}article.html`);
    await page.evaluate(async () => {
      const { Translator, translateElement } = await import('./translator.js');
      window.dom = { translateElement, t: await Translator.create({ from: 'en', to: 'de', manifestUrl: new URL('./models/manifest.json', document.baseURI), workers: 1 }) };
    });
  });
  after(async () => {
    if (page) await page.evaluate(() => window.dom.t.dispose()).catch(() => {});
    if (browser) await browser.close();
  });

  test('an open shadow root is translated, an editing host is not, an iframe\'s title is; restored exactly', { skip, timeout: 180000 }, async () => {
    const r = await page.evaluate(async () => {
      const { translateElement, t } = window.dom;
      const host = document.createElement('div');
      const card = host.appendChild(document.createElement('div'));
      const shadow = card.attachShadow({ mode: 'open' });
      const inner = shadow.appendChild(document.createElement('p'));
      inner.append('The house is small.');
      shadow.appendChild(document.createElement('slot'));
      card.append('The dog sleeps.');
      const editor = host.appendChild(document.createElement('div'));
      editor.contentEditable = 'true';
      editor.append('My draft is here.');
      const frame = host.appendChild(document.createElement('iframe'));
      frame.title = 'The old man';
      document.getElementById('article').after(host);
      const state = () => ({ html: host.innerHTML, shadow: shadow.innerHTML });
      const before = state();
      const done = await translateElement(host, { translator: t, beam: 1 });
      const translated = { inner: inner.textContent, light: card.textContent, editor: editor.textContent, title: frame.title, same: inner.parentNode === shadow };
      done.restore();
      const restored = state();
      host.remove();
      const alone = {};
      for (const text of ['The house is small.', 'The dog sleeps.', 'The old man']) alone[text] = (await t.translate(text, { beam: 1 })).text;
      return { before, translated, restored, alone };
    });
    assert.equal(r.translated.inner, r.alone['The house is small.'], 'the shadow root\'s text is translated');
    assert.ok(r.translated.same, 'in its own element');
    assert.equal(r.translated.light, r.alone['The dog sleeps.'], 'the light DOM too');
    assert.equal(r.translated.editor, 'My draft is here.', 'what the user edits is left as it is');
    assert.equal(r.translated.title, r.alone['The old man'], 'the iframe\'s title is translated');
    assert.deepEqual(r.restored, r.before, 'restored exactly');
  });
});

for (const name of browsers()) describe(`${name}: what the CSS hides`, () => {
  let browser;
  let page;
  before(async () => {
    if (skip) return;
    browser = await launchBrowser(name);
    page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}article.html`);
    await page.evaluate(async () => {
      const { Translator, translateElement } = await import('./translator.js');
      window.dom = { translateElement, t: await Translator.create({ from: 'en', to: 'de', manifestUrl: new URL('./models/manifest.json', document.baseURI), workers: 1 }) };
    });
  });
  after(async () => {
    if (page) await page.evaluate(() => window.dom.t.dispose()).catch(() => {});
    if (browser) await browser.close();
  });

  test('an inline element the CSS does not show (display none) is read apart, not run into the sentence it stands in; restored exactly', { skip, timeout: 180000 }, async () => {
    const r = await page.evaluate(async () => {
      const { translateElement, t } = window.dom;
      const p = document.createElement('p');
      const short = document.createElement('span');
      short.append('Mon');
      const long = document.createElement('span');
      long.style.display = 'none'; // (CSSOM: allowed under the CSP)
      long.append('Monday');
      p.append('The shop is open on ', short, long, ' until noon.');
      document.getElementById('article').after(p);
      const before = p.innerHTML;
      const sent = [];
      const translator = { from: t.from, to: t.to, translate: (text, options) => { sent.push(text); return t.translate(text, options); } };
      const done = await translateElement(p, { translator, beam: 1 });
      const hidden = long.textContent;
      done.restore();
      const restored = p.innerHTML;
      p.remove();
      return { sent, hidden, alone: (await t.translate('Monday', { beam: 1 })).text, before, restored };
    });
    assert.ok(r.sent.every((text) => !text.includes('MonMonday')), `never read as one word: ${JSON.stringify(r.sent)}`);
    assert.equal(r.hidden, r.alone, 'the hidden text is translated on its own');
    assert.equal(r.restored, r.before, 'restored exactly');
  });
});

// A page of what pages hold: tables of short labels, nested lists, references, SVG and MathML,
// lang and dir, hidden parts, comments, line breaks, a form, deep nesting and a web component.
const KITCHEN_SINK = `
<h2 title="The heading">Opening <em>hours</em> &amp; prices</h2>
<table><caption>Our prices</caption><tr><th>Item</th><th>Price</th></tr><tr><td>Red apple</td><td>2&nbsp;€</td></tr>
<tr><td colspan="2"><a href="#more">More prices</a> are <b>below</b>.</td></tr></table>
<ul><li>Fruit<ul><li>Green apples</li><li>Sweet pears<ol><li>The small ones</li></ol></li></ul></li><li>Fresh vegetables</li></ul>
<p>Tom &amp; Jerry &mdash; the &laquo;best&raquo; show&hellip; ever&#33; <!-- a note --> Call<br>us today.</p>
<p>The circle <svg width="10" height="10" aria-label="A red circle"><title>A red circle</title><circle r="4"></circle></svg> is red,
and <math><mi>x</mi><mo>+</mo><mn>1</mn></math> is a sum.</p>
<p lang="fr" dir="ltr">Le chat dort.</p><p dir="rtl">The old man reads.</p>
<p hidden>The hidden text is here.</p><details><summary>Show more</summary><p>The long answer is here.</p></details>
<form><label>Your name <input name="n" placeholder="First and last name"></label>
<select name="s"><option>The red one</option><option value="g">The green one</option></select>
<button type="button" title="Send the form">Send it</button></form>
<p><img src="data:," alt="A small dog"> The dog sleeps under the <abbr title="Table">table</abbr>.</p>
<p>Write to <script type="application/ld+json">{"name": "The shop"}</script>us today, <style title="Dark">b {}</style>please.</p>
<div><div><div><div><div><span><b><i>The deep words are here.</i></b></span></div></div></div></div></div>`;

for (const name of browsers()) describe(`${name}: a page of everything`, () => {
  let browser;
  let page;
  before(async () => {
    if (skip) return;
    browser = await launchBrowser(name);
    page = await (await browser.newContext()).newPage();
    await page.goto(`${server.url}article.html`);
    await page.evaluate(async () => {
      const { Translator, translateElement } = await import('./translator.js');
      window.dom = { translateElement, t: await Translator.create({ from: 'en', to: 'de', manifestUrl: new URL('./models/manifest.json', document.baseURI), workers: 1 }) };
    });
  });
  after(async () => {
    if (page) await page.evaluate(() => window.dom.t.dispose()).catch(() => {});
    if (browser) await browser.close();
  });

  test('every element stays (the same nodes), attributes change only where translated, every text is translated, restore() exact', { skip, timeout: 240000 }, async () => {
    const r = await page.evaluate(async (sink) => {
      const { translateElement, t } = window.dom;
      const host = document.createElement('div');
      const tpl = document.createElement('template');
      tpl.innerHTML = sink; // (the test's own markup)
      host.append(tpl.content);
      const card = host.appendChild(document.createElement('div'));
      card.attachShadow({ mode: 'open' }).innerHTML = '<p>The card text is <b>short</b>.</p>';
      document.getElementById('article').after(host);
      const all = (root) => [...root.querySelectorAll('*'), ...[...root.querySelectorAll('*')].filter((e) => e.shadowRoot).flatMap((e) => [...e.shadowRoot.querySelectorAll('*')])];
      const attrs = (el) => Object.fromEntries([...el.attributes].map((x) => [x.name, x.value]));
      const elements = all(host);
      const before = { html: host.innerHTML, shadow: card.shadowRoot.innerHTML, attrs: elements.map(attrs) };
      const texts = [...host.querySelectorAll('td, th, li, p, h2, summary, caption, option, button, label')].map((e) => e.textContent);
      const done = await translateElement(host, { translator: t, beam: 1 });
      const after = all(host);
      const changed = [];
      elements.forEach((el, i) => {
        const now = attrs(el);
        for (const k of new Set([...Object.keys(now), ...Object.keys(before.attrs[i])])) {
          if (now[k] !== before.attrs[i][k]) changed.push(`${el.localName}.${k}`);
        }
      });
      const translatedTexts = [...host.querySelectorAll('td, th, li, p, h2, summary, caption, option, button, label')].map((e) => e.textContent);
      const result = {
        missing: elements.filter((el) => !after.includes(el)).map((el) => el.localName),
        extra: after.filter((el) => !elements.includes(el)).map((el) => el.localName),
        changed: [...new Set(changed)].sort(),
        unchanged: texts.filter((x, i) => /[a-z]{3}/.test(x) && x === translatedTexts[i] && !/Le chat/.test(x)),
        shadow: card.shadowRoot.textContent,
        french: host.querySelector('[lang=fr]').textContent,
        svgTitle: host.querySelector('svg title').textContent,
      };
      done.restore();
      result.restored = host.innerHTML === before.html && card.shadowRoot.innerHTML === before.shadow
        && all(host).length === elements.length && all(host).every((el, i) => el === elements[i] && JSON.stringify(attrs(el)) === JSON.stringify(before.attrs[i]));
      host.remove();
      return result;
    }, KITCHEN_SINK);
    assert.deepEqual(r.missing, [], 'no element lost');
    const translatable = ['abbr.title', 'button.title', 'div.lang', 'h2.title', 'img.alt', 'input.placeholder', 'option.value', 'svg.aria-label'];
    assert.deepEqual(r.changed.filter((x) => !translatable.includes(x)), [], `only translated attributes change: ${r.changed}`);
    assert.deepEqual(r.unchanged, [], 'every text translated');
    assert.notEqual(r.shadow, 'The card text is short.');
    assert.equal(r.french, 'Le chat dort.', 'the French part kept');
    assert.notEqual(r.svgTitle, 'A red circle', 'the SVG\'s title is translated');
    assert.ok(r.restored, 'restored exactly: the same nodes, attributes and markup');
  });
});
