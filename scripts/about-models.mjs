/**
 * The facts behind the demo page's "About the models" card, gathered at build time so that no
 * number on the page is a hand copy that goes stale: each model's size (the manifest), its scores
 * (the scores.json next to each model file, written by weights/recipe/evaluate.py), the card's
 * parameter count, training data and licence (the model card, README.md next to the manifest), and
 * the peers' published scores on the same test set (peers.json next to the manifest, which names
 * its source). scripts/build-web.mjs writes the result as models/about.json.
 *
 * Anything missing (the test fixture has no card, scores or peers) is left out, and the page says
 * so; a card whose layout changed loses only the parts that can no longer be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The dev sets the page shows, in this order, with the words it uses for them. */
export const SCORE_SETS = [
  { key: 'flores-dev', name: 'FLORES dev', what: 'Wikipedia-style prose' },
  { key: 'tatoeba-dev', name: 'Tatoeba dev', what: 'short everyday sentences' },
  { key: 'multi30k-test2016', name: 'Multi30k test 2016', what: 'image captions' },
];

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Markdown inline formatting off: **bold**, `code`, [text](url) → plain text. */
export function plain(md) {
  return md.replace(/\*\*([^*]+)\*\*/g, '$1').replace(/`([^`]+)`/g, '$1').replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\s+/g, ' ').trim();
}

/** The rows of the first markdown table whose header row satisfies `isHeader`: [{header: cell}]. */
function table(lines, isHeader) {
  const cells = (line) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
  const start = lines.findIndex((l) => l.trim().startsWith('|') && isHeader(cells(l)));
  if (start < 0) return [];
  const header = cells(lines[start]);
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].trim().startsWith('|'); i++) {
    const c = cells(lines[i]);
    rows.push(Object.fromEntries(header.map((h, k) => [h || String(k), c[k] ?? ''])));
  }
  return rows;
}

/** The first number in `text` (thousands separators allowed), or null. */
const number = (text) => {
  const m = /(\d[\d,]*(?:\.\d+)?)/.exec(text || '');
  return m ? Number(m[1].replace(/,/g, '')) : null;
};

/** What the page needs from the model card: parameters, intended use, the training data, the licence. */
export function readCard(markdown) {
  const lines = markdown.split('\n');
  const out = {};
  // The key/value table at the top.
  const facts = table(lines, (h) => h.length === 2 && !h[0] && !h[1]);
  for (const row of facts) {
    const [k, v] = Object.values(row);
    if (k === 'parameters') out.parameters = plain(v);
    if (k === 'intended use') out.intendedUse = plain(v);
  }
  // The data table: one row per source.
  const data = table(lines, (h) => h[0] === 'source' && h.some((x) => /^domain/.test(x)));
  if (data.length) {
    const col = (row, re) => { const k = Object.keys(row).find((h) => re.test(h)); return k ? row[k] : ''; };
    out.data = data.map((row) => {
      const source = plain(col(row, /^source$/));
      return {
        source,
        synthetic: /back-translation/i.test(source),
        pairs: number(col(row, /^pairs/)),
        pairsText: plain(col(row, /^pairs/)),
        share: number(col(row, /^share/)),
        domain: plain(col(row, /^domain/)),
        licence: plain(col(row, /^licence/)),
      };
    }).filter((d) => d.source);
  }
  // The licence bullet under Limitations ("- **Licence:** …", maybe over several lines).
  const at = lines.findIndex((l) => /^\s*-\s+\*\*Licen[cs]e:?\*\*/.test(l));
  if (at >= 0) {
    let text = lines[at];
    for (let i = at + 1; i < lines.length && /^\s{2,}\S/.test(lines[i]); i++) text += ` ${lines[i]}`;
    out.licence = plain(text.replace(/^\s*-\s+\*\*Licen[cs]e:?\*\*/, '')).replace(/\s*\(see [^)]*\)/g, '');
  }
  return out;
}

/** One model's scores from its scores.json: per set, int8 beam 4 BLEU and chrF and the sentence count. */
export function readScores(scores) {
  const sets = {};
  for (const { key } of SCORE_SETS) {
    const s = scores && scores.sets && scores.sets[key];
    const beam = s && s.int8_beam4;
    if (beam && typeof beam.bleu === 'number') sets[key] = { bleu: beam.bleu, chrf: beam.chrf, sentences: s.sentences };
  }
  return Object.keys(sets).length ? sets : null;
}

/**
 * The summary: `manifestPath` (its folder holds README.md and peers.json), `entries` the manifest's
 * models as built ({from, to, bytes, source: path of the model file}), `engineBytes` engine.wasm's
 * size, `codeLicence` the code's licence (package.json), `root` what the file names in builtFrom are
 * relative to (the repository).
 */
export function aboutModels({ manifestPath, entries, engineBytes, codeLicence, root = path.dirname(manifestPath) }) {
  const dir = path.dirname(manifestPath);
  const sources = [path.basename(manifestPath)];
  const models = entries.map((m) => {
    const scoresFile = path.join(path.dirname(m.source), 'scores.json');
    const model = { from: m.from, to: m.to, bytes: m.bytes };
    if (existsSync(scoresFile)) {
      const scores = readScores(readJson(scoresFile));
      if (scores) {
        model.scores = scores;
        model.scoresFrom = path.relative(dir, scoresFile).split(path.sep).join('/');
        sources.push(model.scoresFrom);
      }
    }
    return model;
  });
  const about = { models, engineBytes, sets: SCORE_SETS };
  if (codeLicence) about.codeLicence = codeLicence;
  const cardFile = path.join(dir, 'README.md');
  if (existsSync(cardFile)) {
    about.card = readCard(readFileSync(cardFile, 'utf8'));
    sources.push('README.md');
  }
  const peersFile = path.join(dir, 'peers.json');
  if (existsSync(peersFile)) {
    const { comment: _c, ...peers } = readJson(peersFile);
    about.peers = peers;
    sources.push('peers.json');
  }
  about.builtFrom = sources.map((f) => path.relative(root, path.join(dir, f)).split(path.sep).join('/'));
  return about;
}
