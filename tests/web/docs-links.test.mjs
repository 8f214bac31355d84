/**
 * The documentation holds together (issue 53): every relative link and image in README.md,
 * docs/*.md and weights/ (the model card, the recipe's guide, EXPERIMENTS.md) names a file that exists (and, for a `#anchor` into a Markdown file, one of its
 * headings, slugged as GitHub does); README.md stays a five-minute read (at most 200 lines) with its
 * sections in the order a newcomer needs them; its samples run as written: the CLI lines print what
 * their comments say, the ES module sample runs in Node (the standard-API sample: polyfill.test.mjs).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, engineSkip } from './_helpers.mjs';

const DOCS = ['README.md', ...(existsSync(path.join(ROOT, 'docs')) ? readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`) : []),
  // the model card, the recipe's guide and the experiments' record (its summary links its sections)
  ...['weights/README.md', 'weights/recipe/README.md', 'weights/EXPERIMENTS.md'].filter((f) => existsSync(path.join(ROOT, f)))];

/** The Markdown without its fenced code blocks and inline code (links there are not links). */
const prose = (md) => md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** [text](target) and ![alt](target), the target without a title. */
const links = (md) => [...prose(md).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);

/** GitHub's heading anchors: lower case, punctuation (and code's backticks, not its text) dropped, spaces to '-'. */
const anchors = (md) => new Set([...md.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)]
  .map((m) => m[1].toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')));

test('every relative link in README.md, docs/*.md and the model card\'s pages resolves to a file (and its anchor to a heading)', () => {
  const broken = [];
  let checked = 0;
  for (const doc of DOCS) {
    const md = readFileSync(path.join(ROOT, doc), 'utf8');
    for (const link of links(md)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto:
      checked += 1;
      const [file, anchor] = link.split('#');
      const target = file ? path.resolve(path.dirname(path.join(ROOT, doc)), decodeURIComponent(file)) : path.join(ROOT, doc);
      if (!target.startsWith(ROOT) || !existsSync(target)) { broken.push(`${doc}: ${link} (no such file)`); continue; }
      if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${doc}: ${link} (no heading #${anchor})`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked >= 10, `the links were found (${checked})`);
});

test('the link checker finds a broken link and a broken anchor', () => {
  assert.deepEqual(links('see [a](docs/x.md#y), ![img](a.png "t"), `[no](code.md)`, [web](https://x.org)'), ['docs/x.md#y', 'a.png', 'https://x.org']);
  assert.ok(anchors('# The numbers that matter\n## Use it (ES module)\n').has('use-it-es-module'));
  assert.ok(anchors('# The numbers that matter\n').has('the-numbers-that-matter'));
  assert.ok(anchors('### Side by side (`npm run bench:peers`)\n').has('side-by-side-npm-run-benchpeers'), 'code in a heading keeps its words');
  assert.ok(!anchors('```sh\n# a comment\n```\n').has('a-comment'), 'no heading inside a code block');
});

test('README.md is at most 200 lines, its sections in a newcomer\'s order', () => {
  const md = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const lines = md.split('\n').length - (md.endsWith('\n') ? 1 : 0);
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  const headings = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(headings, ['The two commands', 'Use it', 'Limitations', 'The numbers that matter', 'Layout', 'More']);
  for (const doc of ['api', 'architecture', 'text-rules', 'html', 'benchmarks', 'security']) {
    assert.ok(existsSync(path.join(ROOT, `docs/${doc}.md`)), `docs/${doc}.md`);
  }
  assert.match(readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'), /text ──► sentences ──► tokens ──► encoder ──► decoder/);
});

// ---- the README's samples run as written

const readme = () => readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const NMT = path.join(ROOT, 'build/nmt');

test('the README\'s one-line CLI samples print what their comments say', { skip: !existsSync(NMT) && 'build/nmt is missing (npm run build)' }, () => {
  const samples = [...readme().matchAll(/^echo "([^"]+)" \| build\/nmt (.+?)\s+# (.+)$/gm)];
  assert.ok(samples.length >= 1, 'README.md has a CLI sample');
  for (const [, input, args, expected] of samples) {
    const r = spawnSync(NMT, args.trim().split(/\s+/), { cwd: ROOT, input: `${input}\n`, encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), expected.trim(), `echo "${input}" | build/nmt ${args}`);
  }
});

test('the README\'s ES module sample runs in Node against web/translator.js', { skip: engineSkip(), timeout: 180000 }, () => {
  const md = readme();
  const at = md.indexOf('**In a page or in Node (ES module).**');
  assert.ok(at >= 0, 'README.md has the module section');
  const start = md.indexOf('```js\n', at) + 6;
  const sample = md.slice(start, md.indexOf('\n```', start));
  assert.match(sample, /^import \{ Translator \} from '\.\/translator\.js';/);
  // The sample as written, importing the module from the checkout, reporting what it computed.
  const code = sample.replace("'./translator.js'", JSON.stringify(pathToFileURL(path.join(ROOT, 'web/translator.js')).href))
    .replace(/^r\.text;.*$/m, 'const text = r.text;')
    .replace(/^r\.sentences\[0\]\.wordAlignments;.*$/m, 'const links = r.sentences[0].wordAlignments;')
    .concat('\nconsole.log(JSON.stringify({ text, links: links.length }));\n');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', timeout: 170000 });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').at(-1));
  assert.ok(out.text.trim().length > 0 && out.links > 0, JSON.stringify(out));
});
