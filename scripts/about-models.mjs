/**
 * The facts behind the demo page's "About the models" card, gathered at build time so that no
 * number on the page is a hand copy that goes stale. They come from the model card's machine-readable
 * facts, weights/card.json (card.json next to the manifest): each model's scores and parameters
 * (its `shipped` part, written by weights/recipe/make_card.py from the shipped files), the training
 * data, the licence, the intended use, what the models get wrong (its limitations, each with an
 * example) and the peers' published scores on the same test set (with their source). Each model's size is the built file's own. scripts/build-web.mjs writes the result
 * as models/about.json.
 *
 * A build without card.json (the test fixture) gets sizes only, and the page says so; a card.json
 * that lacks a part loses only that part.
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
const isObject = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);

/** A data row's pairs as one number (the first direction's for a per-direction count) and as text. */
function pairsOf(row) {
  if (typeof row.pairs === 'number') return { pairs: row.pairs, pairsText: row.pairs.toLocaleString('en') };
  if (!isObject(row.pairs)) return { pairs: null, pairsText: '' };
  const counts = Object.entries(row.pairs);
  return {
    pairs: counts.length ? counts[0][1] : null,
    pairsText: counts.map(([d, n]) => `${n.toLocaleString('en')} (${d.replace('-', '→')})`).join(' / '),
  };
}

/**
 * card.json's limitations as the page shows them: {summary, items: [{title, text, example: {from, to,
 * source, output, wrong}}]}, without the card-only detail; an entry lacking its title or sentence is
 * left out, an example lacking its source or output too. Null when there are none.
 */
export function readLimitations(limits) {
  if (!isObject(limits) || !Array.isArray(limits.items)) return null;
  const str = (x) => (typeof x === 'string' && x.trim() ? x : null);
  const items = limits.items.filter((i) => isObject(i) && str(i.title) && str(i.text)).map((i) => {
    const item = { title: i.title, text: i.text };
    const ex = i.example;
    if (isObject(ex) && str(ex.source) && str(ex.output) && /^[a-z]{2}-[a-z]{2}$/.test(ex.direction || '')) {
      const [from, to] = ex.direction.split('-');
      item.example = { from, to, source: ex.source, output: ex.output, wrong: str(ex.wrong) || '' };
    }
    return item;
  });
  if (!items.length) return null;
  return { summary: str(limits.summary) || '', items };
}

/**
 * What the page needs from card.json besides the scores: parameters, intended use, the training data
 * (one row per source: {source, synthetic, pairs, pairsText, share, domain, licence}), the licence,
 * the limitations (readLimitations).
 */
export function readCard(card) {
  const out = {};
  if (!isObject(card)) return out;
  const params = [...new Set(Object.values(card.shipped || {}).map((s) => s && s.parameters).filter((n) => typeof n === 'number'))];
  if (params.length) out.parameters = params[0];
  if (card.model && typeof card.model.intended_use === 'string') out.intendedUse = card.model.intended_use;
  const sources = card.data && Array.isArray(card.data.sources) ? card.data.sources : [];
  if (sources.length) {
    out.data = sources.filter((r) => isObject(r) && r.source).map((r) => ({
      source: r.source,
      synthetic: Boolean(r.synthetic),
      ...pairsOf(r),
      share: typeof r.share_percent === 'number' ? r.share_percent : null,
      domain: r.domain || '',
      licence: r.licence || '',
    }));
  }
  if (typeof card.licence === 'string') out.licence = card.licence;
  const limitations = readLimitations(card.limitations);
  if (limitations) out.limitations = limitations;
  return out;
}

/** One model's scores from card.json's shipped part: per set shown, int8 beam 4 BLEU and chrF and the sentence count. */
export function readScores(shipped) {
  const sets = {};
  for (const { key } of SCORE_SETS) {
    const s = shipped && shipped.scores && shipped.scores[key];
    if (s && typeof s.bleu === 'number') sets[key] = { bleu: s.bleu, chrf: s.chrf, sentences: s.sentences };
  }
  return Object.keys(sets).length ? sets : null;
}

/**
 * The summary: `manifestPath` (its folder may hold card.json), `entries` the manifest's models as
 * built ({from, to, bytes}), `engineBytes` engine.wasm's size, `codeLicence` the code's licence
 * (package.json), `root` what the file names in builtFrom are relative to (the repository).
 */
export function aboutModels({ manifestPath, entries, engineBytes, codeLicence, root = path.dirname(manifestPath) }) {
  const dir = path.dirname(manifestPath);
  const cardFile = path.join(dir, 'card.json');
  const card = existsSync(cardFile) ? readJson(cardFile) : null;
  const sources = [path.basename(manifestPath)];
  const models = entries.map((m) => {
    const model = { from: m.from, to: m.to, bytes: m.bytes };
    // Scores only for the file they were measured on (make_card.py records its size; the card test its hash).
    const shipped = card && (card.shipped || {})[`${m.from}-${m.to}`];
    const scores = shipped && shipped.bytes === m.bytes ? readScores(shipped) : null;
    if (scores) model.scores = scores;
    return model;
  });
  const about = { models, engineBytes, sets: SCORE_SETS };
  if (codeLicence) about.codeLicence = codeLicence;
  if (card) {
    about.card = readCard(card);
    if (isObject(card.peers)) about.peers = card.peers;
    sources.push('card.json');
    about.scoresFrom = path.relative(root, cardFile).split(path.sep).join('/');
  }
  about.builtFrom = sources.map((f) => path.relative(root, path.join(dir, f)).split(path.sep).join('/'));
  return about;
}
