/**
 * The attention heatmap (#attention): a canvas of the selected sentence's cross-attention, the
 * translation's words as rows and the input's words as columns (word pieces merged, special tokens
 * named: app/token-words.js), coloured on a viridis ramp with a 0–1 legend. It shows the mean of
 * heads of the alignment layer, or, once the worker has sent every layer's and head's attention
 * (asked for when the section is open), any layer's mean or any single head, or the word links the
 * highlight shows (wordAttention: the read-out head one step late, text/word_alignment.h). Moving the mouse over
 * a cell, tapping or clicking it (which also puts the keyboard's cursor there), or the arrow keys on
 * the focused canvas read the cell aloud (#heat-cell); the canvas's aria-label lists both rows of words.
 */
import { el, text, inLang } from './dom.js';
import { state, currentSentence, fromOf, toOf } from './state.js';
import { getTranslator, searchSettings } from './loader.js';
import { tokenWords, mergeAttention } from './token-words.js';
import { termsOption } from './terms.js';

// The per-head attention belongs to one translation of one sentence: its source, the translation
// shown (which a chosen alternative word changes) and the search that made it.
const headsKey = (s) => `${state.resultDir}|${el.beam.value}|${s.source}|${s.forcedPrefix || ''}|${s.target}`;

function updateHeadOptions() {
  const keep = el.headSelect.value;
  const opts = [['mean', 'Average of the alignment layer\'s heads'], ['links', 'Word links (what the highlight shows)']];
  const h = state.heads && state.heads.sentence.heads;
  if (h) {
    h.forEach((layer, l) => {
      opts.push([`${l}:mean`, `Layer ${l + 1}, average of heads`]);
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
  // (a reply for a sentence or a translation no longer shown, an error too, is dropped)
  const stillShown = () => currentSentence() === s && headsKey(s) === key;
  text(el.heatStatus, 'Loading the attention of every head…');
  try {
    const t = await getTranslator(state.resultDir);
    // The sentence is translated again, alone, with every head kept; a sentence whose translation
    // was steered by a chosen word (app/alternatives-menu.js) again from the same prefix.
    const options = { beam: searchSettings().beam, shortlist: searchSettings().shortlist, alignments: true, allHeads: true, ...termsOption(state.resultDir), signal: controller.signal };
    if (s.forcedPrefix) options.prefix = s.forcedPrefix;
    const withHeads = (r) => r.sentences.find((x) => x.heads) || r.sentences[0];
    let sentence = withHeads(await t.translate(s.source, options));
    if (sentence && sentence.heads && sentence.target !== s.target) {
      // Alone, the sentence came out otherwise (e.g. "Fast" decodes a whole chunk over one
      // shortlist: ~15% of flores-dev sentences differ alone). The heads of another translation
      // would be labelled with the wrong words: the model reads the translation shown instead.
      sentence = withHeads(await t.translate(s.source, { ...options, prefix: s.target }).catch((e) => {
        if (e && e.name === 'AbortError') throw e;
        return { sentences: [] };
      }));
    }
    if (!stillShown()) return;
    if (!sentence || !sentence.heads) {
      text(el.heatStatus, 'The engine returned no per-head attention.');
      return;
    }
    if (sentence.target !== s.target) {
      text(el.heatStatus, 'The heads are not available for this translation: the average is shown.');
      return;
    }
    state.heads = { key, sentence };
    updateHeadOptions();
    text(el.heatStatus, `${sentence.heads.length} layers × ${sentence.heads[0].length} heads`);
    drawHeatmap();
  } catch (e) {
    if ((e && e.name === 'AbortError') || !stillShown()) return;
    text(el.heatStatus, `Could not load the heads: ${e.message || e}`);
  }
}

/**
 * A newly selected sentence `s` (null: none): keeps the per-head attention only if it is this
 * sentence's (else its status goes too), offers its layers and heads, asks for them if the heatmap
 * is open, and draws. The cell read out and the keyboard cursor belonged to the old map.
 */
export function showSentenceHeatmap(s) {
  state.heads = s && state.heads && state.heads.key === headsKey(s) ? state.heads : null;
  if (!state.heads) text(el.heatStatus, '');
  state.heatCursor = null;
  text(el.heatCell, '');
  updateHeadOptions();
  if (s && el.attention.open) ensureHeads();
  drawHeatmap();
}

/** A sentence's token matrix `m` as words: {rows, cols} of labels and the merged matrix. */
function asWords(sentence, m) {
  const rows = tokenWords(sentence.target, sentence.targetTokens, sentence.targetWords);
  const cols = tokenWords(sentence.source, sentence.sourceTokens, sentence.sourceWords);
  return { rows: rows.map((g) => g.label), cols: cols.map((g) => g.label), m: mergeAttention(m, rows, cols) };
}

function heatData() {
  const s = currentSentence();
  if (!s || !s.attention) return null;
  const v = el.headSelect.value;
  if (v === 'links' && s.wordAttention && s.targetWords && s.sourceWords) {  // words as the highlight links them
    const words = (textOf, ranges) => ranges.map(([b, e]) => textOf.slice(b, e));
    return { rows: words(s.target, s.targetWords), cols: words(s.source, s.sourceWords), m: s.wordAttention,
      title: 'word links, as the highlight shows them' };
  }
  if (v === 'mean' || v === 'links' || !state.heads) {
    return { ...asWords(s, s.attention), title: 'average of the heads of the alignment layer' };
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
  return { ...asWords(hs, m), title: k === 'mean' ? `layer ${Number(l) + 1}, average of heads` : `layer ${Number(l) + 1}, head ${Number(k) + 1}` };
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

const tokenLabel = (label) => (label.length > 16 ? `${label.slice(0, 15)}…` : label);

let heatLayout = null;

/**
 * A long sentence's map can be wider than its box (on a phone): then the box scrolls sideways, and
 * a line above it says so and its scrollbar stays drawn (CSS .heat-wrap.scrolls), since a phone
 * hides scrollbars until one touches them.
 */
function showScrollHint(canvas, drawn = true) {
  const wrap = canvas.parentElement;
  // (no map drawn: nothing to measure, which would lay out the whole page, a long output too)
  const scrolls = drawn && wrap.scrollWidth > wrap.clientWidth + 1;
  wrap.classList.toggle('scrolls', scrolls);
  document.getElementById('heat-scroll').hidden = !scrolls;
}

export function drawHeatmap() {
  const canvas = el.heatmap;
  const ctx = canvas.getContext('2d');
  const data = el.attention.open ? heatData() : null;
  if (!data) {
    canvas.width = 1;
    canvas.height = 1;
    canvas.style.width = '1px';
    canvas.style.height = '1px';
    showScrollHint(canvas, false);
    heatLayout = null;
    canvas.setAttribute('aria-label', 'Attention map');
    for (const key of ['grid', 'rows', 'cols']) delete canvas.dataset[key];
    return;
  }
  const { rows, cols, m } = data;
  const cs = getComputedStyle(document.body);
  const fg = cs.color;
  const font = '12px system-ui, sans-serif';
  ctx.font = font;
  const rowLabelW = Math.ceil(Math.max(...rows.map((t) => ctx.measureText(tokenLabel(t)).width))) + 10;
  const colLabelH = Math.ceil(Math.max(...cols.map((t) => ctx.measureText(tokenLabel(t)).width)) * 0.75) + 16;
  const lastLabel = Math.ceil(colLabelH * 0.75) + 4; // room for the last rotated label
  // The cells share what the box leaves (its padding: 2 × 6 px), so that on a phone the map of a
  // short sentence fits; at 14 px a cell a longer one scrolls (showScrollHint).
  const avail = canvas.parentElement.clientWidth - 12 - rowLabelW - lastLabel;
  const cell = Math.max(14, Math.min(32, Math.floor(avail / Math.max(1, cols.length))));
  const legendH = 28;
  const width = rowLabelW + cell * cols.length + lastLabel;
  const height = colLabelH + cell * rows.length + legendH + 8;
  const dpr = window.devicePixelRatio || 1;
  canvas.width = Math.ceil(width * dpr);
  canvas.height = Math.ceil(height * dpr);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  showScrollHint(canvas);
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
  canvas.dataset.grid = `${rowLabelW} ${colLabelH} ${cell}`; // where the cells are (CSS px): for tests and tools
  canvas.dataset.rows = String(rows.length);
  canvas.dataset.cols = String(cols.length);
  canvas.setAttribute('aria-label', `Attention map, ${data.title}: ${rows.length} words of the translation (rows) by ${cols.length} words of your text (columns). Your text: ${cols.join(' | ')}. Translation: ${rows.join(' | ')}.`);
}

function describeCell(i, j) {
  if (!heatLayout) return;
  const { rows, cols, m } = heatLayout;
  if (i < 0 || j < 0 || i >= rows.length || j >= cols.length) {
    text(el.heatCell, '');
    return;
  }
  el.heatCell.replaceChildren('writing “', inLang(rows[i], toOf(state.resultDir)), '”, the model looked at “',
    inLang(cols[j], fromOf(state.resultDir)), `”: ${((m[i] && m[i][j]) || 0).toFixed(3)}`);
}

/** The cell ({i, j}) under a pointer event, whether or not it is inside the map. */
function cellOf(event) {
  const rect = el.heatmap.getBoundingClientRect();
  const x = event.clientX - rect.left - heatLayout.rowLabelW;
  const y = event.clientY - rect.top - heatLayout.colLabelH;
  return { i: Math.floor(y / heatLayout.cell), j: Math.floor(x / heatLayout.cell) };
}

function onHeatMove(event) {
  if (!heatLayout) return;
  const { i, j } = cellOf(event);
  describeCell(i, j);
}

/**
 * A tap or click on a cell makes it the keyboard cursor's: the focus the tap gives the map then
 * reads that cell (not the first one), and the arrow keys go on from it.
 */
function onHeatPointerDown(event) {
  if (!heatLayout) return;
  const { i, j } = cellOf(event);
  if (i < 0 || j < 0 || i >= heatLayout.rows.length || j >= heatLayout.cols.length) return;
  state.heatCursor = { i, j };
  drawHeatmap();
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
  revealCursor();
}

/**
 * Scrolls the cursor's cell into sight: sideways in a map wider than its box (on a phone), and the
 * page up or down (the arrow keys no longer scroll it). A cell more is shown beyond it where there is one.
 */
function revealCursor() {
  const { rowLabelW, colLabelH, cell } = heatLayout;
  const wrap = el.heatmap.parentElement;
  const map = el.heatmap.getBoundingClientRect();
  const box = wrap.getBoundingClientRect();
  const left = map.left + rowLabelW + state.heatCursor.j * cell;
  const top = map.top + colLabelH + state.heatCursor.i * cell;
  if (left - cell < box.left) wrap.scrollLeft -= box.left - (left - cell);
  else if (left + 2 * cell > box.right) wrap.scrollLeft += left + 2 * cell - box.right;
  if (top - cell < 0) window.scrollBy(0, top - cell);
  else if (top + 2 * cell > innerHeight) window.scrollBy(0, top + 2 * cell - innerHeight);
}

/** Opening the section, the layer/head menu, the mouse and arrow keys on the canvas, resizing. */
export function bindHeatmap() {
  el.attention.addEventListener('toggle', () => {
    drawHeatmap();
    if (el.attention.open) ensureHeads();
  });
  el.headSelect.addEventListener('change', drawHeatmap);
  el.heatmap.addEventListener('mousemove', onHeatMove);
  el.heatmap.addEventListener('pointerdown', onHeatPointerDown);
  el.heatmap.addEventListener('mouseleave', () => text(el.heatCell, ''));
  el.heatmap.addEventListener('keydown', onHeatKey);
  // Keyboard focus reads the cell under the cursor (the first one to begin with), so a screen
  // reader hears where the arrow keys start instead of only the cell after the first move.
  el.heatmap.addEventListener('focus', () => {
    if (!heatLayout) return;
    state.heatCursor = state.heatCursor || { i: 0, j: 0 };
    drawHeatmap();
    describeCell(state.heatCursor.i, state.heatCursor.j);
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(drawHeatmap, 100); });
}
