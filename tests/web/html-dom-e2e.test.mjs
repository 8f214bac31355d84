/**
 * translateElement() on what a live page's CSS and attributes say, in Debian's Chromium and
 * Firefox ESR (tests/web/_browsers.mjs) with the real engine, on the built site under its strict
 * Content-Security-Policy: an element whose CSS shows its line breaks (white-space pre-wrap,
 * pre-line: a chat message, a poem) keeps them in the translation, one that does not reads as one
 * line; inline elements the CSS lays out as blocks (a card's title and text) are read apart; the element translated says the target language (lang) while it is; a form sends the same
 * values (an <option> without a value keeps its source text as its value); restore() puts the very
 * same DOM back. (The string path and the stand-in DOM: html.test.mjs, html-lang.test.mjs.)
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSkip, requireEngine } from './_helpers.mjs';
import { browsers, launchBrowser, serveSite } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);

let server;
before(async () => {
  if (!skip) ({ server } = await serveSite('html-dom'));
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

  test('line breaks the CSS shows stay in the translation; elsewhere they are spaces; lang says the target; restored exactly', { skip, timeout: 180000 }, async () => {
    const r = await page.evaluate(async () => {
      const { translateElement, t } = window.dom;
      const source = 'The house\nis small.  The dog\n\nsleeps.';
      const out = {};
      for (const whiteSpace of ['pre-wrap', 'pre-line', 'normal']) {
        const host = document.createElement('div');
        host.style.whiteSpace = whiteSpace; // (CSSOM: allowed under the CSP, a style attribute is not)
        host.append(source);
        document.getElementById('article').after(host);
        const before = { html: host.innerHTML, lang: host.getAttribute('lang') };
        const done = await translateElement(host, { translator: t, beam: 1 });
        const translated = { text: host.textContent, lang: host.getAttribute('lang') };
        done.restore();
        out[whiteSpace] = { before, translated, restored: { html: host.innerHTML, lang: host.getAttribute('lang') } };
        host.remove();
      }
      const host = document.createElement('div');
      host.style.whiteSpace = 'pre-line';
      const img = document.createElement('img');
      host.append('The house is small. ', img, '\nThe dog sleeps.');
      document.getElementById('article').after(host);
      await translateElement(host, { translator: t, beam: 1 });
      out.image = { before: host.textContent.slice(0, host.textContent.indexOf('\n')), after: img.nextSibling ? img.nextSibling.data : '' };
      host.remove();
      out.lines = (await t.translate(source, { beam: 1 })).text;
      out.oneLine = (await t.translate('The house is small. The dog sleeps.', { beam: 1 })).text;
      return out;
    });
    assert.match(r.lines, /\n.*\n\n/s, `the engine keeps the lines: ${JSON.stringify(r.lines)}`);
    for (const ws of ['pre-wrap', 'pre-line']) {
      assert.equal(r[ws].translated.text, r.lines.replace(/\.\s+(?=\S)/, '.  '), `${ws}: each line translated, the breaks kept`);
    }
    assert.equal(r.normal.translated.text, r.oneLine.replace('. ', '.  '), 'white-space normal: one line');
    assert.ok(r.image.after.startsWith('\n') && /\S/.test(r.image.before), `an image at a line's end stays there: ${JSON.stringify(r.image)}`);
    for (const ws of ['pre-wrap', 'pre-line', 'normal']) {
      assert.equal(r[ws].translated.lang, 'de', `${ws}: the element says German while translated`);
      assert.deepEqual(r[ws].restored, r[ws].before, `${ws}: restored exactly`);
    }
  });

  test('inline elements the CSS lays out as blocks are read apart, never run together into one word; restored exactly', { skip, timeout: 180000 }, async () => {
    const r = await page.evaluate(async () => {
      const { translateElement, t } = window.dom;
      const card = document.createElement('a');
      card.href = '#card';
      const parts = ['Opening hours', 'The museum is open every day.'].map((text) => {
        const span = card.appendChild(document.createElement('span'));
        span.style.display = 'block'; // (CSSOM: allowed under the CSP)
        span.append(text);
        return span;
      });
      const inline = card.appendChild(document.createElement('span'));
      inline.style.display = 'inline-block';
      inline.append('Read more');
      const host = document.createElement('div');
      host.append(card);
      document.getElementById('article').after(host);
      const before = host.innerHTML;
      const done = await translateElement(host, { translator: t, beam: 1 });
      const translated = parts.map((s) => s.textContent);
      const rest = inline.textContent;
      const sameNodes = parts.every((s) => s.parentNode === card) && inline.parentNode === card && card.parentNode === host;
      done.restore();
      const restored = host.innerHTML;
      host.remove();
      const alone = [];
      for (const text of ['Opening hours', 'The museum is open every day.']) alone.push((await t.translate(text, { beam: 1 })).text);
      return { before, translated, alone, rest, sameNodes, restored };
    });
    assert.deepEqual(r.translated, r.alone, 'each block-laid span translated on its own');
    assert.ok(r.sameNodes, 'the spans stay where they were');
    assert.notEqual(r.rest, 'Read more', 'the inline-block span is translated too');
    assert.equal(r.restored, r.before, 'restored exactly');
  });

  test('a form sends the same values translated: an <option> without a value keeps its source text as its value; restored exactly', { skip, timeout: 180000 }, async () => {
    const r = await page.evaluate(async () => {
      const { translateElement, t } = window.dom;
      const form = document.createElement('form');
      const select = form.appendChild(document.createElement('select'));
      select.name = 'fruit';
      for (const [text, value] of [['The red apple', null], ['The green pear', 'pear']]) {
        const option = select.appendChild(document.createElement('option'));
        option.append(text);
        if (value) option.value = value;
      }
      select.selectedIndex = 0;
      document.getElementById('article').after(form);
      const values = () => [...new FormData(form).entries()].flat().join('=');
      const options = () => [...select.options].map((o) => [o.text, o.getAttribute('value')]);
      const before = { sent: values(), options: options(), html: form.innerHTML };
      const done = await translateElement(form, { translator: t, beam: 1 });
      const translated = { sent: values(), options: options() };
      done.restore();
      const restored = { sent: values(), options: options(), html: form.innerHTML };
      form.remove();
      return { before, translated, restored };
    });
    assert.equal(r.before.sent, 'fruit=The red apple');
    assert.equal(r.translated.sent, 'fruit=The red apple', 'the form sends what it sent before');
    assert.notEqual(r.translated.options[0][0], 'The red apple', `the option is translated: ${r.translated.options}`);
    assert.deepEqual(r.translated.options.map((o) => o[1]), ['The red apple', 'pear']);
    assert.deepEqual(r.restored, r.before, 'restored exactly (no value attribute left)');
  });
});
