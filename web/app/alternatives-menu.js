/**
 * The word menu: clicking or tapping a translated word (in the output or on the alignment card),
 * or Enter/Space on a focused one on the card, opens a small menu of other words the model would
 * put there (translator.alternatives(): the sentence's source, the translation up to that word).
 * The word now in the sentence is always listed and marked; each entry previews how the sentence
 * would go on after it (the model's greedy continuation) and says in words how the model rates it
 * (ratingOf: "the model's choice", "also likely", ...; the percentage only in its tooltip).
 * Choosing one translates the rest of that sentence again from the new prefix (the translation up
 * to the word + the chosen word) with the page's Search setting and shows the whole new sentence
 * in the menu; "Use this sentence" puts it in place of the old one and redraws the output and the
 * alignment card, and the output's Undo button (#undo-choice) brings the old one back. Keys in the
 * menu: ↑/↓ (and Home/End) move, Enter or Space chooses, Escape or Tab closes; focus goes back to
 * the word.
 */
import { el, text, inLang, showError, setState, keepFocusFrom } from './dom.js';
import { state, toOf } from './state.js';
import { getTranslator, searchSettings } from './loader.js';
import { render } from './translate-view.js';
import { selectSentence } from './alignment-view.js';
import { termsOption } from './terms.js';

const COUNT = 5;
const WORDLIKE = /[\p{L}\p{N}]/u;

let menu = null; // {root, invoker, s, w}
let undo = null; // {before, after}: the translation before the last chosen word, and after it

/**
 * How the model rates a word, in words. The first (most probable) is the model's own choice, the
 * one greedy search takes; the thresholds are the word's probability at that place.
 */
export function ratingOf(probability, first) {
  if (first) return 'the model\u2019s choice';
  if (probability >= 0.15) return 'also likely';
  if (probability >= 0.03) return 'possible';
  return 'unlikely';
}

/**
 * The menu's line while it waits, which says what went wrong if it fails: a live region, since
 * the focus is on the menu itself and nothing else would say it.
 */
function statusLine(message) {
  const line = text(document.createElement('p'), message);
  line.className = 'alt-status';
  line.setAttribute('role', 'status');
  return line;
}

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

/** Closes the menu (if open): the output it was opened on is being replaced. */
export function closeWordMenu() {
  if (menu) keepFocusFrom(menu.root);
  close({ refocus: false });
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

/** The screen boxes of elements `nodes`. */
const boxesOf = (nodes) => [...nodes].map((n) => n.getBoundingClientRect()).filter((r) => r.width > 0 || r.height > 0);

/** The text box's highlight (its mirror's marks), as far as the text box shows it. */
function sourceMarkBoxes() {
  const box = document.getElementById('source').getBoundingClientRect();
  return boxesOf(document.querySelectorAll('#source-mirror mark'))
    .filter((r) => r.bottom > box.top && r.top < box.bottom)
    .map((r) => ({ top: Math.max(r.top, box.top), bottom: Math.min(r.bottom, box.bottom), left: r.left, right: r.right }));
}

/**
 * The free stretches of the screen's height, [top, bottom] each, between `boxes` that overlap the
 * columns `left`..`right` (with a few pixels' margin), from `from` to `to`.
 */
function freeSpans(boxes, left, right, from, to) {
  const taken = boxes.filter((r) => r.right > left && r.left < right && r.bottom > from && r.top < to)
    .map((r) => [r.top - 4, r.bottom + 4]).sort((a, b) => a[0] - b[0]);
  const spans = [];
  let at = from;
  for (const [top, bottom] of taken) {
    if (top > at) spans.push([at, top]);
    at = Math.max(at, bottom);
  }
  if (to > at) spans.push([at, to]);
  return spans;
}

/**
 * Places the menu where it covers neither the word's sentence (all its lines) nor what the word
 * lights up (its source words in the text box, highlighted words on the card), inside the visible
 * screen (on a phone: above the keyboard), as near the word as that allows. Where no stretch of
 * the screen has room for all of it, the highlight may be covered, the sentence still not: the
 * menu goes below or above the sentence, where there is more room, and its list scrolls.
 */
function place(root, word) {
  const area = word.closest('#target, #align-target') || word.parentElement;
  const words = [...area.querySelectorAll(`.w[data-side="t"][data-s="${word.dataset.s}"]`)];
  const sentence = boxesOf(words.length ? words : [word]);
  const top = Math.min(...sentence.map((r) => r.top));
  const bottom = Math.max(...sentence.map((r) => r.bottom));
  const view = window.visualViewport;
  const viewTop = (view ? view.offsetTop : 0) + 8;
  const viewBottom = (view ? view.offsetTop + view.height : window.innerHeight) - 8;
  const viewWidth = document.documentElement.clientWidth;
  root.style.maxHeight = '';
  const width = root.offsetWidth;
  const r = word.getBoundingClientRect();
  const left = Math.max(4, Math.min(r.left, viewWidth - width - 4));
  const marks = sourceMarkBoxes();
  const lit = boxesOf(document.querySelectorAll('.w.hl, .w.self'));
  let height = root.offsetHeight;
  let menuTop = null;
  for (const boxes of [[...sentence, ...marks, ...lit], [...sentence, ...marks]]) {
    const fits = freeSpans(boxes, left, left + width, viewTop, viewBottom).filter(([a, b]) => b - a >= height);
    // (a stretch beside the sentence, where the menu's columns miss its lines, counts as nearest)
    const distance = ([a, b]) => Math.max(0, a - bottom, top - b);
    const nearest = fits.sort((x, y) => distance(x) - distance(y))[0];
    if (nearest) {
      const [a, b] = nearest;
      menuTop = a >= bottom ? a : b <= top ? b - height : Math.min(Math.max(a, r.bottom + 4), b - height);
      break;
    }
  }
  if (menuTop === null) {
    const roomBelow = viewBottom - bottom;
    const roomAbove = top - viewTop;
    const below = height <= roomBelow || roomBelow >= roomAbove;
    const room = Math.max(below ? roomBelow : roomAbove, 48);
    if (height > room) root.style.maxHeight = `${room}px`;
    height = root.offsetHeight;
    menuTop = below ? bottom + 4 : top - 4 - height;
  }
  root.style.top = `${window.scrollY + menuTop}px`;
  root.style.left = `${window.scrollX + left}px`;
}

/**
 * Before the menu's content grows: its left edge goes to the screen's, so that while it grows (up to
 * its max-width) it never sticks out on the right, which on a phone widens the page for a moment and
 * moves it (place() then puts it back beside its word). Its widths are the page's (100vw would
 * count a scrollbar in).
 */
function makeRoom(root) {
  const room = document.documentElement.clientWidth - 8;
  root.style.maxWidth = `min(22rem, ${room}px)`;
  root.style.minWidth = `min(10rem, ${room}px)`;
  root.style.left = `${window.scrollX + 4}px`;
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
  root.append(statusLine('Finding other words…'));
  makeRoom(root);
  document.body.append(root);
  place(root, word);
  root.focus();
  const shown = state.result; // the translation the menu is about
  menu = { root, invoker: word, s, w };
  root.addEventListener('keydown', onMenuKey);
  try {
    const t = await getTranslator(state.resultDir);
    const alternatives = await t.alternatives(sentence.source, prefix, { count: COUNT, ...termsOption(state.resultDir) });
    if (!menu || menu.root !== root) return;
    const listed = alternatives.some((a) => a.word.trim() === current) ? alternatives
      : [...alternatives, { word: current, probability: null, continuation: sentence.target.slice(range[1]) }];
    fill(root, listed, current, (a) => {
      if (state.result !== shown) close();
      else if (a.word.trim() === current) close(); // (the word already there: nothing changes)
      else choose(hit, prefix, a);
    });
    place(root, word); // (its size changed)
  } catch (e) {
    if (menu && menu.root === root) text(root.firstChild, `No alternatives: ${e && e.message ? e.message : e}`);
  } finally {
    root.setAttribute('aria-busy', 'false');
  }
}

/**
 * The menu's items, most probable first: each word, the rest of the sentence it leads to, and how
 * the model rates it; the word now in the sentence is marked (and listed last, unrated, when the
 * model would not put it among its likeliest).
 */
function fill(root, alternatives, current, onChoose) {
  makeRoom(root);
  root.replaceChildren();
  alternatives.forEach((a, i) => {
    const item = document.createElement('button');
    item.type = 'button';
    item.className = 'alt-item';
    item.setAttribute('role', 'menuitem');
    item.tabIndex = i === 0 ? 0 : -1;
    const word = a.word.trim();
    const isCurrent = word === current;
    const line = document.createElement('span');
    line.className = 'alt-line';
    line.lang = toOf(state.resultDir); // (the menu speaks English; its words are the translation's language)
    line.append(text(document.createElement('span'), word));
    line.firstChild.className = 'alt-word';
    line.append(text(document.createElement('span'), a.continuation));
    line.lastChild.className = 'alt-rest';
    item.append(line);
    const rated = a.probability === null ? 'not among the model\u2019s likeliest' : ratingOf(a.probability, i === 0);
    item.append(text(document.createElement('span'), isCurrent ? `${rated} · in your sentence now` : rated));
    item.lastChild.className = 'alt-p';
    if (a.probability !== null) item.title = `The model gives “${word}” ${a.probability >= 0.01 ? `${Math.round(a.probability * 100)}%` : 'less than 1%'} here.`;
    if (isCurrent) {
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
 * Translates sentence `hit.s` again from `prefix` + the chosen word and shows the whole new
 * sentence in the menu, the old one still in place: "Use this sentence" puts it in place of the
 * old one (the ranges of the sentences after it shift), "Keep the old one" closes. A newer
 * translation (typing, the Quality menu) closes the menu and drops the answer.
 */
async function choose(hit, prefix, alternative) {
  if (!menu) return;
  const { root } = menu;
  // The continuation's first character, when it is a space or punctuation, keeps the chosen word
  // whole: a prefix ending in a letter could be completed into a longer word.
  const next = alternative.continuation.match(/^[\s\p{P}]/u);
  const newPrefix = prefix + alternative.word + (next ? next[0] : '');
  const seq = state.seq;
  const result = state.result;
  const old = result.sentences[hit.s];
  const word = alternative.word.trim();
  root.setAttribute('aria-busy', 'true');
  root.replaceChildren(statusLine(`Writing the sentence with “${word}”…`));
  root.focus();
  try {
    const t = await getTranslator(state.resultDir);
    const r = await t.translate(old.source, { beam: searchSettings().beam, shortlist: searchSettings().shortlist, alignments: true, prefix: newPrefix, ...termsOption(state.resultDir) });
    if (!menu || menu.root !== root) return;
    if (seq !== state.seq || state.result !== result) { closeWordMenu(); return; } // (the output is being replaced)
    preview(root, old.target, r.sentences[0].target, () => use(hit, result, withSentence(result, hit.s, r.sentences[0], newPrefix), word));
  } catch (e) {
    if (menu && menu.root === root) text(root.firstChild, `Could not write it: ${e && e.message ? e.message : e}`);
  } finally {
    root.setAttribute('aria-busy', 'false');
  }
}

/** The menu shows the new sentence under the old one, with "Use this sentence" and "Keep the old one". */
function preview(root, oldText, newText, onUse) {
  makeRoom(root);
  root.replaceChildren();
  const add = (tag, className, content) => {
    const node = text(document.createElement(tag), content);
    node.className = className;
    root.append(node);
    return node;
  };
  add('p', 'alt-label', 'The sentence would become:');
  const lang = toOf(state.resultDir);
  Object.assign(add('p', 'alt-preview', newText), { id: 'alt-preview', lang });
  add('p', 'alt-label', 'Instead of:');
  Object.assign(add('p', 'alt-old', oldText), { id: 'alt-old', lang });
  // (a screen reader on a menu item reads the item only: each says which sentence it keeps)
  const button = (label, sentenceId, onClick) => {
    const b = add('button', 'alt-item alt-action', label);
    b.type = 'button';
    b.setAttribute('role', 'menuitem');
    b.setAttribute('aria-describedby', sentenceId);
    b.addEventListener('click', onClick);
  };
  button('Use this sentence', 'alt-preview', onUse);
  button('Keep the old one', 'alt-old', () => close());
  focusItem(0);
  if (menu) place(root, menu.invoker);
}

/** Puts the chosen sentence in place (`after`: the translation with it), and offers Undo. */
function use(hit, before, after, word) {
  const onCard = hit.el.closest('#align-target') !== null;
  close({ refocus: false });
  state.result = after;
  render(after);
  selectSentence(hit.s, true);
  setState('done');
  // (a live region; the word in its language)
  el.status.replaceChildren(`Sentence ${hit.s + 1} translated again with “`, inLang(word, toOf(state.resultDir)), '”.');
  undo = { before, after, s: hit.s, w: hit.w, onCard };
  const button = document.getElementById('undo-choice');
  button.hidden = false;
  focusWordAgain(hit.s, hit.w, onCard);
}

/** Focuses word `w` of sentence `s` as drawn again, on the card or in the output (where the menu was opened). */
function focusWordAgain(s, w, onCard) {
  const again = onCard ? el.alignTarget.querySelector(`.w[data-w="${w}"]`) : state.outWords[s] && state.outWords[s][w];
  if (again) {
    if (!again.hasAttribute('tabindex') || again.tabIndex < 0) again.tabIndex = onCard ? 0 : -1;
    again.focus();
  }
}

/** Undo: the translation as it was before the last chosen word (while nothing newer replaced it). */
function undoChoice() {
  const button = document.getElementById('undo-choice');
  const focused = document.activeElement === button;
  button.hidden = true;
  if (!undo || state.result !== undo.after) { undo = null; return; }
  const { before, s, w, onCard } = undo;
  undo = null;
  state.result = before;
  render(before);
  selectSentence(s, true);
  text(el.status, `Sentence ${s + 1} is back as it was.`);
  if (focused) focusWordAgain(s, w, onCard); // (the hidden button would take the focus with it)
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
    // (composedPath: a click in the menu may have replaced the item it hit, e.g. by the preview)
    if (!menu || event.composedPath().includes(menu.root) || menu.invoker.contains(event.target)) return;
    close({ refocus: false });
  });
  // (the focus goes back to the word only from the menu: a phone's keyboard opening for the text box resizes too)
  window.addEventListener('resize', () => close({ refocus: !!menu && menu.root.contains(document.activeElement) }));
  document.getElementById('undo-choice').addEventListener('click', undoChoice);
}
