/**
 * "About the models" (#model-info): a short card a newcomer can read, built from models/about.json,
 * which scripts/build-web.mjs makes from the manifest and the model card's facts (weights/card.json:
 * scores, parameters, data, licence and the peers' published scores): the size and the first
 * download, what the models were trained on, the licence, their scores next to the peers' on the
 * same test set with where each number comes from, and what they get wrong (card.json's limitations,
 * each with an example; the model card's Limitations are made from the same entries). Under
 * "Technical details", each loaded model's facts (the Transformer's shape, how it
 * was trained, for "Best" which model checks the candidates) and, once opened, its raw provenance.
 */
import { $, el, text, formatBytes } from './dom.js';
import { langName, fromOf, toOf } from './state.js';

export const aboutUrl = new URL('./models/about.json', document.baseURI);

const node = (tag, value, className) => {
  const n = document.createElement(tag);
  if (value !== undefined) n.textContent = value;
  if (className) n.className = className;
  return n;
};
const dirName = (m) => `${langName(m.from)} → ${langName(m.to)}`;
const fmt = (x) => (typeof x === 'number' ? x.toFixed(1) : '–');
const pct = (x) => `${Math.round(x)}%`;

/** "news, human references (WMT 2020–23)" → "news": a domain's words before any comma or bracket. */
const shortDomain = (d) => d.split(/\s*[,(;]/)[0].trim();

/**
 * The training data in one sentence: the pairs, how many sources, the largest kinds of text by their
 * share (sources grouped by the first part of their name: news, news-recent and news-mt are news),
 * and the back-translated sentences.
 */
export function describeData(data) {
  const real = data.filter((d) => !d.synthetic && d.pairs);
  if (!real.length) return null;
  const pairs = real.reduce((n, d) => n + d.pairs, 0);
  const groups = new Map();
  for (const d of real) {
    const key = d.source.replace(/\s*\(.*\)$/, '').split('-')[0];
    const g = groups.get(key) || { share: 0, lead: d };
    g.share += d.share || 0;
    if ((d.share || 0) > (g.lead.share || 0)) g.lead = d;
    groups.set(key, g);
  }
  const top = [...groups.values()].filter((g) => g.share > 0).sort((a, b) => b.share - a.share).slice(0, 4);
  let out = `${pairs.toLocaleString('en')} English–German sentence pairs from ${real.length} public sources`;
  if (top.length) out += ` (share of the text: ${top.map((g) => `${shortDomain(g.lead.domain)} ${pct(g.share)}`).join(', ')}, others less)`;
  const synthetic = data.find((d) => d.synthetic && d.pairs);
  if (synthetic) out += `, plus about ${Math.round(synthetic.pairs / 1000)}k sentences of news translated by the models themselves (back-translation)`;
  return `${out}.`;
}

function fact(list, term, value, id) {
  const dd = node('dd', value);
  if (id) dd.id = id;
  list.append(node('dt', term), dd);
}

/** Fills the card from about.json (see scripts/about-models.mjs for its fields). */
export function showAbout(about) {
  const facts = $('about-facts');
  const models = about.models || [];
  const card = about.card || {};
  facts.replaceChildren();
  if (models.length) {
    const sizes = [...new Set(models.map((m) => formatBytes(m.bytes)))];
    const params = typeof card.parameters === 'number' ? `${(card.parameters / 1e6).toFixed(1)} M` : null;
    fact(facts, 'Size', `${sizes.join(' / ')} per direction${params ? `, ${params} parameters` : ''}, stored as 8-bit integers`, 'about-size');
    if (about.engineBytes) {
      fact(facts, 'First download', `${formatBytes(about.engineBytes + models[0].bytes)}: the translation engine (${formatBytes(about.engineBytes)}) and one direction's model; the other direction downloads when you first use it. After that it works offline.`);
    }
  }
  const data = card.data && describeData(card.data);
  if (data) fact(facts, 'Trained on', data, 'about-data-summary');
  if (card.licence || about.codeLicence) {
    fact(facts, 'Licence', [card.licence && `Models: ${card.licence}`, about.codeLicence && `Code: ${about.codeLicence}.`].filter(Boolean).join(' '), 'about-licence');
  }
  if (card.intendedUse) fact(facts, 'Made for', `${card.intendedUse}.`);
  showScores(about);
  showLimitations(card.limitations);
  showDataTable(card.data || []);
}

/** A span of text in one language (so that a screen reader reads it in that language's voice). */
const quoted = (value, lang) => Object.assign(node('span', `“${value}”`), { lang });

/**
 * "What they get wrong": per limitation its title, its plain sentence and its example (what was
 * typed → what the model wrote, and what is wrong in it). Without limitations (a build
 * with no card.json) the list stays hidden and only the fixed sentence above it shows.
 */
function showLimitations(limits) {
  const list = $('about-limits');
  list.replaceChildren();
  list.hidden = !(limits && limits.items && limits.items.length);
  if (list.hidden) return;
  if (limits.summary) text($('about-limits-summary'), limits.summary);
  for (const item of limits.items) {
    const li = node('li');
    li.append(node('strong', `${item.title}.`), ` ${item.text}`);
    const ex = item.example;
    if (ex) {
      const line = node('span', undefined, 'muted about-example');
      line.append(quoted(ex.source, ex.from), ' → ', quoted(ex.output, ex.to),
        ex.wrong ? ` (${ex.wrong}).` : '.');
      li.append(' ', line);
    }
    list.append(li);
  }
}

function showScores(about) {
  const table = $('about-scores');
  const more = $('about-scores-more');
  const sources = $('about-sources');
  table.replaceChildren();
  text(more, '');
  sources.replaceChildren();
  const models = (about.models || []).filter((m) => m.scores);
  const set = (about.sets || [])[0];
  if (!models.length || !set) {
    text(more, 'No scores: this build uses a test model.');
    return;
  }
  const peers = about.peers && about.peers.set === set.key ? about.peers : null;
  const first = models[0].scores[set.key];
  const caption = node('caption', `BLEU on ${set.name} (${first ? `${first.sentences} ` : ''}sentences of ${set.what}): 0–100, higher is better`);
  const head = node('tr');
  head.append(node('th', 'Translator'), ...models.map((m) => Object.assign(node('th', dirName(m)), { scope: 'col' })));
  const row = (name, title, values, className) => {
    const tr = node('tr', undefined, className);
    const th = Object.assign(node('th', name), { scope: 'row' });
    if (title) th.title = title;
    tr.append(th, ...values.map((v) => node('td', fmt(v))));
    return tr;
  };
  const body = node('tbody');
  body.append(row('This translator', 'int8 models, beam search of 4 hypotheses', models.map((m) => m.scores[set.key] && m.scores[set.key].bleu), 'ours'));
  for (const p of (peers && peers.systems) || []) {
    body.append(row(p.name, p.what, models.map((m) => p.scores[`${m.from}-${m.to}`])));
  }
  const thead = node('thead');
  thead.append(head);
  table.append(caption, thead, body);

  // The other dev sets, ours only (the peers publish no scores on them).
  const others = (about.sets || []).slice(1).filter((s) => models.every((m) => m.scores[s.key]));
  if (others.length) {
    const [a, b] = others;
    const both = (set, named) => models.map((m) => `${fmt(m.scores[set.key].bleu)}${named ? ` (${dirName(m)})` : ''}`).join(' and ');
    text(more, `On easier text it does better: ${both(a, true)} on ${a.what} (${a.name})${b ? `; ${both(b, false)} on ${b.what} (${b.name})` : ''}. ` +
      'BLEU compares a translation with one reference translation word by word, so good translations worded differently score lower too.');
  }
  sources.append(`Where the numbers come from: ours from ${about.scoresFrom || 'the model card'} in the project's repository (measured by weights/recipe/evaluate.py, gathered by make_card.py)`);
  if (peers && peers.source) {
    const a = node('a', peers.source.name);
    a.href = peers.source.url;
    a.rel = 'noopener noreferrer';
    sources.append('; the others from ', a);
  }
  sources.append('.');
}

function showDataTable(data) {
  const table = $('about-data-table');
  table.replaceChildren();
  $('about-data').hidden = !data.length;
  if (!data.length) return;
  const thead = node('thead');
  const head = node('tr');
  head.append(...['Source', 'Kind of text', 'Sentence pairs', 'Licence'].map((h) => Object.assign(node('th', h), { scope: 'col' })));
  thead.append(head);
  const body = node('tbody');
  for (const d of data) {
    const tr = node('tr');
    tr.append(Object.assign(node('th', d.source), { scope: 'row' }), node('td', d.domain), node('td', d.pairsText || (d.pairs || '').toLocaleString('en')), node('td', d.licence));
    body.append(tr);
  }
  table.append(thead, body);
}

/** Reads models/about.json and fills the card; a build without it leaves the card's fixed text. */
export async function loadAbout() {
  try {
    const response = await fetch(aboutUrl);
    if (!response.ok) return;
    showAbout(await response.json());
  } catch { /* offline before the first visit cached it: the fixed text stays */ }
}

const provenance = new Map(); // 'English → German' → the engine's provenance JSON of that model

function showProvenance() {
  const box = $('model-provenance');
  box.replaceChildren();
  for (const [name, value] of provenance) {
    box.append(node('h4', `Provenance, ${name} (raw)`, 'about-subheading'), node('pre', JSON.stringify(value, null, 1), 'provenance'));
  }
}

/** Adds a loaded model's facts under "Technical details"; its raw provenance shows there once opened. */
export function showModelInfo(dir, info) {
  if (!info) return;
  const add = (k, v) => {
    el.modelDl.append(text(document.createElement('dt'), k), text(document.createElement('dd'), v));
  };
  const c = info.config || {};
  if (info.reverse) {
    add('Reranking', `${langName(toOf(dir))} → ${langName(fromOf(dir))} model (${formatBytes(info.reverse.bytes)}) checks the ${langName(fromOf(dir))} → ${langName(toOf(dir))} beam's candidates`);
    return;
  }
  const name = `${langName(fromOf(dir))} → ${langName(toOf(dir))}`;
  add(name,
    `${formatBytes(info.file_bytes)}, int8 · Transformer: ${c.encoder_layers} encoder and ${c.decoder_layers} decoder layers, ` +
    `width ${c.d_model}, ${c.n_heads} attention heads, ${c.vocab_size} word pieces shared by both languages`);
  const train = (info.provenance || {}).train || {};
  if (train.seconds) {
    const hours = (train.seconds / 3600).toFixed(0);
    const tokens = train.target_tokens ? `, ${(train.target_tokens / 1e6).toFixed(0)} million target word pieces seen` : '';
    add('Training', `trained by this project on a 2-core CPU: ${train.rounds || 1} rounds, about ${hours} hours` +
      `${train.epochs ? `, ${train.epochs.toFixed(1)} passes over the data` : ''}${tokens}`);
  }
  if (info.provenance) {
    provenance.set(name, info.provenance);
    if ($('model-details').open) showProvenance();
  }
}

/** The raw provenance is drawn only while "Technical details" is open (it is long). */
export function bindModelInfo() {
  const details = $('model-details');
  details.addEventListener('toggle', () => {
    if (details.open) showProvenance();
    else $('model-provenance').replaceChildren();
  });
}
