#!/usr/bin/env node
/**
 * Builds the static site: copies web/ (the demo page, the translator module and its worker), the
 * WASM engine (build-wasm/engine.js + engine.wasm → engine/) and the models named by the weights
 * manifest (→ models/, content-hashed file names, with a new manifest.json giving each file's
 * bytes and SHA-256, and engine.wasm's size), the facts of the "About the models" card
 * (models/about.json: scripts/about-models.mjs), and writes the service worker's precache list,
 * version, files (the shell's and the models', with their sizes and SHA-256: it saves, and serves
 * from its cache, only a file that matches) and model
 * cache name (protocol.js's MODEL_CACHE, shared with the worker). Every URL in the result is relative, so the
 * folder works from any static server, under any sub-path. The pages' common <head> lines
 * (charset, viewport, the Content-Security-Policy, referrer, icon, style sheet, load-check.js) are written once,
 * in web/head.html: each page's `<!-- head.html -->` line becomes them.
 *
 *   node scripts/build-web.mjs [--out dist] [--manifest weights/manifest.json] [--engine build-wasm] [--quiet]
 *
 * Without --manifest it uses weights/manifest.json, or, before the real models exist, the test
 * fixture manifest tests/fixtures/web-manifest.json (the tiny random model; it says so).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MODEL_CACHE } from '../web/protocol.js';
import { aboutModels } from './about-models.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const args = { out: path.join(ROOT, 'dist'), manifest: null, engine: path.join(ROOT, 'build-wasm'), quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--out') args.out = path.resolve(value());
    else if (a === '--manifest') args.manifest = path.resolve(value());
    else if (a === '--engine') args.engine = path.resolve(value());
    else if (a === '--quiet') args.quiet = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node scripts/build-web.mjs [--out dist] [--manifest weights/manifest.json] [--engine build-wasm] [--quiet]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return args;
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;

function listFiles(dir, base = dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listFiles(full, base));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

/** A page of web/ with its `<!-- head.html -->` line replaced by web/head.html's lines (indented as the mark is). */
function withHead(page, head, name) {
  const mark = /^([ \t]*)<!-- head\.html -->\n/m;
  const m = mark.exec(page);
  if (!m || !/<head>\s*$/.test(page.slice(0, m.index))) throw new Error(`web/${name}: its <head> must start with a line <!-- head.html --> (the common head lines: web/head.html)`);
  const lines = head.split('\n').map((line) => `${m[1]}${line}\n`).join('');
  return page.slice(0, m.index) + lines + page.slice(m.index + m[0].length);
}

export function build(options) {
  const log = options.quiet ? () => {} : (...a) => console.log(...a);
  const webDir = path.join(ROOT, 'web');

  // 1. Inputs.
  const engineJs = path.join(options.engine, 'engine.js');
  const engineWasm = path.join(options.engine, 'engine.wasm');
  for (const f of [engineJs, engineWasm]) {
    if (!existsSync(f)) throw new Error(`${path.relative(ROOT, f)} is missing: build the engine first (bash scripts/build.sh).`);
  }
  let manifestPath = options.manifest;
  if (!manifestPath) {
    manifestPath = path.join(ROOT, 'weights/manifest.json');
    if (!existsSync(manifestPath)) {
      manifestPath = path.join(ROOT, 'tests/fixtures/web-manifest.json');
      console.warn('build-web: weights/manifest.json does not exist yet; using the test fixture model (tests/fixtures/tiny.nmt), whose translations are gibberish.');
    }
  }
  if (!existsSync(manifestPath)) throw new Error(`the weights manifest ${manifestPath} does not exist`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!Array.isArray(manifest.models) || manifest.models.length === 0) throw new Error(`${manifestPath}: no "models" list`);

  // 2. A clean output folder.
  const out = options.out;
  if (out === ROOT || out === webDir || ROOT.startsWith(out + path.sep)) throw new Error(`refusing to build into ${out}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'engine'), { recursive: true });
  mkdirSync(path.join(out, 'models'), { recursive: true });

  const versionHash = createHash('sha256');
  // Each file the service worker precaches, with the size and SHA-256 it checks a saved copy against.
  const shell = [];
  const addToShell = (file, bytes) => shell.push({ file, bytes: bytes.length, sha256: sha256(bytes) });

  // 3. The web files (sw.js last: it needs the version), the pages with their common head.
  const head = readFileSync(path.join(webDir, 'head.html'), 'utf8').trimEnd();
  const webFiles = listFiles(webDir).filter((f) => f !== 'sw.js' && f !== 'head.html');
  for (const f of webFiles) {
    mkdirSync(path.dirname(path.join(out, f)), { recursive: true });
    const bytes = f.endsWith('.html') ? Buffer.from(withHead(readFileSync(path.join(webDir, f), 'utf8'), head, f)) : readFileSync(path.join(webDir, f));
    writeFileSync(path.join(out, f), bytes);
    versionHash.update(f).update(bytes);
    if (!/^bench\.|\.d\.ts$/.test(f)) addToShell(f, bytes);
    if (f === 'index.html') addToShell('./', bytes);
  }

  // 4. The engine, and its relaxed-SIMD GEMM where it was built (web/relaxed-simd.js; without it
  // the worker runs SIMD128).
  const relaxedWasm = path.join(options.engine, 'relaxed_gemm.wasm');
  if (!existsSync(relaxedWasm)) console.warn(`build-web: ${path.relative(ROOT, relaxedWasm)} is missing: the site will run SIMD128 only.`);
  for (const f of [engineJs, engineWasm, ...(existsSync(relaxedWasm) ? [relaxedWasm] : [])]) {
    const name = `engine/${path.basename(f)}`;
    const bytes = readFileSync(f);
    writeFileSync(path.join(out, name), bytes);
    versionHash.update(name).update(bytes);
    addToShell(name, bytes);
  }

  // 5. The models, checked against the manifest and renamed by content.
  const models = [];
  const modelSources = [];
  const byHash = new Map();
  for (const m of manifest.models) {
    if (!m.from || !m.to || !m.file) throw new Error(`${manifestPath}: every model needs from, to and file`);
    const src = path.resolve(path.dirname(manifestPath), m.file);
    if (!existsSync(src)) throw new Error(`${manifestPath}: the ${m.from}→${m.to} model ${src} does not exist`);
    const bytes = readFileSync(src);
    const hash = sha256(bytes);
    if (m.sha256 && m.sha256.toLowerCase() !== hash) throw new Error(`${src}: SHA-256 ${hash} does not match the manifest's ${m.sha256}`);
    if (m.bytes && m.bytes !== bytes.length) throw new Error(`${src}: ${bytes.length} bytes, the manifest says ${m.bytes}`);
    let file = byHash.get(hash);
    if (!file) {
      file = `${m.from}-${m.to}.${hash.slice(0, 12)}.nmt`;
      copyFileSync(src, path.join(out, 'models', file));
      byHash.set(hash, file);
    }
    const { file: _f, bytes: _b, sha256: _s, ...rest } = m;
    models.push({ ...rest, from: m.from, to: m.to, file, bytes: bytes.length, sha256: hash });
    modelSources.push({ from: m.from, to: m.to, bytes: bytes.length, source: src });
    versionHash.update(hash);
    log(`  model ${m.from}→${m.to}: ${path.relative(ROOT, src)} (${mb(bytes.length)}) → models/${file}`);
  }
  // engine.wasm's size too, so the worker reports one download total from the start.
  const engineBytes = statSync(engineWasm).size;
  const outManifest = { models, engine: { wasm: { file: '../engine/engine.wasm', bytes: engineBytes } }, built_from: path.relative(ROOT, manifestPath) };
  const manifestBytes = Buffer.from(`${JSON.stringify(outManifest, null, 2)}\n`);
  writeFileSync(path.join(out, 'models/manifest.json'), manifestBytes);
  addToShell('models/manifest.json', manifestBytes);
  versionHash.update(JSON.stringify(outManifest));

  // 5b. "About the models": sizes, scores, data, licence and the peers' scores (scripts/about-models.mjs).
  const codeLicence = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).license;
  const about = aboutModels({ manifestPath, entries: modelSources, engineBytes, codeLicence, root: ROOT });
  const aboutBytes = Buffer.from(`${JSON.stringify(about, null, 2)}\n`);
  writeFileSync(path.join(out, 'models/about.json'), aboutBytes);
  addToShell('models/about.json', aboutBytes);
  versionHash.update(JSON.stringify(about));

  // 6. The service worker with this build's version and file lists (with sizes and SHA-256).
  const version = versionHash.digest('hex').slice(0, 16);
  const swSource = readFileSync(path.join(webDir, 'sw.js'), 'utf8');
  const marker = /\/\* BUILD \*\/[\s\S]*?\/\* \/BUILD \*\//;
  if (!marker.test(swSource)) throw new Error('web/sw.js has no /* BUILD */ … /* /BUILD */ block');
  const swModels = [...new Map(models.map((m) => [m.file, { file: `models/${m.file}`, bytes: m.bytes, sha256: m.sha256 }])).values()];
  const build = { version, shell, models: swModels, modelCache: MODEL_CACHE };
  writeFileSync(path.join(out, 'sw.js'), swSource.replace(marker, `/* BUILD */ ${JSON.stringify(build)} /* /BUILD */`));

  const total = listFiles(out).reduce((a, f) => a + statSync(path.join(out, f)).size, 0);
  log(`Built ${path.relative(process.cwd(), out) || '.'}/ (version ${version}, ${listFiles(out).length} files, ${mb(total)}).`);
  log(`Serve it with: node scripts/serve.mjs ${path.relative(process.cwd(), out) || '.'}`);
  return { out, version, models, manifestPath };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build(parseArgs(process.argv.slice(2)));
  } catch (e) {
    console.error(`build-web: ${e.message}`);
    process.exit(1);
  }
}
