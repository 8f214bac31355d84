/**
 * The word menu: clicking or tapping a translated word (in the output or on the alignment card),
 * or Enter/Space on a focused one on the card, opens a small menu of other words the model would
 * put there (translator.alternatives(): the sentence's source, the translation up to that word).
 * Choosing one translates the rest of that sentence again from the new prefix (the translation up
 * to the word + the chosen word) with the page's Search setting, puts it in place of the old
 * sentence, and redraws the output and the alignment card. Keys in the menu: ↑/↓ (and Home/End)
 * move, Enter or Space chooses, Escape or Tab closes; focus goes back to the word.
 */
import { el, text, showError, setState } from './dom.js';
import { state } from './state.js';
import { getTranslator, searchSettings } from './loader.js';
import { render } from './translate-view.js';
import { selectSentence } from './alignment-view.js';

const COUNT = 5;
const WORDLIKE = /[\p{L}\p{N}]/u;

let menu = null; // {root, invoker, s, w}

/** The target word span an event is about, with its sentence and word index, or null. */
function targetWord(event) {
  const w = event.target.closest && event.target.closest('.w[data-side="t"]');
  if (!w || !state.result) return null;
  const s = Number(w.dataset.s);
  const sentence = state.result.sentences[s];
  const range = sentence && sentence.targetWords && sentence.targetWords[Number(w.dataset.w)];
  if (!range || !WORDLIKE.test(sentence.target.slice(...range))) return null; // words only, not punctuation
  return { el: w, s, w: Number(w.dataset.w), sentence, range };
}

function close({ refocus = true } = {}) {
  if (!menu) return;
  // (A request still running is left to finish and its answer dropped: aborting a running request
  // would replace the worker, which costs more than the ~0.1 s it has left.)
  const { root, invoker } = menu;
  menu = null;
  root.remove();
  if (invoker) invoker.setAttribute('aria-expanded', 'false');
  if (refocus && invoker && invoker.isConnected) invoker.focus();
}

function items() {
  return menu ? [...menu.root.querySelectorAll('[role="menuitem"]')] : [];
}

function focusItem(i) {
  const list = items();
  if (!list.length) return;
  const k = (i + list.length) % list.length;
  list.forEach((x, j) => { x.tabIndex = j === k ? 0 : -1; });
  list[k].focus();
}

/** Places the menu under the word (above it when there is no room below), inside the viewport. */
function place(root, word) {
  const r = word.getBoundingClientRect();
  const m = root.getBoundingClientRect();
  const below = r.bottom + 4 + m.height <= window.innerHeight || r.top < m.height + 4;
  root.style.top = `${window.scrollY + (below ? r.bottom + 4 : r.top - 4 - m.height)}px`;
  root.style.left = `${window.scrollX + Math.max(4, Math.min(r.left, window.innerWidth - m.width - 4))}px`;
}

/** Opens the menu for a word span and fills it with the model's alternatives. */
async function open(hit) {
  close({ refocus: false });
  const { el: word, s, w, sentence, range } = hit;
  const current = sentence.target.slice(...range);
  const prefix = sentence.target.slice(0, range[0]);
  if (!word.hasAttribute('tabindex')) word.tabIndex = -1; // (output words: so that focus can come back)
  word.setAttribute('aria-haspopup', 'menu');
  word.setAttribute('aria-expanded', 'true');
  const root = document.createElement('div');
  root.className = 'alt-menu';
  root.id = 'alt-menu';
  root.setAttribute('role', 'menu');
  root.setAttribute('aria-label', `Other words for “${current}”`);
  root.setAttribute('aria-busy', 'true');
  root.tabIndex = -1;
  root.append(text(document.createElement('p'), 'Finding other words…'));
  root.firstChild.className = 'alt-status';
  document.body.append(root);
  place(root, word);
  root.focus();
  const shown = state.result; // the translation the menu is about
  menu = { root, invoker: word, s, w };
  root.addEventListener('keydown', onMenuKey);
  try {
    const t = await getTranslator(state.resultDir);
    const alternatives = await t.alternatives(sentence.source, prefix, { count: COUNT });
    if (!menu || menu.root !== root) return;
    fill(root, alternatives, current, (a) => { if (state.result === shown) choose(hit, prefix, a); else close(); });
  } catch (e) {
    if (menu && menu.root === root) text(root.firstChild, `No alternatives: ${e && e.message ? e.message : e}`);
  } finally {
    root.setAttribute('aria-busy', 'false');
  }
}

/** The menu's items: each word with how likely the model finds it; the word now there is marked. */
function fill(root, alternatives, current, onChoose) {
  root.replaceChildren();
  alternatives.forEach((a, i) => {
    const item = document.createElement('button');
    item.type = 'button';
    item.className = 'alt-item';
    item.setAttribute('role', 'menuitem');
    item.tabIndex = i === 0 ? 0 : -1;
    const word = a.word.trim();
    item.append(text(document.createElement('span'), word));
    const pct = a.probability >= 0.01 ? `${Math.round(a.probability * 100)}%` : '<1%';
    item.append(text(document.createElement('span'), pct));
    item.lastChild.className = 'alt-p';
    item.title = `…${word}${a.continuation}`;
    if (word === current) {
      item.classList.add('alt-current');
      item.setAttribute('aria-current', 'true');
    }
    item.addEventListener('click', () => onChoose(a));
    root.append(item);
  });
  if (!alternatives.length) root.append(text(document.createElement('p'), 'No other words.'));
  focusItem(0);
}

function onMenuKey(event) {
  const list = items();
  const at = list.indexOf(document.activeElement);
  let handled = true;
  switch (event.key) {
    case 'ArrowDown': focusItem(at + 1); break;
    case 'ArrowUp': focusItem(at < 0 ? -1 : at - 1); break;
    case 'Home': focusItem(0); break;
    case 'End': focusItem(-1); break;
    case 'Enter':
    case ' ':
      if (at >= 0) list[at].click();
      break;
    case 'Escape': close(); break;
    case 'Tab': close(); break;
    default: handled = false;
  }
  if (handled) event.preventDefault();
}

/**
 * Translates sentence `hit.s` again from `prefix` + the chosen word, and puts the new sentence in
 * place of the old one (the ranges of the sentences after it shift); a newer request (typing, the
 * Search menu) drops it, as it drops any translation.
 */
async function choose(hit, prefix, alternative) {
  const onCard = hit.el.closest('#align-target') !== null;
  close({ refocus: false });
  // The continuation's first character, when it is a space or punctuation, keeps the chosen word
  // whole: a prefix ending in a letter could be completed into a longer word.
  const next = alternative.continuation.match(/^[\s\p{P}]/u);
  const newPrefix = prefix + alternative.word + (next ? next[0] : '');
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  const seq = ++state.seq;
  const result = state.result;
  const old = result.sentences[hit.s];
  setState('translating');
  el.target.setAttribute('aria-busy', 'true');
  text(el.status, 'Translating the rest of the sentence…');
  try {
    const t = await getTranslator(state.resultDir);
    const r = await t.translate(old.source, { beam: searchSettings().beam, shortlist: searchSettings().shortlist, alignments: true, prefix: newPrefix, signal: controller.signal });
    if (seq !== state.seq) return;
    state.result = withSentence(result, hit.s, r.sentences[0], newPrefix);
    render(state.result);
    selectSentence(hit.s, true);
    setState('done');
    text(el.status, `Sentence ${hit.s + 1} translated again with “${alternative.word.trim()}”.`); // (a live region)
    const again = onCard ? el.alignTarget.querySelector(`.w[data-w="${hit.w}"]`)
      : state.outWords[hit.s] && state.outWords[hit.s][hit.w];
    if (again) {
      if (!again.hasAttribute('tabindex') || again.tabIndex < 0) again.tabIndex = onCard ? 0 : -1;
      again.focus();
    }
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

/**
 * `result` with sentence `i` replaced by `sentence` (translated alone from `forcedPrefix`): texts
 * and ranges updated.
 */
function withSentence(result, i, sentence, forcedPrefix) {
  const old = result.sentences[i];
  const [b, e] = old.targetRange;
  const delta = sentence.target.length - (e - b);
  const sentences = result.sentences.map((s, j) => {
    if (j < i) return s;
    if (j > i) return { ...s, targetRange: [s.targetRange[0] + delta, s.targetRange[1] + delta] };
    // forcedPrefix: the prefix it was made from (the heatmap asks for its heads with it again)
    return { ...sentence, sourceRange: old.sourceRange, targetRange: [b, b + sentence.target.length], forcedPrefix };
  });
  return { ...result, text: result.text.slice(0, b) + sentence.target + result.text.slice(e), sentences };
}

/** Clicks and taps on target words, Enter/Space on the card's, and a click elsewhere closes. */
export function bindAlternativesMenu() {
  for (const area of [el.target, el.alignTarget]) {
    area.addEventListener('click', (event) => {
      const hit = targetWord(event);
      if (hit && !(menu && menu.invoker === hit.el)) open(hit);
      else if (hit) close();
    });
  }
  // The card's words say that Enter opens a menu (screen readers announce it).
  el.alignTarget.addEventListener('focusin', (event) => {
    const hit = targetWord(event);
    if (hit) hit.el.setAttribute('aria-haspopup', 'menu');
  });
  el.alignTarget.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const hit = targetWord(event);
    if (!hit) return;
    event.preventDefault();
    open(hit);
  });
  document.addEventListener('click', (event) => {
    if (!menu || menu.root.contains(event.target) || menu.invoker.contains(event.target)) return;
    close({ refocus: false });
  });
  window.addEventListener('resize', () => close({ refocus: false }));
}
