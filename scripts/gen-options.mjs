#!/usr/bin/env node
/**
 * Writes the decoding options' types and docs from their one table, web/options.js
 * (DECODING_OPTIONS, OPTION_NOTES, MODULE_DEFAULTS), into the generated regions of
 *
 *   web/translator.d.ts  TranslateOptions' members (type, doc, allowed values, default), and PassName
 *   docs/api.md          the options table
 *
 * between `BEGIN generated NAME` and `END generated NAME` comment lines; the rest of each file is
 * written by hand. Usage:
 *
 *   node scripts/gen-options.mjs           rewrite the regions
 *   node scripts/gen-options.mjs --check   exit 1 naming the files whose regions differ (no writing)
 *
 * tests/web/typecheck.test.mjs fails when the committed files differ from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECODING_OPTIONS, OPTION_NOTES, MODULE_DEFAULTS, allowedValues, jsName } from '../web/options.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = 'scripts/gen-options.mjs writes this from web/options.js: edit there';
const PASSES = DECODING_OPTIONS.find((o) => o.name === 'passes').names;

// `alternatives` is alternatives()'s `count` (AlternativesOptions), not a translate() option.
const TRANSLATE_OPTIONS = DECODING_OPTIONS.filter((o) => o.name !== 'alternatives');

const capitalized = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const sentence = (s) => capitalized(/[.!?]$/.test(s) ? s : `${s}.`);
const defaultOf = (spec) => (spec.name in MODULE_DEFAULTS ? MODULE_DEFAULTS[spec.name] : spec.default);

/** The TypeScript type of an option's value. */
function tsType(spec) {
  switch (spec.kind) {
    case 'integer': case 'number': return 'number';
    case 'flag': return 'boolean';
    case 'text': return 'string';
    case 'switches': return 'Partial<Record<PassName, boolean>>';
    case 'terms': return 'Record<string, string>';
    default: throw new Error(`web/options.js: ${spec.name} has an unknown kind ${spec.kind}`);
  }
}

/** "An integer from 1 to 16; default 4.": the allowed values and the module's default, in words. */
function valuesLine(spec) {
  const value = defaultOf(spec);
  if (spec.kind === 'integer' || spec.kind === 'number') return `${capitalized(allowedValues(spec))}; default ${value}.`;
  if (spec.kind === 'flag') return `Default ${value}.`;
  if (spec.kind === 'switches') return 'Default: all on.';
  return 'Default: none.'; // text, terms
}

/** TranslateOptions' generated members: each option's doc (its note, else its `doc` line), values line, name and type. */
function dtsOptions() {
  return TRANSLATE_OPTIONS.map((spec) => {
    const prose = OPTION_NOTES[spec.name] ? [...OPTION_NOTES[spec.name]] : [sentence(spec.doc)];
    const tag = prose.findIndex((line) => line.startsWith('@'));
    prose.splice(tag < 0 ? prose.length : tag, 0, valuesLine(spec));
    return ['  /**', ...prose.map((line) => `   * ${line}`), '   */', `  ${jsName(spec.name)}?: ${tsType(spec)};`].join('\n');
  }).join('\n');
}

/** `export type PassName = ...`, wrapped at about 110 columns. */
function dtsPassNames() {
  const lines = ['export type PassName ='];
  for (const [i, name] of PASSES.entries()) {
    const item = `${i ? '| ' : ''}'${name}'${i === PASSES.length - 1 ? ';' : ''}`;
    if (lines.at(-1).length + item.length + 1 > 110) lines.push(`  ${item}`);
    else lines[lines.length - 1] += ` ${item}`;
  }
  return ['/** The engine\'s text passes (engine/text/passes.h), in the order they run. */', ...lines].join('\n');
}

const cell = (s) => String(s).replace(/\|/g, '\\|');
const code = (v) => `\`${typeof v === 'string' ? `'${v}'` : JSON.stringify(v)}\``;

/** docs/api.md's table: one row an option, then the pass names. */
function markdownTable() {
  const rows = DECODING_OPTIONS.map((spec) => {
    const name = spec.name === 'alternatives' ? '`count` (of `alternatives()`)' : `\`${jsName(spec.name)}\``;
    const values = spec.kind === 'switches' ? 'pass names to true or false' : allowedValues(spec);
    const engineDefault = spec.name in MODULE_DEFAULTS ? ` (the engine's: ${code(spec.default)})` : '';
    const cli = spec.cli ? `\`--${spec.name.replace(/_/g, '-')}\`` : '—';
    return `| ${name} | \`${tsType(spec)}\` | ${cell(values)} | ${code(defaultOf(spec))}${engineDefault} | ${cli} | ${cell(spec.doc)} |`;
  });
  return [
    '| option | type | values | default | CLI | what it does |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `The passes, in the order they run (\`passes: { numbers: false }\`): ${PASSES.map((n) => `\`${n}\``).join(', ')}.`,
  ].join('\n');
}

/** `text` with the lines between its BEGIN/END comments for `name` replaced by `body`. */
export function replaceRegion(text, file, name, body, [open, close]) {
  const begin = `${open} BEGIN generated ${name}: ${SOURCE}${close}`;
  const end = `${open} END generated ${name}${close}`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no region "${name}": it needs the lines\n${begin.trim()}\n${end.trim()}`);
  const start = from + begin.length;
  return `${text.slice(0, start)}\n${body}\n${text.slice(text.lastIndexOf('\n', to) + 1)}`;
}

/** { 'web/translator.d.ts': text, 'docs/api.md': text }: the files as this script writes them. */
export function generatedFiles() {
  const read = (rel) => readFileSync(path.join(ROOT, rel), 'utf8');
  let dts = read('web/translator.d.ts');
  dts = replaceRegion(dts, 'web/translator.d.ts', 'options', dtsOptions(), ['  //', '']);
  dts = replaceRegion(dts, 'web/translator.d.ts', 'pass names', dtsPassNames(), ['//', '']);
  const api = replaceRegion(read('docs/api.md'), 'docs/api.md', 'options', markdownTable(), ['<!--', ' -->']);
  return { 'web/translator.d.ts': dts, 'docs/api.md': api };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [rel, text] of Object.entries(generatedFiles())) {
    const file = path.join(ROOT, rel);
    if (readFileSync(file, 'utf8') === text) continue;
    stale.push(rel);
    if (!check) writeFileSync(file, text);
  }
  if (check && stale.length) {
    console.error(`${stale.join(', ')}: the generated regions differ from web/options.js; run node scripts/gen-options.mjs`);
    process.exit(1);
  }
  console.log(stale.length ? `wrote ${stale.join(', ')}` : 'up to date');
}
