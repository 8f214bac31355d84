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
