/**
 * translateElement() on a DOM 100,000 elements deep (see DEPTH), in Debian's Chromium
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
// The same depth as html-deep.test.mjs. A browser checks the new parent's ancestors and visits the
// moved node's descendants on every insertion (as the DOM standard says), so a chain built one
// element at a time costs depth² (32,000 took 22-44 s in Chromium here); chain() joins two halves
// built the same way instead (depth·log depth: 100,000 in ~0.5 s). The HTML parser stops nesting at 512.
const DEPTH = 100000;

/** In the page: `depth` elements `tag` each inside the one before, under `root`; returns them outermost first. */
function chainSource() {
  window.chain = (root, tag, depth, each) => {
    const all = [];
    const build = (n) => { // [outermost, innermost] of a chain of n
      if (n === 1) {
        const el = document.createElement(tag);
        all.push(el);
        if (each) each(el);
        return [el, el];
      }
      const [top, a] = build(n >> 1);
      const [b, bottom] = build(n - (n >> 1));
      a.appendChild(b);
      return [top, bottom];
    };
    root.appendChild(build(depth)[0]);
    return all;
  };
}

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
  await page.evaluate(chainSource);
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
      const chain = window.chain(root, tag, depth);
      chain[depth - 1].append('The house is small.');
      const plain = (await t.translate('The house is small.', { beam: 1, alignments: true })).text;
      const started = performance.now();
      const handle = await translateElement(root, { translator: t, beam: 1 });
      const ms = Math.round(performance.now() - started);
      let same = true; // every element the same node, in the same place
      for (let i = 0; i < depth && same; i++) same = chain[i].parentNode === (i ? chain[i - 1] : root) && (i === depth - 1 || chain[i].childNodes.length === 1);
      const translated = chain[depth - 1].textContent;
      const restoreStarted = performance.now();
      handle.restore();
      out[tag] = { ms, restoreMs: Math.round(performance.now() - restoreStarted), plain, translated, same, segments: handle.segments, restored: chain[depth - 1].textContent, count: root.getElementsByTagName(tag).length };
    }
    return out;
  }, DEPTH);
  for (const tag of ['b', 'div']) {
    const x = r[tag];
    console.log(`<${tag}> ${DEPTH} deep: translateElement ${x.ms} ms, restore ${x.restoreMs} ms`);
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
    const chain = window.chain(root, 'b', depth, (b) => b.append(' '));
    chain[depth - 1].append('Hi.');
    const before = root.textContent;
    const started = performance.now();
    const handle = await translateElement(root, { translator: t, beam: 1 });
    const ms = Math.round(performance.now() - started);
    const after = { count: root.getElementsByTagName('b').length, text: root.textContent };
    const restoreStarted = performance.now();
    handle.restore();
    return { ms, restoreMs: Math.round(performance.now() - restoreStarted), before, after, restored: root.textContent, count: root.getElementsByTagName('b').length };
  }, DEPTH);
  console.log(`<b> with text ${DEPTH} deep: translateElement ${r.ms} ms, restore ${r.restoreMs} ms`);
  assert.equal(r.after.count, DEPTH, 'every element kept');
  assert.ok(!r.after.text.startsWith('The house is small.'), `translated: ${r.after.text.slice(0, 60)}`);
  assert.ok(r.after.text.endsWith('Hi.'), 'the part past MAX_INLINE_DEPTH kept as it was');
  assert.equal(r.restored, r.before);
  assert.equal(r.count, DEPTH);
});
