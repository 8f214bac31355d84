/**
 * The word alignment view: the sentence card (#align-source, #align-target, with ‹ › to move
 * between sentences) and the word spans of the output pane. Hovering, tapping (pins until the next
 * tap) or focusing a word lights up the words aligned to it, the colour strength following the
 * soft alignment weight (--w), hard links marked, and #align-detail says the strongest links in
 * words. On the card, ←/→/Home/End move between words, ↑/↓ jump to the most strongly aligned word
 * on the other side, Escape clears. The source words light up in the text box too
 * (app/source-overlay.js). A highlight that is not pinned goes when the mouse leaves the words or
 * focus leaves the card. Selecting a sentence also hands it to the heatmap.
 */
import { el, text, span, inLang, textDirection } from './dom.js';
import { state, currentSentence, langName, fromOf, toOf } from './state.js';
import { showSentenceHeatmap } from './heatmap.js';
import { unsureWords, sentenceConfidence } from './confidence.js';
import { showSourceMarks, clearSourceMarks } from './source-overlay.js';

/**
 * Appends `str` to `parent` with each word range as a focusable span; returns the word spans.
 * `focusable` gives the words a roving tabindex (the alignment card), otherwise mouse/touch only.
 * The words in `unsure` (indices) are marked as ones the model is unsure of.
 */
export function appendWords(parent, str, words, side, sentence, focusable, unsure = new Set()) {
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
    if (unsure.has(j)) {
      w.classList.add('unsure');
      w.title = 'The model is unsure of this word';
    }
    parent.append(w);
    spans.push(w);
    pos = e;
  });
  if (pos < str.length) parent.append(str.slice(pos));
  return spans;
}

let cardFocus = null; // {side, w}: the card word that had the keyboard focus when its card went

export function selectSentence(i, force = false) {
  const r = state.result;
  const n = r ? r.sentences.length : 0;
  if (!force && i === state.sel && el.alignSource.childNodes.length) return;
  // A card word with the keyboard focus is about to go: the same place on the next card gets it
  // (this one's, or, when the card is emptied while a translation runs, the one after it).
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#align-source .w, #align-target .w');
  if (focused) cardFocus = { side: focused.dataset.side, w: Number(focused.dataset.w) };
  state.sel = Math.max(0, Math.min(i, n - 1));
  state.pinned = null;
  clearHighlight();
  for (const s of el.target.querySelectorAll('.sent.current')) s.classList.remove('current');
  el.prev.disabled = !n || state.sel === 0;
  el.next.disabled = !n || state.sel >= n - 1;
  el.alignSource.replaceChildren();
  el.alignTarget.replaceChildren();
  text(el.alignDetail, '');
  text(el.sentConfidence, '');
  el.sentConfidence.removeAttribute('title');
  delete el.sentConfidence.dataset.level;
  state.cardWords = { s: [], t: [] };
  if (!n) {
    text(el.sentPos, 'No sentence yet');
    showSentenceHeatmap(null);
    return;
  }
  text(el.sentPos, `Sentence ${state.sel + 1} of ${n}`);
  const s = r.sentences[state.sel];
  const cur = el.target.querySelector(`.sent[data-s="${state.sel}"]`);
  if (cur) cur.classList.add('current');
  el.alignSource.dir = textDirection(s.source);
  el.alignTarget.dir = textDirection(s.target);
  state.cardWords.s = appendWords(el.alignSource, s.source, s.sourceWords, 's', state.sel, true);
  state.cardWords.t = appendWords(el.alignTarget, s.target, s.targetWords, 't', state.sel, true, unsureWords(s));
  const confidence = sentenceConfidence(s, state.resultDir);
  if (confidence) {
    text(el.sentConfidence, confidence.text);
    el.sentConfidence.dataset.level = confidence.level;
    el.sentConfidence.title = `Average token probability ${Math.round(confidence.mean * 100)}%`;
  }
  if (state.cardWords.s[0]) state.cardWords.s[0].tabIndex = 0;
  if (state.cardWords.t[0]) state.cardWords.t[0].tabIndex = 0;
  showSentenceHeatmap(s);
  // (unless the focus went somewhere since)
  if (cardFocus && (focused || !document.activeElement || document.activeElement === document.body)) {
    focusCardWord(cardFocus.side, cardFocus.w, { preventScroll: true }); // (the page stays where the person is looking)
  }
  cardFocus = null;
}

let lit = null; // {side, s, w}: the word whose links are shown

function clearHighlight() {
  lit = null;
  for (const w of document.querySelectorAll('.w.hl, .w.self, .w.linked')) {
    w.classList.remove('hl', 'self', 'linked');
    w.style.removeProperty('--w');
    delete w.dataset.weight;
  }
  clearSourceMarks();
}

/**
 * The same highlight in the text box: the source words of sentence `sent` (weights for a target
 * word, or the word itself), if the text box still holds the text that was translated.
 */
function markSource(sent, side, w, weights, max, linked) {
  const [at] = sent.sourceRange || [];
  if (typeof at !== 'number' || el.source.value.slice(at, at + sent.source.length) !== sent.source) return;
  const mark = (j, extra) => ({ start: at + sent.sourceWords[j][0], end: at + sent.sourceWords[j][1], ...extra });
  if (side === 's') {
    showSourceMarks([mark(w, { kind: 'self', weight: 1 })]);
    return;
  }
  showSourceMarks(weights.map((weight, j) => [weight, j]).filter(([weight, j]) => sent.sourceWords[j] && (weight >= 0.01 || linked.has(j)))
    .map(([weight, j]) => mark(j, { kind: 'hl', weight: weight / max, linked: linked.has(j) })));
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
  markSource(sent, side, w, weights, max, linked);
  lit = { side, s, w };
  // Say it in words too (screen readers, and anyone unsure what the colours mean), each word in its language.
  const langOf = (sd) => (sd === 's' ? fromOf(state.resultDir) : toOf(state.resultDir));
  const word = (sd, j) => {
    const [b, e] = (sd === 's' ? sent.sourceWords : sent.targetWords)[j];
    return inLang((sd === 's' ? sent.source : sent.target).slice(b, e), langOf(sd));
  };
  const ranked = weights.map((weight, j) => [weight, j]).sort((a, b) => b[0] - a[0]).slice(0, 3).filter(([weight]) => weight >= 0.05);
  const list = ranked.flatMap(([weight, j], k) => [k ? ', “' : '“', word(other, j), `” ${Math.round(weight * 100)}%`]);
  el.alignDetail.replaceChildren(`${langName(langOf(side))} “`, word(side, w), '” → ', ...(list.length ? list : ['no strong link']));
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
    // (a tap's mouseover has just lit it up: drawing it again would lay out the text box twice)
    if (!(lit && lit.side === hit.side && lit.s === hit.s && lit.w === hit.w)) highlight(hit.side, hit.s, hit.w);
  }
}

function focusCardWord(side, j, focusOptions) {
  const list = state.cardWords[side];
  if (!list.length) return;
  const k = Math.max(0, Math.min(j, list.length - 1));
  for (const x of list) x.tabIndex = -1;
  list[k].tabIndex = 0;
  list[k].focus(focusOptions);
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

/**
 * Focus leaving the card's words (Tab, a click elsewhere, another window) takes the highlight along,
 * but not into the word's menu of other words: its links stay shown (pinned) while the menu is
 * open, as a tap on a word of the output keeps them.
 */
function onCardBlur(event) {
  const to = event.relatedTarget;
  if (to && to.closest && to.closest('#align-source .w, #align-target .w')) return; // moving between words
  const hit = wordFromEvent(event);
  if (hit && to && to.closest && to.closest('#alt-menu')) {
    state.pinned = { side: hit.side, s: hit.s, w: hit.w };
    return;
  }
  state.pinned = null;
  clearHighlight();
  text(el.alignDetail, '');
}

/** A mouse leaving the words' area takes a highlight that is not pinned along (touch pins by tapping). */
function onAreaLeave(event) {
  if (state.pinned || event.pointerType === 'touch') return;
  clearHighlight();
  text(el.alignDetail, '');
}

/** ‹ ›, hover/tap on the output and the card, keys and focus on the card, a tap elsewhere unpins. */
export function bindAlignmentView() {
  // The button that turns off at the first or last sentence would take the keyboard focus with it.
  // The position is said aloud only here (#sent-said), not each time a translation redraws the card.
  const step = (by, button, other) => {
    const focused = document.activeElement === button;
    selectSentence(state.sel + by);
    text(el.sentSaid, el.sentPos.textContent);
    if (focused && button.disabled && !other.disabled) other.focus();
  };
  el.prev.addEventListener('click', () => step(-1, el.prev, el.next));
  el.next.addEventListener('click', () => step(1, el.next, el.prev));
  for (const area of [el.target, el.alignSource, el.alignTarget]) {
    area.addEventListener('mouseover', onWordOver);
    area.addEventListener('mouseout', onWordOut);
    area.addEventListener('click', onWordClick);
  }
  for (const area of [el.alignSource, el.alignTarget]) {
    area.addEventListener('keydown', onCardKey);
    area.addEventListener('focusin', onCardFocus);
    area.addEventListener('focusout', onCardBlur);
  }
  for (const area of [el.target, el.alignSource, el.alignTarget]) area.addEventListener('pointerleave', onAreaLeave);
  document.addEventListener('click', (e) => {
    // (a tap in the word menu is about the pinned word: composedPath, as its item may be gone)
    if (state.pinned && !(e.target.closest && e.target.closest('.w')) && !e.composedPath().some((n) => n.id === 'alt-menu')) {
      state.pinned = null;
      clearHighlight();
      text(el.alignDetail, '');
    }
  });
}
