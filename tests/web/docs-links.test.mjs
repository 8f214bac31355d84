/**
 * The documentation holds together (issue 53): every relative link and image in README.md,
 * docs/*.md and weights/ (the model card, the recipe's guide, EXPERIMENTS.md) names a file that exists (and, for a `#anchor` into a Markdown file, one of its
 * headings, slugged as GitHub does); README.md stays a five-minute read (at most 200 lines) with its
 * sections in the order a newcomer needs them; its samples run as written: the CLI lines print what
 * their comments say, the ES module sample runs in Node (the standard-API sample: polyfill.test.mjs).
 * What the docs name exists: every repository path in their inline code, every npm script, every
 * `build/nmt` flag; docs/text-rules.md's pass tables are the engine's passes, in order and by stage,
 * with the raw-numbers alias naming the passes that carry it; engine/README.md names every option
 * of engine/options.h and every field of the JSON result (engine/result_json.cpp).
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
  ...['weights/README.md', 'weights/recipe/README.md', 'weights/EXPERIMENTS.md'].filter((f) => existsSync(path.join(ROOT, f))),
  // the engine's guide, toolchain notes and file format
  ...['engine/README.md', 'engine/BUILDING.md', 'engine/FORMAT.md'].filter((f) => existsSync(path.join(ROOT, f)))];

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

// ---- what the docs name exists

const read = (file) => readFileSync(path.join(ROOT, file), 'utf8');
// docs/api.md is left out of the path check: it also names the built site's files (dist/engine/engine.js
// as `engine/engine.js`). weights/EXPERIMENTS.md is a record: it names files that were removed since.
const NAMING = DOCS.filter((d) => d !== 'docs/api.md' && d !== 'weights/EXPERIMENTS.md');
const TOP_FOLDERS = ['engine', 'web', 'weights', 'tests', 'scripts', 'docs'];
const ENGINE_FOLDERS = ['text', 'search', 'model', 'kernels', 'tokenizer', 'common', 'bindings', 'cli', 'bench'];

/**
 * The repository paths a Markdown text names in its inline code: words that start with one of
 * `folders` and a '/', less a trailing '.' or ':' and a ':NAME' after the file (model.py:DEFAULT_CONFIG).
 * Patterns and placeholders (`*`, `{a,b}`, `<dir>`, `$OUT`, `...`) are left out.
 */
export function namedPaths(md, folders = TOP_FOLDERS) {
  const start = new RegExp(`^(${folders.join('|')})/`);
  const found = new Set();
  for (const [, code] of md.matchAll(/`([^`\n]+)`/g)) {
    for (const word of code.split(/[\s,;()'"=]+/)) {
      const p = word.replace(/[.:]+$/, '').replace(/(\.\w+):\w+$/, '$1');
      if (start.test(p) && !/[*{}<>$[\]|…]|\.\.\./.test(p)) found.add(p);
    }
  }
  return [...found];
}

test('namedPaths finds the paths in inline code and leaves patterns out', () => {
  assert.deepEqual(namedPaths('see `engine/text/verbatim.h`, `web/app/`: and `weights/recipe/model.py:DEFAULT_CONFIG`.'),
    ['engine/text/verbatim.h', 'web/app/', 'weights/recipe/model.py']);
  assert.deepEqual(namedPaths('`weights/*/model.nmt` `tests/fixtures/html/placement-<dir>.json` `scripts/x.mjs --out $OUT` engine/not-code.h'),
    ['scripts/x.mjs']);
  assert.deepEqual(namedPaths('`text/casing.h` `cli/`', ENGINE_FOLDERS), ['text/casing.h', 'cli/']);
});

test('every repository path the docs name in inline code exists', () => {
  const missing = [];
  let checked = 0;
  for (const doc of NAMING) {
    const md = read(doc);
    const paths = namedPaths(md).map((p) => [p, p]);
    // engine/*.md name the engine's files from engine/ (`text/casing.h`, `search/rerank.h`)
    if (doc.startsWith('engine/')) paths.push(...namedPaths(md, ENGINE_FOLDERS).map((p) => [p, `engine/${p}`]));
    for (const [named, file] of paths) {
      checked += 1;
      if (!existsSync(path.join(ROOT, file))) missing.push(`${doc}: ${named}`);
    }
  }
  assert.deepEqual(missing, []);
  assert.ok(checked >= 50, `the paths were found (${checked})`);
});

test('every npm script the docs name is in package.json', () => {
  const scripts = JSON.parse(read('package.json')).scripts;
  const missing = [];
  for (const doc of DOCS.filter((d) => d !== 'weights/EXPERIMENTS.md')) {
    for (const [, name] of read(doc).matchAll(/\bnpm run ([\w:-]+)/g)) if (!(name in scripts)) missing.push(`${doc}: npm run ${name}`);
    for (const [, name] of read(doc).matchAll(/\bnpm (start|test)\b/g)) if (!(name in scripts)) missing.push(`${doc}: npm ${name}`);
  }
  assert.deepEqual(missing, []);
});

const nmtSkip = !existsSync(NMT) && 'build/nmt is missing (npm run build)';
const nmt = (...args) => {
  const r = spawnSync(NMT, args, { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

test('every build/nmt flag the docs show is one the command takes (nmt --help)', { skip: nmtSkip }, () => {
  const help = spawnSync(NMT, ['--help'], { encoding: 'utf8' });
  const known = new Set((help.stdout + help.stderr).match(/--[a-z][a-z-]*/g));
  const unknown = [];
  let checked = 0;
  for (const doc of DOCS.filter((d) => d !== 'weights/EXPERIMENTS.md')) {
    for (const [line] of read(doc).matchAll(/build\/nmt\b[^\n`#]*/g)) {
      for (const flag of line.match(/--[a-z][a-z-]*/g) || []) {
        checked += 1;
        if (!known.has(flag)) unknown.push(`${doc}: ${flag} in "${line.trim()}"`);
      }
    }
  }
  assert.deepEqual(unknown, []);
  assert.ok(checked >= 20, `the flags were found (${checked})`);
});

/** docs/text-rules.md's pass tables: [{name, stage}] in the page's order, the stage from the table's title. */
export function documentedPasses(md) {
  const section = md.slice(md.indexOf('## The passes, in order'), md.indexOf('\n## ', md.indexOf('## The passes, in order') + 1));
  const passes = [];
  let stage = null;
  for (const line of section.split('\n')) {
    const title = /^\*\*(Source|Retry|Target) passes\*\*$/.exec(line.trim());
    if (title) stage = title[1].toLowerCase();
    const row = /^\| `(\w+)` \|/.exec(line);
    if (row) passes.push({ name: row[1], stage });
  }
  return passes;
}

test('docs/text-rules.md lists the engine\'s passes, in the order they run, under their stage (nmt info)', { skip: nmtSkip }, () => {
  const engine = JSON.parse(nmt('info', '--model', 'weights/en-de/model.nmt')).passes;
  const md = read('docs/text-rules.md');
  assert.deepEqual(documentedPasses(md), engine.map((p) => ({ name: p.name, stage: p.stage })));
  // "Switching a pass off": which passes each option switches off
  const aliased = (alias) => engine.filter((p) => p.alias === alias).map((p) => p.name);
  const off = md.slice(md.indexOf('## Switching a pass off'));
  const rawNumbers = off.slice(off.indexOf('`rawNumbers: true`'), off.indexOf('An unknown name'));
  assert.deepEqual([...rawNumbers.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]), aliased('raw_numbers'));
  assert.match(off, new RegExp(`\`keepCase: true\` \\(\`--keep-case\`\\)\\s+is \`${aliased('keep_case').join('')}\``));
  assert.match(off, new RegExp(`\`modelOnly: true\` \\(\`--model-only\`\\) is \`${aliased('model_only').join('')}\``));
});

test('documentedPasses reads the tables\' rows and stages', () => {
  const md = '## The passes, in order\n\n**Source passes**\n\n| pass | x |\n|---|---|\n| `verbatim` | a |\n\n**Target passes**\n\n| `quotes` | b |\n\n## Next\n| `other` | c |\n';
  assert.deepEqual(documentedPasses(md), [{ name: 'verbatim', stage: 'source' }, { name: 'quotes', stage: 'target' }]);
});

test('engine/README.md names every decoding option of engine/options.h and every field of the JSON result', () => {
  const guide = read('engine/README.md');
  const header = read('engine/options.h');
  const table = header.slice(header.indexOf('kOptionSpecs[]'), header.indexOf('};', header.indexOf('kOptionSpecs[]')));
  const options = [...table.matchAll(/&option::(\w+)/g)].map((m) => m[1]);
  assert.ok(options.length >= 15, `the options were found (${options.length})`);
  const documented = new Set([...guide.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`(\w+)`/g)].map((c) => c[1])));
  assert.deepEqual(options.filter((o) => !documented.has(o)), [], 'options missing from the options table');
  const writer = read('engine/result_json.cpp');
  const fields = new Set([...writer.matchAll(/\b(?:j|root)\["(\w+)"\]|\{"(\w+)", /g)].map((m) => m[1] || m[2]));
  assert.ok(fields.size >= 20, `the fields were found (${fields.size})`);
  const json = guide.slice(guide.indexOf('## The translation JSON'), guide.indexOf('\n## ', guide.indexOf('## The translation JSON') + 1)) + guide;
  assert.deepEqual([...fields].filter((f) => !new RegExp(`\\b${f}\\b`).test(json)), [], 'fields missing from the JSON description');
});
