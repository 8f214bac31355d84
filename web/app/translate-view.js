/**
 * The two panes: the input (#source, its character count, Clear, Ctrl+Enter) and the output
 * (#target, with the status line, speed figures and Copy). Translation runs as you type, debounced;
 * a newer request aborts the older one. A long input (more than STREAM_CHARS, so several chunks)
 * is translated with translateStreaming(): each chunk's sentences are drawn as soon as they arrive,
 * while the rest is translated (aria-busy stays true). The finished output is drawn as sentences of
 * word spans (for the alignment view); all model text goes in as text nodes, never as HTML.
 */
import { el, text, showError, setState, keepFocusFrom, textDirection } from './dom.js';
import { state, resultIsOf } from './state.js';
import { getTranslator, searchSettings } from './loader.js';
import { appendWords, selectSentence } from './alignment-view.js';
import { closeWordMenu } from './alternatives-menu.js';
import { unsureWords } from './confidence.js';
import { updateLanguageHint } from './language-hint.js';
import { termsOption, rejectedTerms, markTermWords } from './terms.js';
import { bindKeyboard } from './keyboard.js';

const DEBOUNCE_MS = 250;
/** Inputs longer than this are cut into chunks (planChunks' default size): they are streamed. */
const STREAM_CHARS = 1000;
/**
 * Whether the error notice shows a failed translation's or model load's error, which the next text
 * tries again (not one of app.js's start-up errors, which stay).
 */
let translationFailed = false;

/** A model that could not load at the start: its error shows, and goes as a translation's does. */
export function showLoadError(message) {
  setState('error');
  showError(message);
  translationFailed = true;
}

/** The count under the text box, in characters as a person counts them (an emoji is one, not two UTF-16 units). */
export function updateCount() {
  const value = el.source.value;
  const n = value.length - (value.match(/[\uD800-\uDBFF](?=[\uDC00-\uDFFF])/g) || []).length;
  text(el.count, `${n.toLocaleString()} character${n === 1 ? '' : 's'}`);
}

/**
 * The status line's message, in a live region: what a screen reader hears once per translation
 * (started, done, stopped). The progress beside it is for the eyes only (never every step aloud).
 */
function showStatus(message) {
  if (el.status.textContent !== message) text(el.status, message);
  text(el.statusProgress, '');
}

const streamingInput = (input) => input.length > STREAM_CHARS;

function scheduleTranslate() {
  clearTimeout(state.timer);
  state.timer = setTimeout(translateNow, DEBOUNCE_MS);
}

/** No translation shown: the output pane, its word menu, Copy, legends and figures emptied, and the result forgotten. */
function emptyOutput() {
  closeWordMenu();
  state.result = null;
  state.resultInput = null;
  state.outWords = [];
  drawn = null;
  el.target.removeAttribute('dir');
  el.target.replaceChildren();
  el.target.dataset.sentences = '0';
  delete el.target.dataset.partial;
  delete el.target.dataset.inputLength;
  keepFocusFrom(el.copy);
  el.copy.disabled = true;
  el.unsureLegend.hidden = true;
  el.termLegend.hidden = true;
  text(el.stats, '');
  el.stats.title = '';
}

export function clearOutput() {
  emptyOutput();
  selectSentence(0, true); // (forced: with sentence 1 already selected it would keep the old card)
}

export async function translateNow() {
  clearTimeout(state.timer);
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  const seq = ++state.seq;
  const input = el.source.value;
  const dir = state.dir;
  const undo = document.getElementById('undo-choice');
  keepFocusFrom(undo);
  undo.hidden = true; // (a new translation, or none: nothing to undo)
  if (!input.trim()) {
    if (translationFailed) showError(''); // (about a text no longer there; the page's own start-up errors stay)
    translationFailed = false;
    clearOutput();
    showStatus('');
    el.target.setAttribute('aria-busy', 'false');
    setState('idle');
    return;
  }
  setState('translating');
  el.target.setAttribute('aria-busy', 'true');
  showStatus('Translating…');
  // What this request has finished so far: Stop keeps it as a usable, partial result.
  // (`text`: null while streaming, where it is the output pane's text, read when Stop keeps it)
  const kept = { seq, dir, input, text: streamingInput(input) ? null : '', sentences: [] };
  state.kept = kept;
  try {
    const t = await getTranslator(dir);
    if (controller.signal.aborted) return;
    showError('');
    translationFailed = false;
    const { beam, shortlist } = searchSettings();
    const streaming = streamingInput(input);
    const options = {
      beam,
      shortlist,
      alignments: true,
      ...termsOption(dir),
      signal: controller.signal,
      onProgress: (p) => {
        if (seq !== state.seq) return;
        const pct = Math.round((100 * p.done) / Math.max(1, p.total));
        text(el.statusProgress, ` ${pct}%`);
        if (!streaming) {
          // (the translation the first part replaces goes from the card and Copy too, as when streaming)
          if (!kept.sentences.length) clearOutput();
          renderPartial(p.text);
          kept.text = p.text;
          kept.sentences.push(...p.sentences);
        }
      },
    };
    let result;
    if (streaming) {
      const stream = t.translateStreaming(input, options);
      const draw = streamedOutput(input);
      for await (const sentence of stream) {
        if (seq !== state.seq) return; // (a newer request aborted this one)
        draw(sentence);
        kept.sentences.push(sentence);
      }
      result = await stream.translation;
    } else {
      result = await t.translate(input, options);
    }
    if (seq !== state.seq) return;
    state.result = result;
    state.resultDir = dir;
    state.resultInput = input;
    state.heads = null;
    render(result);
    setState('done');
    // a screen reader hears that the translation is ready (and how much)
    const n = result.sentences.length;
    showStatus(`Translated: ${n} sentence${n === 1 ? '' : 's'}.`);
  } catch (e) {
    if (e && e.name === 'AbortError') return;
    if (seq !== state.seq) return;
    // a term the engine's rules refuse: its line says so, and the text is translated without it
    if (rejectedTerms(dir, e)) { translateNow(); return; }
    // another text's translation still shown goes; the sentences of this text drawn before the error stay
    if (!kept.sentences.length && !resultIsOf(input, dir)) clearOutput();
    setState('error');
    showStatus('');
    showError(e && e.message ? e.message : String(e));
    translationFailed = true;
  } finally {
    if (seq === state.seq) el.target.setAttribute('aria-busy', 'false');
  }
}

function renderPartial(partialText) {
  drawn = null;
  el.target.dir = textDirection(partialText);
  el.target.replaceChildren(document.createTextNode(partialText));
  el.unsureLegend.hidden = true;
  el.termLegend.hidden = true;
}

/**
 * Starts drawing a streamed translation; returns the function that appends each sentence as it
 * arrives: a sentence span of word spans (unsure words marked), after the whitespace the
 * translation keeps from the input. The translation it replaces is gone from the output, so its
 * alignment card and Copy go too; words answer hovering once the whole result is drawn by render().
 */
function streamedOutput(input) {
  emptyOutput();
  selectSentence(0, true);
  drawn = { sentences: [], spans: [], gaps: [], tail: null };
  let sourceEnd = 0;
  let targetEnd = 0;
  let n = 0;
  return (s) => {
    const gap = input.slice(sourceEnd, s.sourceRange[0]);
    const gapLength = s.targetRange[0] - targetEnd;
    // the engine copies the text between sentences: whitespace, the marks between a menu's items
    // (" » ") and a list number at a line's start ("\n2. ")
    const copied = /^(?:[\s|¦»›•·∙◦‣→]|\d{1,3}[.)](?=[ \t]))*$/u;
    const between = gap.length === gapLength && copied.test(gap) ? gap : ' '.repeat(Math.max(0, gapLength));
    if (between) el.target.append(between);
    if (n === 0) el.target.dir = textDirection(s.target);
    const marked = unsureWords(s);
    const sent = sentenceSpan(s, n, marked);
    el.target.append(sent);
    drawn.gaps.push(between);
    drawn.sentences.push(s);
    drawn.spans.push(sent);
    if (marked.size) el.unsureLegend.hidden = false;
    if (markTermWords(state.dir, [s], state.outWords, n)) el.termLegend.hidden = false;
    n += 1;
    el.target.dataset.sentences = String(n);
    [sourceEnd, targetEnd] = [s.sourceRange[1], s.targetRange[1]];
  };
}

/**
 * What the output pane shows, so that render() keeps what did not change (a translation streamed
 * sentence by sentence, the sentences around a chosen word's): the sentences drawn, their spans,
 * the text before each (`gaps`) and after the last (`tail`, a text node or null). Null: the pane
 * holds something else (nothing, a partial text).
 */
let drawn = null;

/** Whether sentence `b` draws as `a` did: the same text, words, confidence and passes (terms). */
const drawsAs = (a, b) => a === b || (a.target === b.target && a.targetWords === b.targetWords &&
  a.targetWordConfidence === b.targetWordConfidence && a.passes === b.passes);

/** Sentence `i`'s span of word spans (state.outWords[i]), the words in `unsure` marked. */
function sentenceSpan(s, i, unsure) {
  const sent = document.createElement('span');
  sent.className = 'sent';
  sent.dataset.s = String(i);
  if (textDirection(s.target) === 'rtl') sent.dir = 'rtl'; // (a copied Hebrew or Arabic sentence: its marks on its left)
  state.outWords[i] = appendWords(sent, s.target, s.targetWords, 't', i, false, unsure);
  return sent;
}

/**
 * Draws `result` in the output pane. Where the pane already shows its sentences with the same
 * text between them (the streamed sentences of this translation, or all but a chosen word's), only
 * the sentences that changed are drawn again: drawing some thousand word spans anew held the page
 * for 100-200 ms on a slow phone.
 */
export function render(result) {
  closeWordMenu();
  const gaps = [];
  let pos = 0;
  for (const { targetRange: [b, e] } of result.sentences) {
    gaps.push(b > pos ? result.text.slice(pos, b) : '');
    pos = e;
  }
  const tail = result.text.slice(pos);
  if (drawn && drawn.sentences.length === result.sentences.length && gaps.every((g, i) => g === drawn.gaps[i])) {
    result.sentences.forEach((s, i) => {
      if (drawsAs(drawn.sentences[i], s)) return;
      const sent = sentenceSpan(s, i, unsureWords(s));
      drawn.spans[i].replaceWith(sent);
      drawn.spans[i] = sent;
      markTermWords(state.resultDir, [s], state.outWords, i);
    });
    drawn.sentences = [...result.sentences];
    if (drawn.tail) drawn.tail.remove();
    drawn.tail = tail ? el.target.appendChild(document.createTextNode(tail)) : null;
  } else {
    const frag = document.createDocumentFragment();
    state.outWords = [];
    drawn = { sentences: [...result.sentences], spans: [], gaps, tail: null };
    result.sentences.forEach((s, i) => {
      if (gaps[i]) frag.append(gaps[i]);
      drawn.spans.push(frag.appendChild(sentenceSpan(s, i, unsureWords(s))));
    });
    if (tail) drawn.tail = frag.appendChild(document.createTextNode(tail));
    el.target.replaceChildren(frag);
    markTermWords(state.resultDir, result.sentences, state.outWords);
  }
  el.target.dir = textDirection(result.text);
  el.target.dataset.sentences = String(result.sentences.length);
  if (state.resultInput !== null) el.target.dataset.inputLength = String(state.resultInput.length); // which text's translation is shown (for tests and tools)
  delete el.target.dataset.partial;
  if (!result.text) keepFocusFrom(el.copy);
  el.copy.disabled = !result.text;
  el.unsureLegend.hidden = !el.target.querySelector('.w.unsure');
  el.termLegend.hidden = !el.target.querySelector('.w.term');

  const secs = result.timings.engineMs / 1000;
  const tps = result.stats.tokensPerSecond;
  const n = result.sentences.length;
  text(el.stats, `${n} sentence${n === 1 ? '' : 's'} in ${Math.round(result.timings.totalMs)} ms`);
  el.stats.title = `${result.stats.targetTokens} tokens (word pieces) written, ${tps >= 100 ? Math.round(tps) : tps.toFixed(1)} tokens/s; ` +
    `engine ${Math.round(secs * 1000)} ms (encode ${Math.round(result.timings.encodeMs)}, decode ${Math.round(result.timings.decodeMs)}), waiting ${Math.round(result.timings.queueMs)} ms`;
  if (result.partial) showPartialFoot(result); // (also when a chosen word or Undo redraws it)
  selectSentence(Math.min(state.sel, Math.max(0, n - 1)), true);
}

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
  // (a button's new name is not reliably read while it has the focus: a live region says it)
  text(el.copySaid, ok ? 'Copied to the clipboard.' : 'Could not copy to the clipboard.');
  setTimeout(() => { text(el.copy, 'Copy'); text(el.copySaid, ''); }, 1500);
}

/**
 * Stop (the button shown while a translation runs, or Escape in the text box): the request is
 * aborted, what was already drawn of this text stays, and the page waits for the next edit or Ctrl+Enter.
 */
function stopTranslating() {
  if (el.body.dataset.state !== 'translating') return;
  clearTimeout(state.timer);
  if (state.controller) state.controller.abort();
  state.controller = null;
  const kept = state.kept && state.kept.seq === state.seq ? state.kept : null;
  state.seq += 1; // an answer of the stopped request that is already on its way is ignored
  el.target.setAttribute('aria-busy', 'false');
  if (kept && kept.sentences.length) keepPartial(kept);
  // nothing of this text done: the translation still shown (kept while the next one runs) may be another text's
  else if (!resultIsOf(el.source.value, state.dir)) clearOutput();
  setState('idle');
  showStatus('Stopped.');
  el.source.focus();
}

/**
 * The sentences a stopped request had finished become the page's result, marked partial: the
 * same text stays on screen, and its words answer hovering and tapping, the alignment card and
 * the heatmap show them, and Copy copies them. The foot of the output says it is partial.
 */
function keepPartial(kept) {
  const sum = (key) => kept.sentences.reduce((n, s) => n + ((s[key] && s[key].length) || 0), 0);
  const result = {
    text: kept.text === null ? el.target.textContent : kept.text,
    sentences: kept.sentences,
    partial: true,
    stats: { sourceTokens: sum('sourceTokens'), targetTokens: sum('targetTokens'), tokensPerSecond: 0, chunks: 0 },
    timings: { engineMs: 0, encodeMs: 0, decodeMs: 0, queueMs: 0, totalMs: 0 },
  };
  state.result = result;
  state.resultDir = kept.dir;
  state.resultInput = kept.input;
  state.heads = null;
  render(result);
}

/** A partial result's mark and foot, which say it is partial (on the page, not only in the title: a phone shows no titles). */
function showPartialFoot(result) {
  el.target.dataset.partial = 'true';
  const n = result.sentences.length;
  const rest = (state.resultInput || '').slice(result.sentences[n - 1].sourceRange[1]).trim() ? '; the rest is not translated' : '';
  text(el.stats, `Partial: stopped after ${n} sentence${n === 1 ? '' : 's'}${rest}`);
  el.stats.title = 'Stop ended the translation: the rest of the text was not translated. Edit the text or press Ctrl+Enter to translate it all.';
}

/** Typing, Ctrl+Enter, Escape, Clear, Stop (above a phone's keyboard: keyboard.js), a new Quality (search) setting, Copy. */
export function bindTranslateView() {
  el.source.addEventListener('input', () => { updateCount(); updateLanguageHint(); scheduleTranslate(); });
  el.source.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); translateNow(); }
    if (e.key === 'Escape' && el.body.dataset.state === 'translating') { e.preventDefault(); stopTranslating(); }
  });
  el.stop.addEventListener('click', stopTranslating);
  el.clear.addEventListener('click', () => { el.source.value = ''; updateCount(); updateLanguageHint(); translateNow(); el.source.focus(); });
  el.beam.addEventListener('change', () => translateNow());
  el.copy.addEventListener('click', copyOutput);
  bindKeyboard();
}
