/**
 * translateElement() on a DOM 20,000 elements deep (see DEPTH), in Debian's Chromium
 * (playwright-core) with the real engine, on the built site (scripts/build-web.mjs) under its strict
 * Content-Security-Policy: a chain of <b> around a sentence and nested <div>s are translated in place
 * (the innermost text replaced by the translation, every element the same node, in the same place)
 * and restored exactly; inline elements nested past MAX_INLINE_DEPTH with text between them keep every
 * element. The trees are built with createElement (never parsed) and stay out of the document, so
 * that no style or layout runs over them: what is tested is segment.js's walks, which overflowed the
 * stack at ~5,000, and translate-element.js's DOM changes (a chain's links are left as they are:
 * re-linked one by one, 32,000 took minutes). (The HTML string path at 100,000: html-deep.test.mjs.)
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir, launchChromium } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
// Not 100,000 as in html-deep.test.mjs: the DOM itself cannot be built that deep in reasonable time
// (each insertion checks the new parent's ancestors, or visits the moved node's descendants, as the
// DOM standard says: 32,000 nested elements took 22-44 s to build in Chromium here, 100,000 would take
// minutes; its HTML parser stops nesting at 512). 20,000 is four times the depth that overflowed.
const DEPTH = 20000;

let server;
let browser;
let page;

before(async () => {
  if (skip) return;
  const out = path.join(resultsDir(), 'web-dist-deep');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
  server = await startServer({ root: out, base: '/deep/' });
  browser = await launchChromium();
  page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}article.html`);
  await page.evaluate(async () => {
    const { Translator, translateElement } = await import('./translator.js');
    window.deep = { translateElement, t: await Translator.create({ from: 'en', to: 'de', manifestUrl: new URL('./models/manifest.json', document.baseURI), workers: 1 }) };
  });
  assert.deepEqual(problems, []);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

test(`translateElement: ${DEPTH} nested <b> and ${DEPTH} nested <div> around a sentence, translated in place and restored`, { skip, timeout: 300000 }, async () => {
  const r = await page.evaluate(async (depth) => {
    const { translateElement, t } = window.deep;
    const out = {};
    for (const tag of ['b', 'div']) {
      const root = document.createElement('div');
      const chain = [];
      let at = root;
      for (let i = 0; i < depth; i++) chain.push(at = at.appendChild(document.createElement(tag)));
      at.append('The house is small.');
      const plain = (await t.translate('The house is small.', { beam: 1, alignments: true })).text;
      const handle = await translateElement(root, { translator: t, beam: 1 });
      let same = true; // every element the same node, in the same place
      for (let i = 0; i < depth && same; i++) same = chain[i].parentNode === (i ? chain[i - 1] : root) && (i === depth - 1 || chain[i].childNodes.length === 1);
      const translated = chain[depth - 1].textContent;
      handle.restore();
      out[tag] = { plain, translated, same, segments: handle.segments, restored: chain[depth - 1].textContent, count: root.getElementsByTagName(tag).length };
    }
    return out;
  }, DEPTH);
  for (const tag of ['b', 'div']) {
    const x = r[tag];
    assert.equal(x.translated, x.plain, `<${tag}>: the innermost text is the translation`);
    assert.ok(x.same, `<${tag}>: every element stays where it was`);
    assert.equal(x.segments, 1);
    assert.equal(x.restored, 'The house is small.');
    assert.equal(x.count, DEPTH);
  }
});

test(`translateElement: inline elements ${DEPTH} deep with text between them keep every element`, { skip, timeout: 300000 }, async () => {
  const r = await page.evaluate(async (depth) => {
    const { translateElement, t } = window.deep;
    const root = document.createElement('p');
    root.append('The house is small. ');
    let at = root;
    for (let i = 0; i < depth; i++) {
      at = at.appendChild(document.createElement('b'));
      at.append(' ');
    }
    at.append('Hi.');
    const before = root.textContent;
    const handle = await translateElement(root, { translator: t, beam: 1 });
    const after = { count: root.getElementsByTagName('b').length, text: root.textContent };
    handle.restore();
    return { before, after, restored: root.textContent, count: root.getElementsByTagName('b').length };
  }, DEPTH);
  assert.equal(r.after.count, DEPTH, 'every element kept');
  assert.ok(!r.after.text.startsWith('The house is small.'), `translated: ${r.after.text.slice(0, 60)}`);
  assert.ok(r.after.text.endsWith('Hi.'), 'the part past MAX_INLINE_DEPTH kept as it was');
  assert.equal(r.restored, r.before);
  assert.equal(r.count, DEPTH);
});
