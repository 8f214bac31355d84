/**
 * translateElement() on what a live page holds besides plain elements, in Debian's Chromium and
 * Firefox ESR (tests/web/_browsers.mjs) with the real engine, on the built site under its strict
 * Content-Security-Policy: a web component's open shadow root is translated with the light DOM
 * around it, what a user edits (contenteditable) is left alone, an iframe's title is translated,
 * and restore() puts the very same DOM back, shadow root included. (The string path: html.test.mjs.)
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
