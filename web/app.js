/**
 * The demo page: translation as you type (debounced; a newer request aborts the older one), the
 * model download progress, the output with a copy button and speed figures, the word alignment
 * view (hover, tap or focus a word to light up the words aligned to it, with the colour strength
 * following the soft alignment weight) and the cross-attention heatmap (mean of heads, or any
 * decoder layer and head). All model text is inserted with textContent / text nodes, never as HTML.
 * The model runs in a Web Worker behind translator.js; this file only draws.
 */
import { Translator, listModels, hasWasmSimd } from './translator.js';

const $ = (id) => document.getElementById(id);
const NAMES = { en: 'English', de: 'German' };
const langName = (code) => NAMES[code] || code;
const DEBOUNCE_MS = 250;

const el = {
  body: document.body,
  load: $('load'), loadLabel: $('load-label'), loadDetail: $('load-detail'), loadProgress: $('load-progress'),
  error: $('error'),
  direction: $('direction'), swap: $('swap'), beam: $('beam'),
  source: $('source'), sourceLabel: $('source-label'), count: $('count'), clear: $('clear'),
  target: $('target'), targetLabel: $('target-label'), status: $('status'), stats: $('stats'), copy: $('copy'),
  prev: $('prev-sent'), next: $('next-sent'), sentPos: $('sent-pos'),
  alignSource: $('align-source'), alignTarget: $('align-target'),
  alignSourceLabel: $('align-source-label'), alignTargetLabel: $('align-target-label'), alignDetail: $('align-detail'),
  attention: $('attention'), headSelect: $('head-select'), heatStatus: $('heat-status'), heatmap: $('heatmap'), heatCell: $('heat-cell'),
  modelDl: $('model-dl'), offline: $('offline-status'),
};

const manifestUrl = new URL('./models/manifest.json', document.baseURI);

const state = {
  models: [],
  dir: 'en-de',
  translators: new Map(), // 'en-de' → Promise<Translator>
  loading: 0,
  controller: null, // AbortController of the current request
  seq: 0,
  timer: 0,
  result: null, // the last complete Translation
  resultDir: null,
  sel: 0, // selected sentence
  pinned: null, // {side, w} pinned by a tap/click
  outWords: [], // [sentence][targetWord] → span in the output pane
  cardWords: { s: [], t: [] },
  heads: null, // {key, sentence} with all heads, for the heatmap
  headsController: null,
  heatCursor: null,
};

// ---------------------------------------------------------------------------------------------
// Small helpers

function text(node, value) {
  node.textContent = value;
  return node;
}

function span(className, value) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = value;
  return s;
}

function formatBytes(n) {
  if (!n) return '0 MB';
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`;
}

function showError(message) {
  if (!message) {
    el.error.hidden = true;
    el.error.textContent = '';
    return;
  }
  el.error.textContent = message;
  el.error.hidden = false;
}

function setState(s) {
  el.body.dataset.state = s;
}

const [fromOf, toOf] = [(dir) => dir.split('-')[0], (dir) => dir.split('-')[1]];

// ---------------------------------------------------------------------------------------------
// Models and the service worker

async function registerServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) {
    text(el.offline, 'Offline use needs HTTPS (or localhost).');
    return;
  }
  try {
    const hadController = !!navigator.serviceWorker.controller;
    await navigator.serviceWorker.register('./sw.js', { scope: './' });
    if (!hadController) {
      // First visit: wait (briefly) until the new service worker controls the page, so the model
      // downloads below pass through it and are cached the first time.
      await Promise.race([
        new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })),
        new Promise((resolve) => setTimeout(resolve, 3000)),
      ]);
    }
  } catch (e) {
    console.warn('Service worker registration failed:', e);
    text(el.offline, 'Offline use is not available in this browser.');
  }
}

/** Asks the service worker to save every model for offline use; marks the page when done. */
async function cacheModelsForOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  try {
    const reg = await navigator.serviceWorker.ready;
    if (!reg.active) return;
    const channel = new MessageChannel();
    const done = new Promise((resolve) => { channel.port1.onmessage = (e) => resolve(e.data); });
    reg.active.postMessage({ type: 'cache-models' }, [channel.port2]);
    const reply = await done;
    if (reply && reply.ok) {
      text(el.offline, 'Saved for offline use.');
      document.documentElement.dataset.offline = 'ready';
    } else if (reply) {
      text(el.offline, `Not all files could be saved for offline use (${reply.error || 'unknown error'}).`);
    }
  } catch (e) {
    console.warn('Caching for offline use failed:', e);
  }
}

function showLoading() {
  el.load.hidden = state.loading === 0;
}

/**
 * The Search setting: greedy, beam 4, or beam 4 reranked by the other direction's model (which
 * needs a translator created with that model too, kept apart from the plain one).
 */
function searchSettings() {
  const v = el.beam.value;
  return { beam: v === '1' ? 1 : 4, rerank: v === '4r' };
}

function getTranslator(dir, rerank = searchSettings().rerank) {
  const key = rerank ? `${dir}+rerank` : dir;
  let p = state.translators.get(key);
  if (p) return p;
  const name = rerank ? `${langName(fromOf(dir))} ↔ ${langName(toOf(dir))}` : `${langName(fromOf(dir))} → ${langName(toOf(dir))}`;
  state.loading += 1;
  showLoading();
  text(el.loadLabel, `Downloading the ${name} model…`);
  text(el.loadDetail, '');
  el.loadProgress.removeAttribute('value');
  const onProgress = (p) => {
    if (p.phase === 'download') {
      text(el.loadLabel, `Downloading the ${name} model${rerank ? 's' : ''}…`);
      if (p.total > 0) {
        el.loadProgress.max = p.total;
        el.loadProgress.value = p.loaded;
        text(el.loadDetail, `${formatBytes(p.loaded)} of ${formatBytes(p.total)}`);
      }
    } else {
      text(el.loadLabel, p.phase === 'compile' ? 'Starting the translation engine…' : p.phase === 'verify' ? 'Checking the model…' : 'Loading the model…');
      el.loadProgress.removeAttribute('value');
      text(el.loadDetail, p.total ? formatBytes(p.total) : '');
    }
    if (!state.translators.get(key)?.settled) {
      el.load.hidden = false;
    }
  };
  p = Translator.create({ from: fromOf(dir), to: toOf(dir), manifestUrl, onProgress, rerank });
  state.translators.set(key, p);
  p.then((t) => {
    p.settled = true;
    showModelInfo(dir, t.info);
    if (state.translators.size === 1) cacheModelsForOffline();
  }, () => {
    state.translators.delete(key); // try again next time
  }).finally(() => {
    state.loading -= 1;
    showLoading();
  });
  return p;
}

function showModelInfo(dir, info) {
  if (!info) return;
  const add = (k, v) => {
    el.modelDl.append(text(document.createElement('dt'), k), text(document.createElement('dd'), v));
  };
  const c = info.config || {};
  if (info.reverse) {
    add('Reranking', `${langName(toOf(dir))} → ${langName(fromOf(dir))} model (${formatBytes(info.reverse.bytes)}) checks the ${langName(fromOf(dir))} → ${langName(toOf(dir))} beam's candidates`);
    return;
  }
  add(`${langName(fromOf(dir))} → ${langName(toOf(dir))}`,
    `${formatBytes(info.file_bytes)}, int8 · Transformer: ${c.encoder_layers} encoder and ${c.decoder_layers} decoder layers, ` +
    `width ${c.d_model}, ${c.n_heads} attention heads, ${c.vocab_size} word pieces shared by both languages`);
  const train = (info.provenance || {}).train || {};
  if (train.seconds) {
    const hours = (train.seconds / 3600).toFixed(0);
    const tokens = train.target_tokens ? `, ${(train.target_tokens / 1e6).toFixed(0)} million target word pieces seen` : '';
    add('Training', `trained by this project on a 2-core CPU: ${train.rounds || 1} rounds, about ${hours} hours` +
      `${train.epochs ? `, ${train.epochs.toFixed(1)} passes over the data` : ''}${tokens}`);
  }
}

// ---------------------------------------------------------------------------------------------
// ---------------------------------------------------------------------------------------------
// Direction

function applyDirection() {
  const from = fromOf(state.dir);
  const to = toOf(state.dir);
  text(el.sourceLabel, langName(from));
  text(el.targetLabel, langName(to));
  text(el.alignSourceLabel, langName(from));
  text(el.alignTargetLabel, langName(to));
  el.source.lang = from;
  el.target.lang = to;
  el.alignSource.lang = from;
  el.alignTarget.lang = to;
  el.direction.value = state.dir;
  try { localStorage.setItem('nmt.direction', state.dir); } catch { /* private mode */ }
}

function setDirection(dir, { swapText = false } = {}) {
  if (!state.models.some((m) => `${m.from}-${m.to}` === dir)) return;
  if (swapText && state.result && state.resultDir === state.dir) {
    el.source.value = state.result.text;
    updateCount();
  }
  state.dir = dir;
  applyDirection();
  clearOutput();
  getTranslator(dir).catch(() => {});
  translateNow();
}

// ---------------------------------------------------------------------------------------------
// Translating

function updateCount() {
  const n = el.source.value.length;
  text(el.count, `${n.toLocaleString()} character${n === 1 ? '' : 's'}`);
}

function scheduleTranslate() {
  clearTimeout(state.timer);
  state.timer = setTimeout(translateNow, DEBOUNCE_MS);
}

function clearOutput() {
  state.result = null;
  el.target.replaceChildren();
  el.target.dataset.sentences = '0';
  el.copy.disabled = true;
  text(el.stats, '');
  state.outWords = [];
  selectSentence(0);
}

async function translateNow() {
  clearTimeout(state.timer);
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  const seq = ++state.seq;
  const input = el.source.value;
  const dir = state.dir;
  if (!input.trim()) {
    clearOutput();
    text(el.status, '');
    el.target.setAttribute('aria-busy', 'false');
    setState('idle');
    return;
  }
  setState('translating');
  el.target.setAttribute('aria-busy', 'true');
  text(el.status, 'Translating…');
  try {
    const t = await getTranslator(dir);
    if (controller.signal.aborted) return;
    showError('');
    const { beam } = searchSettings();
    const result = await t.translate(input, {
      beam,
      alignments: true,
      signal: controller.signal,
      onProgress: (p) => {
        if (seq !== state.seq) return;
        const pct = Math.round((100 * p.done) / Math.max(1, p.total));
        text(el.status, `Translating… ${pct}%`);
        renderPartial(p.text);
      },
    });
    if (seq !== state.seq) return;
    state.result = result;
    state.resultDir = dir;
    state.heads = null;
    render(result);
    setState('done');
    text(el.status, '');
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    if (seq !== state.seq) return;
    setState('error');
    text(el.status, '');
    showError(e && e.message ? e.message : String(e));
  } finally {
    if (seq === state.seq) el.target.setAttribute('aria-busy', 'false');
  }
}

function renderPartial(partialText) {
  el.target.replaceChildren(document.createTextNode(partialText));
}

function render(result) {
  const frag = document.createDocumentFragment();
  state.outWords = [];
  let pos = 0;
  result.sentences.forEach((s, i) => {
    const [b, e] = s.targetRange;
    if (b > pos) frag.append(result.text.slice(pos, b));
    const sent = document.createElement('span');
    sent.className = 'sent';
    sent.dataset.s = String(i);
    state.outWords[i] = appendWords(sent, s.target, s.targetWords, 't', i, false);
    frag.append(sent);
    pos = e;
  });
  if (pos < result.text.length) frag.append(result.text.slice(pos));
  el.target.replaceChildren(frag);
  el.target.dataset.sentences = String(result.sentences.length);
  el.copy.disabled = !result.text;

  const secs = result.timings.engineMs / 1000;
  const tps = result.stats.tokensPerSecond;
  const n = result.sentences.length;
  text(el.stats, `${n} sentence${n === 1 ? '' : 's'} · ${Math.round(result.timings.totalMs)} ms · ${result.stats.targetTokens} tokens · ${tps >= 100 ? Math.round(tps) : tps.toFixed(1)} tokens/s`);
  el.stats.title = `engine ${Math.round(secs * 1000)} ms (encode ${Math.round(result.timings.encodeMs)}, decode ${Math.round(result.timings.decodeMs)}), waiting ${Math.round(result.timings.queueMs)} ms`;
  selectSentence(Math.min(state.sel, Math.max(0, n - 1)), true);
}

/**
 * Appends `str` to `parent` with each word range as a focusable span; returns the word spans.
 * `focusable` gives the words a roving tabindex (the alignment card), otherwise mouse/touch only.
 */
function appendWords(parent, str, words, side, sentence, focusable) {
  const spans = [];
  if (!words || !words.length) {
    parent.append(str);
    return spans;
  }
  let pos = 0;
  words.forEach(([b, e], j) => {
    if (b > pos) parent.append(str.slice(pos, b));
    const w = span('w', str.slice(b, e));
    w.dataset.side = side;
    w.dataset.s = String(sentence);
    w.dataset.w = String(j);
    if (focusable) w.tabIndex = -1;
    parent.append(w);
    spans.push(w);
    pos = e;
  });
  if (pos < str.length) parent.append(str.slice(pos));
  return spans;
}

// ---------------------------------------------------------------------------------------------
// The alignment card and highlighting

function currentSentence() {
  return state.result && state.result.sentences[state.sel];
}

function selectSentence(i, force = false) {
  const r = state.result;
  const n = r ? r.sentences.length : 0;
  if (!force && i === state.sel && el.alignSource.childNodes.length) return;
  state.sel = Math.max(0, Math.min(i, n - 1));
  state.pinned = null;
  clearHighlight();
  for (const s of el.target.querySelectorAll('.sent.current')) s.classList.remove('current');
  el.prev.disabled = !n || state.sel === 0;
  el.next.disabled = !n || state.sel >= n - 1;
  el.alignSource.replaceChildren();
  el.alignTarget.replaceChildren();
  text(el.alignDetail, '');
  state.cardWords = { s: [], t: [] };
  if (!n) {
    text(el.sentPos, 'No sentence yet');
    drawHeatmap();
    return;
  }
  text(el.sentPos, `Sentence ${state.sel + 1} of ${n}`);
  const s = r.sentences[state.sel];
  const cur = el.target.querySelector(`.sent[data-s="${state.sel}"]`);
  if (cur) cur.classList.add('current');
  state.cardWords.s = appendWords(el.alignSource, s.source, s.sourceWords, 's', state.sel, true);
  state.cardWords.t = appendWords(el.alignTarget, s.target, s.targetWords, 't', state.sel, true);
  if (state.cardWords.s[0]) state.cardWords.s[0].tabIndex = 0;
  if (state.cardWords.t[0]) state.cardWords.t[0].tabIndex = 0;
  state.heads = state.heads && state.heads.key === headsKey(s) ? state.heads : null;
  updateHeadOptions();
  if (el.attention.open) ensureHeads();
  drawHeatmap();
}

function clearHighlight() {
  for (const w of document.querySelectorAll('.w.hl, .w.self, .w.linked')) {
    w.classList.remove('hl', 'self', 'linked');
    w.style.removeProperty('--w');
    delete w.dataset.weight;
  }
}

const spansFor = (side, s, w) => {
  const out = [];
  if (side === 't' && state.outWords[s] && state.outWords[s][w]) out.push(state.outWords[s][w]);
  if (s === state.sel && state.cardWords[side][w]) out.push(state.cardWords[side][w]);
  return out;
};

/** Lights up the words aligned to word `w` of `side` ('s' source, 't' target) of sentence `s`. */
function highlight(side, s, w) {
  clearHighlight();
  const sent = state.result && state.result.sentences[s];
  if (!sent || !sent.wordAttention) return;
  const A = sent.wordAttention; // [targetWords][sourceWords]
  const other = side === 't' ? 's' : 't';
  const weights = side === 't' ? A[w] || [] : A.map((row) => row[w] || 0);
  const max = Math.max(1e-9, ...weights);
  const linked = new Set((sent.wordAlignments || [])
    .filter((a) => (side === 't' ? a.target === w : a.source === w))
    .map((a) => (side === 't' ? a.source : a.target)));
  for (const x of spansFor(side, s, w)) x.classList.add('self');
  weights.forEach((weight, j) => {
    if (weight < 0.01 && !linked.has(j)) return;
    for (const x of spansFor(other, s, j)) {
      x.classList.add('hl');
      x.style.setProperty('--w', (weight / max).toFixed(3));
      x.dataset.weight = weight.toFixed(3);
      if (linked.has(j)) x.classList.add('linked');
    }
  });
  // Say it in words too (screen readers, and anyone unsure what the colours mean).
  const wordText = (sd, j) => {
    const [b, e] = (sd === 's' ? sent.sourceWords : sent.targetWords)[j];
    return (sd === 's' ? sent.source : sent.target).slice(b, e);
  };
  const ranked = weights.map((weight, j) => [weight, j]).sort((a, b) => b[0] - a[0]).slice(0, 3).filter(([weight]) => weight >= 0.05);
  const fromLang = langName(side === 's' ? fromOf(state.resultDir) : toOf(state.resultDir));
  const list = ranked.map(([weight, j]) => `“${wordText(other, j)}” ${Math.round(weight * 100)}%`).join(', ');
  text(el.alignDetail, `${fromLang} “${wordText(side, w)}” → ${list || 'no strong link'}`);
}

function wordFromEvent(event) {
  const w = event.target.closest && event.target.closest('.w');
  if (!w || !state.result) return null;
  return { el: w, side: w.dataset.side, s: Number(w.dataset.s), w: Number(w.dataset.w) };
}

function onWordOver(event) {
  if (state.pinned) return;
  const hit = wordFromEvent(event);
  if (!hit) return;
  if (hit.s !== state.sel) selectSentence(hit.s);
  highlight(hit.side, hit.s, hit.w);
}

function onWordOut(event) {
  if (state.pinned) return;
  const hit = wordFromEvent(event);
  if (!hit) return;
  const to = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest('.w');
  if (!to) {
    clearHighlight();
    text(el.alignDetail, '');
  }
}

function onWordClick(event) {
  const hit = wordFromEvent(event);
  if (!hit) {
    return;
  }
  const same = state.pinned && state.pinned.side === hit.side && state.pinned.w === hit.w && state.pinned.s === hit.s;
  if (hit.s !== state.sel) selectSentence(hit.s);
  if (same) {
    state.pinned = null;
    clearHighlight();
    text(el.alignDetail, '');
  } else {
    state.pinned = { side: hit.side, s: hit.s, w: hit.w };
    highlight(hit.side, hit.s, hit.w);
  }
}

function focusCardWord(side, j) {
  const list = state.cardWords[side];
  if (!list.length) return;
  const k = Math.max(0, Math.min(j, list.length - 1));
  for (const x of list) x.tabIndex = -1;
  list[k].tabIndex = 0;
  list[k].focus();
}

function onCardKey(event) {
  const hit = wordFromEvent(event);
  if (!hit) return;
  const sent = currentSentence();
  let handled = true;
  switch (event.key) {
    case 'ArrowLeft': focusCardWord(hit.side, hit.w - 1); break;
    case 'ArrowRight': focusCardWord(hit.side, hit.w + 1); break;
    case 'Home': focusCardWord(hit.side, 0); break;
    case 'End': focusCardWord(hit.side, state.cardWords[hit.side].length - 1); break;
    case 'ArrowUp':
    case 'ArrowDown': {
      // Jump to the most strongly aligned word on the other side.
      const other = hit.side === 't' ? 's' : 't';
      const A = sent && sent.wordAttention;
      if (!A) break;
      const weights = hit.side === 't' ? A[hit.w] : A.map((row) => row[hit.w]);
      focusCardWord(other, weights.indexOf(Math.max(...weights)));
      break;
    }
    case 'Escape': state.pinned = null; clearHighlight(); text(el.alignDetail, ''); break;
    default: handled = false;
  }
  if (handled) event.preventDefault();
}

function onCardFocus(event) {
  const hit = wordFromEvent(event);
  if (!hit) return;
  state.pinned = null;
  for (const x of state.cardWords[hit.side]) x.tabIndex = -1;
  hit.el.tabIndex = 0;
  highlight(hit.side, hit.s, hit.w);
}

// ---------------------------------------------------------------------------------------------
// The attention heatmap

const headsKey = (s) => `${state.resultDir}|${el.beam.value}|${s.source}`;

function updateHeadOptions() {
  const keep = el.headSelect.value;
  const opts = [['mean', 'Mean of heads (alignment layer)']];
  const h = state.heads && state.heads.sentence.heads;
  if (h) {
    h.forEach((layer, l) => {
      opts.push([`${l}:mean`, `Layer ${l + 1}, mean of heads`]);
      layer.forEach((_, k) => opts.push([`${l}:${k}`, `Layer ${l + 1}, head ${k + 1}`]));
    });
  }
  el.headSelect.replaceChildren(...opts.map(([v, label]) => {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = label;
    return o;
  }));
  el.headSelect.value = opts.some(([v]) => v === keep) ? keep : 'mean';
}

/** Asks the worker for every layer's and head's attention of the selected sentence. */
async function ensureHeads() {
  const s = currentSentence();
  if (!s || (state.heads && state.heads.key === headsKey(s))) return;
  if (state.headsController) state.headsController.abort();
  const controller = new AbortController();
  state.headsController = controller;
  const key = headsKey(s);
  text(el.heatStatus, 'Loading the attention of every head…');
  try {
    const t = await getTranslator(state.resultDir);
    const r = await t.translate(s.source, { beam: searchSettings().beam, alignments: true, allHeads: true, signal: controller.signal });
    const cur = currentSentence();
    if (!cur || headsKey(cur) !== key) return;
    const sentence = r.sentences.find((x) => x.heads) || r.sentences[0];
    if (!sentence || !sentence.heads) {
      text(el.heatStatus, 'The engine returned no per-head attention.');
      return;
    }
    state.heads = { key, sentence };
    updateHeadOptions();
    text(el.heatStatus, `${sentence.heads.length} layers × ${sentence.heads[0].length} heads`);
    drawHeatmap();
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    text(el.heatStatus, `Could not load the heads: ${e.message || e}`);
  }
}

function heatData() {
  const s = currentSentence();
  if (!s || !s.attention) return null;
  const v = el.headSelect.value;
  if (v === 'mean' || !state.heads) {
    return { rows: s.targetTokens, cols: s.sourceTokens, m: s.attention, title: 'mean of heads, alignment layer' };
  }
  const hs = state.heads.sentence;
  const [l, k] = v.split(':');
  const layer = hs.heads[Number(l)];
  let m;
  if (k === 'mean') {
    m = layer[0].map((row, i) => row.map((_, j) => layer.reduce((a, head) => a + head[i][j], 0) / layer.length));
  } else {
    m = layer[Number(k)];
  }
  return { rows: hs.targetTokens, cols: hs.sourceTokens, m, title: k === 'mean' ? `layer ${Number(l) + 1}, mean of heads` : `layer ${Number(l) + 1}, head ${Number(k) + 1}` };
}

// A perceptual ramp (viridis, 5 stops) for cell values 0..1.
const RAMP = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
function rampColor(x) {
  const t = Math.max(0, Math.min(1, x)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(t));
  const f = t - i;
  const c = RAMP[i].map((a, j) => Math.round(a + (RAMP[i + 1][j] - a) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

const tokenLabel = (t) => (t.piece.length > 14 ? `${t.piece.slice(0, 13)}…` : t.piece);

let heatLayout = null;

function drawHeatmap() {
  const canvas = el.heatmap;
  const ctx = canvas.getContext('2d');
  const data = el.attention.open ? heatData() : null;
  if (!data) {
    canvas.width = 1;
    canvas.height = 1;
    canvas.style.width = '1px';
    canvas.style.height = '1px';
    heatLayout = null;
    return;
  }
  const { rows, cols, m } = data;
  const cs = getComputedStyle(document.body);
  const fg = cs.color;
  const font = '12px system-ui, sans-serif';
  ctx.font = font;
  const rowLabelW = Math.ceil(Math.max(...rows.map((t) => ctx.measureText(tokenLabel(t)).width))) + 10;
  const colLabelH = Math.ceil(Math.max(...cols.map((t) => ctx.measureText(tokenLabel(t)).width)) * 0.75) + 16;
  const avail = Math.max(200, canvas.parentElement.clientWidth - rowLabelW - 8);
  const cell = Math.max(14, Math.min(32, Math.floor(avail / Math.max(1, cols.length))));
  const legendH = 28;
  const width = rowLabelW + cell * cols.length + Math.ceil(colLabelH * 0.75) + 4; // room for the last rotated label
  const height = colLabelH + cell * rows.length + legendH + 8;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.ceil(width * dpr);
  canvas.height = Math.ceil(height * dpr);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = font;
  ctx.fillStyle = fg;
  // Column labels (source tokens), rotated.
  cols.forEach((t, j) => {
    ctx.save();
    ctx.translate(rowLabelW + j * cell + cell / 2 + 4, colLabelH - 4);
    ctx.rotate(-Math.PI / 4);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(tokenLabel(t), 0, 0);
    ctx.restore();
  });
  // Row labels (target tokens).
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  rows.forEach((t, i) => ctx.fillText(tokenLabel(t), rowLabelW - 6, colLabelH + i * cell + cell / 2));
  // Cells.
  for (let i = 0; i < rows.length; i++) {
    for (let j = 0; j < cols.length; j++) {
      ctx.fillStyle = rampColor((m[i] && m[i][j]) || 0);
      ctx.fillRect(rowLabelW + j * cell, colLabelH + i * cell, cell - 1, cell - 1);
    }
  }
  // Cursor.
  if (state.heatCursor && state.heatCursor.i < rows.length && state.heatCursor.j < cols.length) {
    ctx.strokeStyle = fg;
    ctx.lineWidth = 2;
    ctx.strokeRect(rowLabelW + state.heatCursor.j * cell - 1, colLabelH + state.heatCursor.i * cell - 1, cell + 1, cell + 1);
  }
  // Legend.
  const ly = colLabelH + rows.length * cell + 10;
  const lw = Math.min(160, cell * cols.length);
  for (let x = 0; x < lw; x++) {
    ctx.fillStyle = rampColor(x / (lw - 1));
    ctx.fillRect(rowLabelW + x, ly, 1, 10);
  }
  ctx.fillStyle = fg;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText('0', rowLabelW, ly + 12);
  ctx.textAlign = 'right';
  ctx.fillText('1', rowLabelW + lw, ly + 12);
  heatLayout = { rowLabelW, colLabelH, cell, rows, cols, m };
  canvas.dataset.rows = String(rows.length);
  canvas.dataset.cols = String(cols.length);
  canvas.setAttribute('aria-label', `Cross-attention heatmap, ${data.title}: ${rows.length} target tokens (rows) by ${cols.length} source tokens (columns). Source: ${cols.map((t) => t.piece).join(' ')}. Target: ${rows.map((t) => t.piece).join(' ')}.`);
}

function describeCell(i, j) {
  if (!heatLayout) return;
  const { rows, cols, m } = heatLayout;
  if (i < 0 || j < 0 || i >= rows.length || j >= cols.length) {
    text(el.heatCell, '');
    return;
  }
  text(el.heatCell, `target “${rows[i].piece}” ← source “${cols[j].piece}”: ${((m[i] && m[i][j]) || 0).toFixed(3)}`);
}

function onHeatMove(event) {
  if (!heatLayout) return;
  const rect = el.heatmap.getBoundingClientRect();
  const x = event.clientX - rect.left - heatLayout.rowLabelW;
  const y = event.clientY - rect.top - heatLayout.colLabelH;
  const i = Math.floor(y / heatLayout.cell);
  const j = Math.floor(x / heatLayout.cell);
  describeCell(i, j);
}

function onHeatKey(event) {
  if (!heatLayout) return;
  const c = state.heatCursor || { i: 0, j: 0 };
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const d = moves[event.key];
  if (!d) return;
  event.preventDefault();
  state.heatCursor = {
    i: Math.max(0, Math.min(heatLayout.rows.length - 1, c.i + d[0])),
    j: Math.max(0, Math.min(heatLayout.cols.length - 1, c.j + d[1])),
  };
  drawHeatmap();
  describeCell(state.heatCursor.i, state.heatCursor.j);
}

// ---------------------------------------------------------------------------------------------
// Copy

async function copyOutput() {
  if (!state.result) return;
  const value = state.result.text;
  let ok = false;
  try {
    await navigator.clipboard.writeText(value);
    ok = true;
  } catch {
    // Fallback for browsers without the async clipboard: select the output and copy.
    const range = document.createRange();
    range.selectNodeContents(el.target);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    try { ok = document.execCommand('copy'); } catch { ok = false; }
    sel.removeAllRanges();
  }
  text(el.copy, ok ? 'Copied' : 'Copy failed');
  setTimeout(() => text(el.copy, 'Copy'), 1500);
}

// ---------------------------------------------------------------------------------------------
// Start

async function main() {
  if (!hasWasmSimd()) {
    setState('error');
    showError('This browser does not support WebAssembly SIMD, which the translator needs. Please use a current version of Chrome, Edge, Firefox or Safari (16.4 or later).');
    el.source.disabled = true;
    return;
  }
  if (typeof Worker !== 'function') {
    setState('error');
    showError('This browser does not support Web Workers, which the translator needs.');
    return;
  }

  el.source.addEventListener('input', () => { updateCount(); scheduleTranslate(); });
  el.source.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); translateNow(); }
  });
  el.clear.addEventListener('click', () => { el.source.value = ''; updateCount(); translateNow(); el.source.focus(); });
  el.direction.addEventListener('change', () => setDirection(el.direction.value));
  el.swap.addEventListener('click', () => setDirection(`${toOf(state.dir)}-${fromOf(state.dir)}`, { swapText: true }));
  document.addEventListener('keydown', (e) => {
    if (e.altKey && (e.key === 's' || e.key === 'S')) { e.preventDefault(); el.swap.click(); }
  });
  el.beam.addEventListener('change', () => translateNow());
  el.copy.addEventListener('click', copyOutput);
  el.prev.addEventListener('click', () => selectSentence(state.sel - 1));
  el.next.addEventListener('click', () => selectSentence(state.sel + 1));

  for (const area of [el.target, el.alignSource, el.alignTarget]) {
    area.addEventListener('mouseover', onWordOver);
    area.addEventListener('mouseout', onWordOut);
    area.addEventListener('click', onWordClick);
  }
  for (const area of [el.alignSource, el.alignTarget]) {
    area.addEventListener('keydown', onCardKey);
    area.addEventListener('focusin', onCardFocus);
  }
  document.addEventListener('click', (e) => {
    if (state.pinned && !(e.target.closest && e.target.closest('.w'))) {
      state.pinned = null;
      clearHighlight();
      text(el.alignDetail, '');
    }
  });

  el.attention.addEventListener('toggle', () => {
    drawHeatmap();
    if (el.attention.open) ensureHeads();
  });
  el.headSelect.addEventListener('change', drawHeatmap);
  el.heatmap.addEventListener('mousemove', onHeatMove);
  el.heatmap.addEventListener('mouseleave', () => text(el.heatCell, ''));
  el.heatmap.addEventListener('keydown', onHeatKey);
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawHeatmap, 100); });

  updateCount();
  await registerServiceWorker();

  try {
    state.models = await listModels({ manifestUrl });
  } catch (e) {
    setState('error');
    showError(`Could not read the list of models (${e.message || e}).`);
    return;
  }
  const dirs = state.models.map((m) => `${m.from}-${m.to}`);
  for (const o of [...el.direction.options]) {
    if (!dirs.includes(o.value)) o.remove();
  }
  for (const d of dirs) {
    if (![...el.direction.options].some((o) => o.value === d)) {
      const o = document.createElement('option');
      o.value = d;
      o.textContent = `${langName(fromOf(d))} → ${langName(toOf(d))}`;
      el.direction.append(o);
    }
  }
  el.swap.disabled = !dirs.includes('de-en') || !dirs.includes('en-de');
  let saved = null;
  try { saved = localStorage.getItem('nmt.direction'); } catch { /* private mode */ }
  state.dir = dirs.includes(saved) ? saved : (dirs.includes('en-de') ? 'en-de' : dirs[0]);
  applyDirection();
  try {
    await getTranslator(state.dir);
    if (el.body.dataset.state === 'loading') setState('idle');
  } catch (e) {
    setState('error');
    showError(e.message || String(e));
    return;
  }
  el.body.dataset.ready = 'true';
  if (el.source.value.trim()) translateNow();
}

main();
