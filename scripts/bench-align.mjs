#!/usr/bin/env node
/**
 * `npm run bench:align`: how right the word alignments are, against the hand-aligned dev set
 * (tests/fixtures/align/, 214 German–English pairs with sure and possible links; its README says
 * how it was made). Both shipped models run in the real engine (the public JS module over the WASM
 * build, in Node), each pair's reference translation forced with `prefix`, every head's attention
 * kept (allHeads). Printed, per direction, as alignment error rate (AER, Och & Ney 2003: lower is
 * better), precision and recall:
 *   - the engine's own `wordAlignments`, with one model and with both (`rerank: true`);
 *   - the same read-outs recomputed here from the attention: the old one (the alignment layer's mean
 *     over heads, argmax per target word) as the baseline, each head read at its own step and one
 *     step late (shifted), and the shipped read-out with its thresholds varied;
 *   - symmetrized (intersection, grow-diag) from both directions' read-outs;
 *   - a 2-fold cross-validation: the head and thresholds chosen on the even pairs and measured on
 *     the odd ones, and the other way round (the honest number: the shipped choice was made on this
 *     whole set).
 * Options: --set dev|guard (default dev), --limit N (first N pairs), --json FILE (numbers as JSON),
 * --engine DIR (an engine.js + engine.wasm other than build-wasm's, e.g. a build of a change).
 * Numbers only; nothing here is asserted (tests/web/align.test.mjs guards against breakage).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ALIGN_DIR = path.join(ROOT, 'tests/fixtures/align');

// The shipped read-out (engine/text/word_alignment.h AlignmentReadout, search/beam_search.h
// SearchOptions::readout_layer/head): kept in step with the engine by hand.
export const SHIPPED = { layer: 0, head: 1, shift: 1, columnMin: 0.1, punctuationMin: 0.05 };

// ---------------------------------------------------------------------------------------------
// The gold alignments.

/** The pairs of `set` ('dev' or 'guard'): texts, words, sure and possible links ("d,e", 0-based). */
export function loadGold(set = 'dev', dir = ALIGN_DIR) {
  const lines = (ext) => readFileSync(path.join(dir, `${set}.${ext}`), 'utf8').split('\n').filter((l, i, a) => i < a.length - 1 || l);
  const tsv = lines('tsv');
  const de = lines('de');
  const en = lines('en');
  const talp = lines('talp');
  const ids = lines('ids');
  return tsv.map((row, i) => {
    const [enText, deText] = row.split('\t');
    const sure = new Set();
    const possible = new Set();
    for (const link of talp[i].split(/\s+/).filter(Boolean)) {
      const m = /^(\d+)([-?])(\d+)$/.exec(link);
      if (!m) throw new Error(`${set}.talp line ${i + 1}: bad link ${link}`);
      const key = `${+m[1] - 1},${+m[3] - 1}`;
      possible.add(key);
      if (m[2] === '-') sure.add(key);
    }
    return { id: ids[i], en: enText, de: deText, enWords: en[i].split(' '), deWords: de[i].split(' '), sure, possible };
  });
}

/** Each word's start (UTF-16 offset) in `text`, found left to right; null if one is missing. */
export function wordStarts(text, words) {
  const out = [];
  let at = 0;
  for (const w of words) {
    const k = text.indexOf(w, at);
    if (k < 0) return null;
    out.push(k);
    at = k + w.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Running the engine.

const SENTENCE_END = /(?<=[.!?]["“”]?)\s+(?=["„“]?\p{Lu})/u;

/**
 * One pair through the translator (its direction: `fromDe`), the reference forced as the prefix.
 * A pair the engine reads as several sentences (a prefix needs one) is split at sentence ends,
 * when both sides split into as many pieces. Returns [{sentence, sourceAt, targetAt}] (the
 * pieces' offsets in the pair's texts), or null when it cannot be aligned.
 */
export async function translatePair(translator, pair, fromDe, options = {}) {
  const source = fromDe ? pair.de : pair.en;
  const target = fromDe ? pair.en : pair.de;
  const run = async (src, tgt) => {
    const r = await translator.translate(src, { prefix: tgt, alignments: true, allHeads: true, beam: 1, ...options });
    return r.sentences.length === 1 ? r.sentences[0] : null;
  };
  try {
    return [{ sentence: await run(source, target), sourceAt: 0, targetAt: 0 }];
  } catch (e) {
    if (!/one sentence/.test(String(e && e.message))) throw e;
  }
  const split = (text) => {
    const pieces = [];
    let at = 0;
    for (const part of text.split(SENTENCE_END)) {
      const k = text.indexOf(part, at);
      pieces.push([part, k]);
      at = k + part.length;
    }
    return pieces;
  };
  const sp = split(source);
  const tp = split(target);
  if (sp.length !== tp.length || sp.length < 2) return null;
  const out = [];
  for (let i = 0; i < sp.length; i++) {
    try {
      out.push({ sentence: await run(sp[i][0], tp[i][0]), sourceAt: sp[i][1], targetAt: tp[i][1] });
    } catch {
      return null;
    }
  }
  return out.every((p) => p.sentence) ? out : null;
}

// ---------------------------------------------------------------------------------------------
// Read-outs, recomputed from the attention as the engine computes them (text/word_alignment.cpp).

/** The word each token overlaps most (-1: none), as tokens_to_words. */
function tokenWords(tokenRanges, words) {
  return tokenRanges.map(([b, e]) => {
    let best = -1;
    let overlap = 0;
    words.forEach(([wb, we], k) => {
      const o = Math.min(e, we) - Math.max(b, wb);
      if (o > overlap) {
        overlap = o;
        best = k;
      }
    });
    return best;
  });
}

/**
 * The word matrix ([target words][source words], rows summing to 1 or all 0) of token rows
 * `rows` ([target tokens][source tokens]), as align_words pools them.
 */
export function poolWords(s, rows) {
  const sw = tokenWords(s.sourceTokens.map((t) => t.range), s.sourceWords);
  const tw = tokenWords(s.targetTokens.map((t) => t.range), s.targetWords);
  const tokensOf = s.targetWords.map((_, w) => tw.flatMap((x, t) => (x === w ? [t] : [])));
  tokensOf.forEach((list, w) => {  // a word that owns no token takes the tokens overlapping it
    if (list.length) return;
    const [b, e] = s.targetWords[w];
    s.targetTokens.forEach((tk, t) => { if (tk.range[0] < e && tk.range[1] > b) list.push(t); });
  });
  return tokensOf.map((list) => {
    const row = new Array(s.sourceWords.length).fill(0);
    for (const t of list) {
      if (!rows[t]) continue;
      rows[t].forEach((v, j) => { if (sw[j] >= 0 && v > 0) row[sw[j]] += v; });
    }
    const total = row.reduce((a, b) => a + b, 0);
    return total > 1e-6 ? row.map((v) => v / total) : row;
  });
}

/** Token rows of one head (or the mean of `heads`), at each token's own step or one step late. */
export function headRows(s, heads, shift) {
  const T = s.targetTokens.length;
  const row = (t) => {
    const out = new Array(s.sourceTokens.length).fill(0);
    for (const [l, h] of heads) s.heads[l][h][t].forEach((v, j) => { out[j] += v / heads.length; });
    return out;
  };
  const rowsAvailable = s.heads[0][0].length;
  return Array.from({ length: T }, (_, t) => (shift && t + 1 < rowsAvailable ? row(t + 1) : row(t)));
}

const isPunctuation = (text) => !/[\p{L}\p{N}]/u.test(text);

/** Links [target, source] of a word matrix: readout_links (argmax = columnMin Infinity, no rule = punctuationMin null). */
export function readoutLinks(M, targetPunct, sourcePunct, { columnMin = Infinity, punctuationMin = null } = {}) {
  const links = new Set();
  const kinds = punctuationMin !== null;
  const same = (t, j) => !kinds || targetPunct[t] === sourcePunct[j];
  M.forEach((row, t) => {
    let best = -1;
    row.forEach((v, j) => { if (same(t, j) && v > 0 && (best < 0 || v > row[best])) best = j; });
    if (best < 0) return;
    if (kinds && targetPunct[t] && row[best] < punctuationMin) return;
    links.add(`${t},${best}`);
  });
  if (Number.isFinite(columnMin) && M.length) {
    for (let j = 0; j < M[0].length; j++) {
      let best = -1;
      for (let t = 0; t < M.length; t++) if (same(t, j) && (best < 0 || M[t][j] > M[best][j])) best = t;
      if (best >= 0 && M[best][j] >= columnMin && M[best][j] > 0) links.add(`${best},${j}`);
    }
  }
  return [...links].map((k) => k.split(',').map(Number));
}

/** Symmetrization of links in gold coordinates ("d,e" sets): 'intersection' or 'grow-diag'. */
export function symmetrize(forward, reverse, how) {
  const kept = new Set([...forward].filter((k) => reverse.has(k)));
  if (how === 'intersection') return kept;
  const union = new Set([...forward, ...reverse]);
  const alignedD = new Set([...kept].map((k) => k.split(',')[0]));
  const alignedE = new Set([...kept].map((k) => k.split(',')[1]));
  for (let grew = true; grew;) {
    grew = false;
    for (const k of [...kept].sort()) {
      const [d, e] = k.split(',').map(Number);
      for (const [dd, de] of [[-1, 0], [0, -1], [1, 0], [0, 1], [-1, -1], [-1, 1], [1, -1], [1, 1]]) {
        const c = `${d + dd},${e + de}`;
        if (!union.has(c) || kept.has(c)) continue;
        if (alignedD.has(String(d + dd)) && alignedE.has(String(e + de))) continue;
        kept.add(c);
        alignedD.add(String(d + dd));
        alignedE.add(String(e + de));
        grew = true;
      }
    }
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// Scoring.

/**
 * One direction's run of a pair, ready to score: for each piece the engine's sentence and the
 * maps from its words to the gold's. `toGold(links)` turns [target, source] word links of piece k
 * into gold "d,e" keys.
 */
export function prepare(pair, pieces, fromDe) {
  const srcWords = fromDe ? pair.deWords : pair.enWords;
  const tgtWords = fromDe ? pair.enWords : pair.deWords;
  const srcText = fromDe ? pair.de : pair.en;
  const tgtText = fromDe ? pair.en : pair.de;
  const gs = wordStarts(srcText, srcWords);
  const gt = wordStarts(tgtText, tgtWords);
  if (!gs || !gt) throw new Error(`${pair.id}: the gold words are not in the text`);
  const parts = pieces.map(({ sentence: s, sourceAt, targetAt }) => {
    // a word of the sentence -> the gold word that starts where it starts in the pair's text
    const sBase = sourceAt + s.sourceRange[0];
    const tBase = targetAt + s.targetRange[0];
    const sMap = s.sourceWords.map((r) => gs.indexOf(sBase + r[0]));
    const tMap = s.targetWords.map((r) => gt.indexOf(tBase + r[0]));
    const sPunct = s.sourceWords.map(([b, e]) => isPunctuation(s.source.slice(b, e)));
    const tPunct = s.targetWords.map(([b, e]) => isPunctuation(s.target.slice(b, e)));
    return { s, sMap, tMap, sPunct, tPunct };
  });
  const toGold = (k, links) => {
    const { sMap, tMap } = parts[k];
    const out = new Set();
    for (const [t, j] of links) {
      const e = fromDe ? tMap[t] : sMap[j];
      const d = fromDe ? sMap[j] : tMap[t];
      if (d >= 0 && e >= 0) out.add(`${d},${e}`);
    }
    return out;
  };
  return { parts, toGold };
}

/** AER, precision and recall (in %) of [{links: Set, pair}] over all of them. */
export function score(items) {
  let A = 0;
  let S = 0;
  let AS = 0;
  let AP = 0;
  for (const { links, pair } of items) {
    A += links.size;
    S += pair.sure.size;
    for (const k of links) {
      if (pair.sure.has(k)) AS += 1;
      if (pair.possible.has(k)) AP += 1;
    }
  }
  return { aer: 100 * (1 - (AS + AP) / Math.max(1, A + S)), precision: (100 * AP) / Math.max(1, A), recall: (100 * AS) / Math.max(1, S) };
}

/** Gold links of one direction's read-out `cfg` over a prepared pair. */
export function readOut(prep, cfg) {
  const out = new Set();
  prep.parts.forEach(({ s, sPunct, tPunct }, k) => {
    const M = poolWords(s, headRows(s, cfg.heads, cfg.shift));
    for (const key of prep.toGold(k, readoutLinks(M, tPunct, sPunct, cfg))) out.add(key);
  });
  return out;
}

/** Gold links of the engine's own wordAlignments. */
export function engineLinks(prep) {
  const out = new Set();
  prep.parts.forEach(({ s }, k) => {
    for (const key of prep.toGold(k, (s.wordAlignments || []).map((a) => [a.target, a.source]))) out.add(key);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The bench.

const fmt = (r) => (r ? `${r.aer.toFixed(1).padStart(5)} ${r.precision.toFixed(1).padStart(5)} ${r.recall.toFixed(1).padStart(5)}` : '    -     -     -');

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, fallback) => {
    const k = args.indexOf(`--${name}`);
    return k >= 0 ? args[k + 1] : fallback;
  };
  const set = opt('set', 'dev');
  const limit = Number(opt('limit', 0));
  let pairs = loadGold(set);
  if (limit > 0) pairs = pairs.slice(0, limit);
  const { Translator } = await import(pathToFileURL(path.join(ROOT, 'web/translator.js')).href);

  const directions = [['de', 'en'], ['en', 'de']];
  const runs = {};  // 'de-en' -> [{pair, single, both}] (prepared; null when not aligned)
  const t0 = Date.now();
  for (const [from, to] of directions) {
    const engine = opt('engine', null);
    const engineUrl = engine ? pathToFileURL(path.resolve(engine, 'engine.js')).href : undefined;
    const t = await Translator.create({ from, to, rerank: true, workers: 1, ...(engineUrl ? { engineUrl } : {}) });
    const key = `${from}-${to}`;
    const layers = t.info.config.decoder_layers;
    const nHeads = t.info.config.n_heads;
    const alignmentLayer = t.info.alignment ? t.info.alignment.layer : layers - 1;
    runs[key] = { layers, nHeads, alignmentLayer, items: [] };
    for (const pair of pairs) {
      const single = await translatePair(t, pair, from === 'de', { rerank: false });
      const both = await translatePair(t, pair, from === 'de', { rerank: true });
      runs[key].items.push({ pair, single: single && prepare(pair, single, from === 'de'), both: both && prepare(pair, both, from === 'de') });
    }
    t.dispose();
  }
  const seconds = (Date.now() - t0) / 1000;

  const keys = directions.map(([f, t]) => `${f}-${t}`);
  const usable = pairs.filter((_, i) => keys.every((k) => runs[k].items[i].single && runs[k].items[i].both));
  const ok = new Set(usable);
  const itemsOf = (k) => runs[k].items.filter((x) => ok.has(x.pair));
  const rows = [];
  const line = (name, perDir) => {
    rows.push({ name, ...perDir });
    console.log(`${name.padEnd(52)} ${keys.map((k) => fmt(perDir[k])).join('   ')}`);
  };
  const evalCfg = (k, cfg, filter = () => true) => score(itemsOf(k).filter((x, i) => filter(i)).map((x) => ({ pair: x.pair, links: readOut(x.single, cfg) })));
  const allHeads = (k) => Array.from({ length: runs[k].nHeads }, (_, h) => [runs[k].alignmentLayer, h]);

  console.log(`Word alignment: tests/fixtures/align/${set} (${usable.length} of ${pairs.length} pairs aligned in both directions; reference forced as prefix; ${seconds.toFixed(0)} s)`);
  console.log(`${'AER precision recall (%)'.padEnd(52)} ${keys.map((k) => k.padEnd(17)).join('   ')}`);
  line('baseline: alignment layer, mean of heads, argmax', Object.fromEntries(keys.map((k) => [k, evalCfg(k, { heads: allHeads(k), shift: 0 })])));
  line('engine wordAlignments, one model', Object.fromEntries(keys.map((k) => [k, score(itemsOf(k).map((x) => ({ pair: x.pair, links: engineLinks(x.single) })))])));
  const shipped = { heads: [[SHIPPED.layer, SHIPPED.head]], shift: SHIPPED.shift, columnMin: SHIPPED.columnMin, punctuationMin: SHIPPED.punctuationMin };
  line(`read-out L${SHIPPED.layer}H${SHIPPED.head} shifted, argmax only`, Object.fromEntries(keys.map((k) => [k, evalCfg(k, { heads: shipped.heads, shift: 1 })])));
  line(`  + one-to-many (column >= ${SHIPPED.columnMin})`, Object.fromEntries(keys.map((k) => [k, evalCfg(k, { ...shipped, punctuationMin: null })])));
  line(`  + punctuation only with punctuation (>= ${SHIPPED.punctuationMin}): shipped`, Object.fromEntries(keys.map((k) => [k, evalCfg(k, shipped)])));

  // Symmetrized: one number for both directions (gold links are direction-free).
  const [kf, kr] = keys;
  const symItems = (how) => itemsOf(kf).map((x, i) => ({ pair: x.pair, links: symmetrize(readOut(x.single, shipped), readOut(itemsOf(kr)[i].single, shipped), how) }));
  const both = (r) => ({ [kf]: r, [kr]: r });
  line('both models, shipped read-outs, intersection', both(score(symItems('intersection'))));
  line('both models, shipped read-outs, grow-diag', both(score(symItems('grow-diag'))));
  line('engine wordAlignments, rerank: true (both models)', Object.fromEntries(keys.map((k) => [k, score(itemsOf(k).map((x) => ({ pair: x.pair, links: engineLinks(x.both) })))])));

  // Every head, at its own step and one step late (argmax only).
  console.log('\nEvery head, argmax per target word: own step / one step late (AER)');
  for (const k of keys) {
    const cells = [];
    for (let l = 0; l < runs[k].layers; l++)
      for (let h = 0; h < runs[k].nHeads; h++)
        cells.push(`L${l}H${h} ${evalCfg(k, { heads: [[l, h]], shift: 0 }).aer.toFixed(1)}/${evalCfg(k, { heads: [[l, h]], shift: 1 }).aer.toFixed(1)}`);
    console.log(`  ${k}: ${cells.join('  ')}`);
  }

  // Thresholds around the shipped ones.
  console.log('\nThresholds of the shipped head (AER): column_min x punctuation_min');
  const columns = [Infinity, 0.05, 0.1, 0.15, 0.2, 0.3];
  const puncts = [null, 0, 0.05, 0.1, 0.2];
  for (const k of keys) {
    for (const c of columns) {
      const cells = puncts.map((p) => evalCfg(k, { heads: shipped.heads, shift: 1, columnMin: c, punctuationMin: p }).aer.toFixed(1).padStart(5));
      console.log(`  ${k} column ${String(c).padEnd(8)} punct off/0/.05/.1/.2: ${cells.join(' ')}`);
    }
  }

  // 2-fold cross-validation: the head (any single head or a layer's mean, own step or shifted) and
  // the thresholds chosen on one half, scored on the other.
  console.log('\n2-fold cross-validation (chosen on the even pairs, scored on the odd, and the other way round)');
  const cv = {};
  for (const k of keys) {
    const candidates = [];
    for (let l = 0; l < runs[k].layers; l++) {
      for (let h = 0; h < runs[k].nHeads; h++) for (const shift of [0, 1]) candidates.push({ heads: [[l, h]], shift });
      for (const shift of [0, 1]) candidates.push({ heads: Array.from({ length: runs[k].nHeads }, (_, h) => [l, h]), shift });
    }
    const picks = [];
    const held = [];
    for (const fold of [0, 1]) {
      const on = (i) => i % 2 === fold;
      const off = (i) => i % 2 !== fold;
      let best = null;
      for (const c of candidates) {
        const r = evalCfg(k, c, on).aer;
        if (!best || r < best.r) best = { c, r };
      }
      let bestT = null;
      for (const columnMin of columns)
        for (const punctuationMin of puncts) {
          const c = { ...best.c, columnMin, punctuationMin };
          const r = evalCfg(k, c, on).aer;
          if (!bestT || r < bestT.r) bestT = { c, r };
        }
      picks.push(bestT.c);
      held.push(...itemsOf(k).filter((x, i) => off(i)).map((x) => ({ pair: x.pair, links: readOut(x.single, bestT.c) })));
    }
    cv[k] = score(held);
    const name = (c) => `${c.heads.length > 1 ? `L${c.heads[0][0]} mean` : `L${c.heads[0][0]}H${c.heads[0][1]}`}${c.shift ? ' shifted' : ''}, column ${c.columnMin}, punctuation ${c.punctuationMin}`;
    console.log(`  ${k}: picked [${picks.map(name).join('] and [')}]`);
  }
  line('cross-validated, one model', cv);

  const json = opt('json', null);
  if (json) writeFileSync(json, `${JSON.stringify({ set, pairs: pairs.length, aligned: usable.length, seconds, rows }, null, 1)}\n`);
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] || '').href) {
  main().catch((e) => {
    console.error(e && e.stack ? e.stack : e);
    process.exit(1);
  });
}
