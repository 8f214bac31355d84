/**
 * Every code sample in docs/*.md runs as written (issue 53; the README's: docs-links.test.mjs).
 * A ```js block runs in Node against web/translator.js (or web/polyfill.js) with the real WASM
 * engine and the shipped models: its imports point at the checkout, and the names it uses without
 * declaring them (`t`, an en→de Translator made once for all blocks; `longText`, `signal`, `show`)
 * are given; a line whose comment is one quoted string (`r.text;   // 'Das Haus …'`) must give that
 * string. A ```sh block is command lines for build/nmt, run from a folder that has the checkout's
 * build/ and weights/ and a small input.txt / sentences.txt: each must exit 0 and print something,
 * an `echo … | build/nmt … # TEXT` line must print TEXT, and a comment line under a command that
 * shows its JSON (`# {"alternatives":[…},...]}`) must be how that output starts.
 * A block that cannot run here says why on the line before its fence, `<!-- not run: REASON -->`;
 * those are few.
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, engineSkip } from './_helpers.mjs';

const DOCS = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const NOT_RUN = /^<!-- not run: (.+?) -->$/;

/** The fenced blocks of a Markdown text: {lang, code, line (1-based, of the fence), notRun (the reason, or null)}. */
export function fencedBlocks(md) {
  const lines = md.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, k) => k > i && /^```\s*$/.test(l));
    if (end < 0) break;
    const marker = i > 0 ? NOT_RUN.exec(lines[i - 1].trim()) : null;
    blocks.push({ lang: open[1], code: lines.slice(i + 1, end).join('\n'), line: i + 1, notRun: marker ? marker[1] : null });
    i = end;
  }
  return blocks;
}

const samples = () => DOCS.flatMap((doc) => fencedBlocks(readFileSync(path.join(ROOT, doc), 'utf8'))
  .filter((b) => b.lang === 'js' || b.lang === 'sh').map((b) => ({ ...b, where: `${doc}:${b.line}` })));

/** A shell line this test can run: build/nmt, alone or fed by echo. */
const runnableShell = (line) => /^(echo "[^"]*" \| )?build\/nmt\b/.test(line);
const shellCommands = (code) => code.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

test('every js and sh sample in docs/ runs here or says why not, and few say why not', () => {
  const all = samples();
  assert.ok(all.length >= 5, `${all.length} samples found`);
  const marked = all.filter((b) => b.notRun);
  for (const b of marked) assert.ok(b.notRun.length >= 10, `${b.where}: the reason is a few words`);
  for (const b of all.filter((s) => !s.notRun && s.lang === 'sh')) {
    for (const line of shellCommands(b.code)) assert.ok(runnableShell(line), `${b.where}: "${line}" is no build/nmt line: mark the block <!-- not run: … -->`);
  }
  assert.ok(marked.length <= Math.max(3, all.length / 3), `${marked.length} of ${all.length} samples are not run: ${marked.map((b) => b.where).join(', ')}`);
});

test('fencedBlocks reads fences, languages and the not-run marker', () => {
  const md = 'text\n```js\na();\n```\n<!-- not run: needs a browser window -->\n```sh\nx\ny\n```\n```\nplain\n```\n';
  assert.deepEqual(fencedBlocks(md), [
    { lang: 'js', code: 'a();', line: 2, notRun: null },
    { lang: 'sh', code: 'x\ny', line: 6, notRun: 'needs a browser window' },
    { lang: '', code: 'plain', line: 10, notRun: null },
  ]);
  assert.equal(runnableShell('echo "a" | build/nmt --model m'), true);
  assert.equal(runnableShell('apt-get install x'), false);
});

// ---- the js samples, in this process, with one shared translator

const MODULES = {
  './translator.js': 'web/translator.js',
  'nmt-translator': 'web/translator.js',
  'nmt-translator/polyfill': 'web/polyfill.js',
};
const GIVEN = ['t', 'longText', 'signal', 'show'];

/**
 * The block as the body of an async function: imports from the checkout, each `expr; // 'TEXT'` line
 * checked, and every name it declares handed back (so the test can dispose what it created).
 */
export function runnable(code) {
  const declared = new Set();
  const body = code.split('\n').map((line) => {
    const imp = /^import \{([^}]+)\} from '([^']+)';(.*)$/.exec(line);
    if (imp) {
      const file = MODULES[imp[2]];
      if (!file) throw new Error(`an import this test cannot resolve: ${imp[2]}`);
      return `const {${imp[1]}} = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, file)).href)});${imp[3].replace(/\/\/.*$/, '')}`;
    }
    const expect = /^(?!\s*(?:const|let|var|for|if)\b)(.+?);\s*\/\/\s*(['"])(.*?)\2(?:\s+\(.*\))?\s*$/.exec(line);
    if (expect) return `__expect(${expect[1]}, ${JSON.stringify(expect[3])});`;
    return line;
  }).join('\n');
  for (const m of body.matchAll(/^\s*(?:const|let|var)\s+(?:\{([^}]+)\}|\[([^\]]+)\]|(\w+))/gm)) {  // (a loop's own: not)
    for (const name of (m[1] || m[2] || m[3]).split(',')) {
      const id = name.trim().split(/\s*[:=]\s*/).pop();
      if (/^\w+$/.test(id)) declared.add(id);
    }
  }
  const given = GIVEN.filter((n) => !declared.has(n));
  return { params: [...given, '__expect'], given, body: `${body}\nreturn { ${[...declared].join(', ')} };` };
}

test('runnable: imports point at the checkout, commented results become checks, declared names come back', () => {
  const r = runnable("import { Translator } from './translator.js';   // x\nconst t = 1;\nr.text;   // 'Das Haus' (the model)\nconst [a] = f(); // 'no check'\nfor (const s of a) show(s);");
  assert.match(r.body, /^const \{ Translator \} = await import\("file:\/\/.*\/web\/translator\.js"\);/);
  assert.match(r.body, /__expect\(r\.text, "Das Haus"\);/);
  assert.match(r.body, /const \[a\] = f\(\); \/\/ 'no check'/);
  assert.deepEqual(r.given, ['longText', 'signal', 'show']);
  assert.match(r.body, /return \{ Translator, t, a \};$/);
});

let t = null;
const engine = engineSkip();
before(async () => {
  if (engine) return;
  const { Translator } = await import(pathToFileURL(path.join(ROOT, 'web/translator.js')).href);
  t = await Translator.create({ from: 'en', to: 'de' });
});
after(() => { if (t) t.dispose(); });

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
const disposeAll = async (values) => {
  for (const v of Object.values(values || {})) {
    if (v && v !== t && typeof v === 'object') {
      if (typeof v.dispose === 'function') v.dispose();
      else if (typeof v.destroy === 'function') await v.destroy();
    }
  }
};

for (const block of samples().filter((b) => b.lang === 'js' && !b.notRun)) {
  test(`the js sample at ${block.where} runs`, { skip: engine, timeout: 120000 }, async () => {
    const { params, body } = runnable(block.code);
    const shown = [];
    const given = {
      t,
      longText: 'The house is small. The garden is big. We are going to the cinema tonight.',
      signal: new AbortController().signal,
      show: (...args) => shown.push(args),
    };
    const checks = [];
    const expectFn = (value, text) => checks.push([typeof value === 'string' ? value : value && value.text, text]);
    const values = await new AsyncFunction(...params, body)(...params.slice(0, -1).map((n) => given[n]), expectFn);
    await disposeAll(values);
    for (const [got, want] of checks) assert.equal(got, want, `${block.where}: the comment says what it gives`);
    if (/\bshow\(/.test(block.code)) assert.ok(shown.length >= 1 && shown.every(([s]) => typeof s === 'string'), `${block.where}: show() got the sentences`);
  });
}

// ---- the sh samples: build/nmt from a folder with the checkout's build/ and weights/

const NMT = path.join(ROOT, 'build/nmt');

test('the sh samples in docs/ run against build/nmt and print what their comments say', { skip: !existsSync(NMT) && 'build/nmt is missing (npm run build)', timeout: 120000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-docs-'));
  for (const name of ['build', 'weights']) symlinkSync(path.join(ROOT, name), path.join(dir, name));
  const input = 'The house is small.\nWe are going to the cinema tonight.\n';
  writeFileSync(path.join(dir, 'input.txt'), input);
  writeFileSync(path.join(dir, 'sentences.txt'), input);
  let ran = 0;
  for (const block of samples().filter((b) => b.lang === 'sh' && !b.notRun)) {
    const lines = block.code.split('\n').map((l) => l.trim());
    let last = null;
    for (const line of lines) {
      if (!line) continue;
      if (line.startsWith('#')) {
        // a comment line showing the JSON the command above prints: its start, up to the "..."
        const shown = /^# (\{.*?)\.\.\.\]?\}?$/.exec(line);
        if (shown && last !== null) assert.ok(last.startsWith(shown[1]), `${block.where}: "${line}" vs ${last.slice(0, 200)}`);
        continue;
      }
      const r = spawnSync('bash', ['-c', line.replace(/\s+#.*$/, '')], { cwd: dir, encoding: 'utf8', timeout: 60000 });
      assert.equal(r.status, 0, `${block.where}: ${line}\n${r.stderr}`);
      assert.ok(r.stdout.trim().length > 0, `${block.where}: ${line} printed nothing`);
      const said = /^echo "[^"]*" \| build\/nmt .+?\s+# (.+)$/.exec(line);
      if (said) assert.equal(r.stdout.trim(), said[1].trim(), `${block.where}: ${line}`);
      last = r.stdout.trim();
      ran += 1;
    }
  }
  assert.ok(ran >= 3, `${ran} command lines ran`);
});
