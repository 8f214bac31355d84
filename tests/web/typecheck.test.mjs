/**
 * The TypeScript declarations (web/translator.d.ts) against the module: tests/web/typecheck.ts,
 * which uses the public API as the README shows it (and misuses it where the types must say no),
 * compiles with `tsc --noEmit --strict`; and the values the .d.ts declares are exactly what
 * web/translator.js exports. tsc comes from Debian's node-typescript; without it the compile is
 * skipped (the export check still runs).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as api from '../../web/translator.js';
import { ROOT } from './_helpers.mjs';

const TSC = ['/usr/bin/tsc', path.join(ROOT, 'node_modules/.bin/tsc')].find((p) => spawnSync(p, ['--version']).status === 0);

test('typecheck.ts compiles against translator.d.ts with tsc --strict', { skip: !TSC && 'tsc is missing (apt-get install node-typescript)' }, () => {
  // --typeRoots to a folder that does not exist: no automatic @types (onnxruntime-node brings a
  // @types/node in syntax newer than Debian's tsc parses; the page's API needs none of it).
  const r = spawnSync(TSC, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node',
    '--lib', 'es2022,dom', '--typeRoots', path.join(ROOT, 'tests/web/no-ambient-types'), path.join(ROOT, 'tests/web/typecheck.ts')],
  { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, `tsc found type errors:\n${r.stdout}${r.stderr}`);
});

test('translator.d.ts declares exactly the values translator.js exports', () => {
  const dts = readFileSync(path.join(ROOT, 'web/translator.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  if (/^export default \w+;/m.test(dts)) declared.push('default');
  assert.deepEqual(declared.sort(), Object.keys(api).sort());
});

// ---- every declared method and option is used in typecheck.ts, and the option names are the table's

/** The member names of `export interface NAME` in a .d.ts (top-level members, two-space indent). */
function interfaceMembers(dts, name) {
  const start = dts.search(new RegExp(`^export interface ${name}\\b[^{]*\\{`, 'm'));
  assert.ok(start >= 0, `translator.d.ts has no interface ${name}`);
  const body = dts.slice(start, dts.indexOf('\n}', start));
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]);
}

/** Method names of `export declare class Translator` (static ones separately). */
function classMethods(dts, name) {
  const start = dts.search(new RegExp(`^export declare class ${name}\\b`, 'm'));
  const body = dts.slice(start, dts.indexOf('\n}', start));
  const methods = new Set([...body.matchAll(/^ {2}(\w+)\(/gm)].map((m) => m[1]));
  const statics = new Set([...body.matchAll(/^ {2}static (\w+)\(/gm)].map((m) => m[1]));
  return { methods: [...methods], statics: [...statics] };
}

const OPTION_INTERFACES = ['TranslatorOptions', 'TranslateOptions', 'AlternativesOptions', 'HtmlTranslateOptions', 'TranslateElementOptions'];
// translate()'s own options (web/translator.js takes them out before engineOptions()).
const OWN_TRANSLATE_OPTIONS = ['signal', 'onProgress', 'chunkChars'];

test('typecheck.ts passes every option of every options interface and calls every Translator method', () => {
  const dts = readFileSync(path.join(ROOT, 'web/translator.d.ts'), 'utf8');
  const usage = readFileSync(path.join(ROOT, 'tests/web/typecheck.ts'), 'utf8');
  // An option is used when it is written as an object key (`name:` or shorthand `name,` / `name }`).
  const unused = OPTION_INTERFACES.flatMap((name) => interfaceMembers(dts, name)
    .filter((member) => !new RegExp(`[{,]\\s*${member}\\s*[:,}]`).test(usage)).map((member) => `${name}.${member}`));
  assert.deepEqual(unused, [], 'options declared but never passed in tests/web/typecheck.ts');
  const { methods, statics } = classMethods(dts, 'Translator');
  assert.ok(methods.includes('translate') && statics.includes('create'), 'the class parser found the methods');
  const uncalled = [...methods.filter((m) => !new RegExp(`\\.${m}\\(`).test(usage)),
    ...statics.filter((m) => !new RegExp(`(Translator|Default)\\.${m}\\(`).test(usage)).map((m) => `static ${m}`)];
  assert.deepEqual(uncalled, [], 'Translator methods declared but never called in tests/web/typecheck.ts');
});

test('the declared methods exist on the class, and TranslateOptions names exactly the options table plus translate()\'s own', async () => {
  const dts = readFileSync(path.join(ROOT, 'web/translator.d.ts'), 'utf8');
  const { methods, statics } = classMethods(dts, 'Translator');
  for (const m of methods) assert.equal(typeof api.Translator.prototype[m], 'function', `Translator.prototype.${m}`);
  for (const m of statics) assert.equal(typeof api.Translator[m], 'function', `Translator.${m}`);

  const { DECODING_OPTIONS, jsName, engineOptions } = await import('../../web/options.js');
  // `alternatives` is alternatives()'s `count` (AlternativesOptions), not a translate() option.
  const table = DECODING_OPTIONS.filter((o) => o.name !== 'alternatives');
  const declared = interfaceMembers(dts, 'TranslateOptions');
  assert.deepEqual(declared.filter((m) => !OWN_TRANSLATE_OPTIONS.includes(m)).sort(), table.map((o) => jsName(o.name)).sort());
  assert.ok(interfaceMembers(dts, 'AlternativesOptions').includes('count'));
  // At run time the module takes each declared name with the table's default (no "is not an option").
  for (const spec of table) {
    const value = spec.kind === 'integer' || spec.kind === 'number' ? Math.max(spec.default, spec.min) : spec.default;
    assert.doesNotThrow(() => engineOptions({ [jsName(spec.name)]: value }), `translate() refuses the declared option ${jsName(spec.name)}`);
  }
  assert.throws(() => engineOptions({ notAnOption: 1 }), /is not an option/);
});

test('translator.d.ts and docs/api.md hold what scripts/gen-options.mjs writes from web/options.js (no hand edits)', async () => {
  const { generatedFiles } = await import('../../scripts/gen-options.mjs');
  for (const [rel, text] of Object.entries(generatedFiles())) {
    assert.ok(readFileSync(path.join(ROOT, rel), 'utf8') === text,
      `${rel}: a generated region differs from web/options.js (edit the table or its notes there, then run node scripts/gen-options.mjs)`);
  }
});
