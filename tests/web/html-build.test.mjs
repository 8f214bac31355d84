/**
 * The HTML features ship: scripts/build-web.mjs copies the HTML mode page, the sample article, their
 * scripts and style, and web/html/*.js into the site, and the service worker precaches every one of
 * them (so both pages work offline), and each page's scripts and their imports are there.
 * Needs no engine: a stand-in engine.js/.wasm is built.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from '../../scripts/build-web.mjs';
import { ROOT, FIXTURE_MANIFEST } from './_helpers.mjs';

test('the HTML mode, the article and web/html/ are built and precached, with everything they import', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-build-html-'));
  for (const f of ['engine.js', 'engine.wasm']) writeFileSync(path.join(dir, f), 'stand-in');
  const out = path.join(dir, 'dist');
  build({ out, manifest: FIXTURE_MANIFEST, engine: dir, quiet: true });
  const sw = readFileSync(path.join(out, 'sw.js'), 'utf8');
  const shell = JSON.parse(/\/\* BUILD \*\/ (.*?) \/\* \/BUILD \*\//.exec(sw)[1]).shell.map((f) => f.file);
  const htmlModules = readdirSync(path.join(ROOT, 'web/html')).filter((f) => f.endsWith('.js')).map((f) => `html/${f}`);
  assert.ok(htmlModules.length >= 5, htmlModules.join(' '));
  for (const f of ['html.html', 'article.html', 'html-demo.js', 'article.js', 'html-pages.css', ...htmlModules]) {
    assert.ok(existsSync(path.join(out, f)), `${f} is in the site`);
    assert.ok(shell.includes(f), `${f} is precached`);
  }
  // Each page's scripts and stylesheets, and the modules they import, transitively.
  const seen = new Set();
  const visit = (from, spec) => {
    if (/^[a-z]+:/i.test(spec)) return;
    const rel = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
    if (rel.startsWith('../') || seen.has(rel)) return;
    seen.add(rel);
    assert.ok(existsSync(path.join(out, rel)), `${rel} (from ${from}) is in the site`);
    assert.ok(shell.includes(rel), `${rel} (from ${from}) is precached`);
    if (!rel.endsWith('.js')) return;
    const code = readFileSync(path.join(out, rel), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const m of code.matchAll(/\b(?:import|export)\s+(?:[\w$*{},\s]+?\s+from\s+)?['"]([^'"]+)['"]/g)) visit(rel, m[1]);
  };
  for (const page of ['html.html', 'article.html']) {
    const src = readFileSync(path.join(out, page), 'utf8');
    for (const m of src.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#]+\.(?:js|css))"/g)) visit(page, m[1]);
  }
  for (const f of ['html-demo.js', 'article.js', 'translator.js', 'html/translate-html.js', 'html/translate-element.js', 'html/render-safe.js', 'html-pages.css']) {
    assert.ok(seen.has(f), `a page loads ${f}`);
  }
  assert.match(readFileSync(path.join(out, 'index.html'), 'utf8'), /href="html\.html"[^]*href="article\.html"/, 'the main page links both');
});
