/**
 * The "Terms" box: the reader's own glossary, one per direction, kept in localStorage. A line is
 * `source = target` (or two columns separated by a tab, as a spreadsheet pastes them); empty
 * lines and lines starting with # are skipped. Every translation on the page (as you type, the
 * word menu, the heatmap) passes the good lines as translate()'s `glossary` option, and the
 * translated words that came from a term are marked in the output.
 *
 * Bad lines get a message under the box: the page's own for a line it cannot read (no "=" or tab,
 * a term written twice); the module's own for a term the engine's rules refuse (a source term
 * under 2 bytes, an empty target term, ...): translate() rejects with code 'bad-request', and
 * rejectedTerms() finds the line its message quotes, leaves that line out and lets the page
 * translate again. A key in the box only notes its text; the messages and the translation follow
 * after a typing pause (never on every key). User text goes in as text, never as HTML.
 */
import { $, el, text } from './dom.js';
import { state, langName, fromOf, toOf } from './state.js';

const EDIT_PAUSE_MS = 500;
const storageKey = (dir) => `nmt.terms.${dir}`;
const EXAMPLES = { 'en-de': 'notice period = Kündigungsfrist\nAcme Cloud = Acme Cloud', 'de-en': 'Kündigungsfrist = notice period\nAcme Cloud = Acme Cloud' };

const box = {
  input: $('terms-text'), label: $('terms-label'), count: $('terms-count'), problems: $('terms-problems'),
};

/**
 * Per direction: { text, terms: [{line, source, target}], problems: Map(line → the page's message),
 * refused: Map(line → the module's message), option: termsOption()'s answer (null: not made yet),
 * lower: the used terms lower-cased, for markTermWords() }.
 */
const parsed = new Map();

// The box's text typed since it was last read: { dir, value }. It is read and saved when a
// translation asks for the terms, at the typing pause, or when the page goes away: a key in the
// box costs nothing more than this (10,000 lines take ~50 ms to read).
let pending = null;

function readPending() {
  if (!pending) return;
  const { dir, value } = pending;
  pending = null;
  save(dir, value);
  readTerms(dir, value);
}

function load(dir) {
  try { return localStorage.getItem(storageKey(dir)) || ''; } catch { return ''; } // (private mode)
}

function save(dir, value) {
  try {
    if (value.trim()) localStorage.setItem(storageKey(dir), value);
    else localStorage.removeItem(storageKey(dir));
  } catch { /* private mode, or full: the terms still apply until the page closes */ }
}

/** Reads the box's text: the terms, and what is wrong with the lines it cannot use. */
export function parseTerms(value) {
  const terms = [];
  const problems = new Map();
  const seen = new Map(); // source term → its line
  value.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) return;
    const at = raw.includes('\t') ? raw.indexOf('\t') : raw.indexOf('=');
    if (at < 0) {
      problems.set(line, `write the term and its translation with "=" between them ("${trimmed.slice(0, 40)} = …").`);
      return;
    }
    const [source, target] = [raw.slice(0, at).trim(), raw.slice(at + 1).trim()];
    if (seen.has(source)) {
      problems.set(line, `"${source}" is already on line ${seen.get(source)}, which is used.`);
      return;
    }
    seen.set(source, line);
    terms.push({ line, source, target });
  });
  return { terms, problems };
}

/** The box's text, read into a direction's entry (its refused lines and option cache start empty). */
function readTerms(dir, value) {
  parsed.set(dir, { text: value, ...parseTerms(value), refused: new Map(), option: null });
}

function termsOf(dir) {
  readPending();
  if (!parsed.has(dir)) readTerms(dir, load(dir));
  return parsed.get(dir);
}

/** The good terms of a direction as translate()'s option: `{ glossary }`, or {} when there are none (kept until they change). */
export function termsOption(dir) {
  const entry = termsOf(dir);
  if (!entry.option) {
    const used = entry.terms.filter((t) => !entry.refused.has(t.line));
    entry.option = used.length ? { glossary: Object.fromEntries(used.map((t) => [t.source, t.target])) } : {};
    // lower-cased once, for markTermWords()
    entry.lower = used.map((t) => [t.source, t.target, t.source.toLowerCase(), t.target.toLowerCase()]);
  }
  return entry.option;
}

/** How the engine's messages name a term: "…" around it, cut after 40 UTF-8 bytes with "...". */
function quotedTerm(term) {
  // as UTF-8 reads it: a lone surrogate is U+FFFD in the engine's message, as here
  const bytes = new TextEncoder().encode(term);
  return `"${new TextDecoder().decode(bytes.length > 40 ? bytes.subarray(0, 40) : bytes)}${bytes.length > 40 ? '...' : ''}"`;
}

/**
 * After translate() rejected: when the error is the module's 'bad-request' for a glossary term
 * of `dir`, the line it names is left out from now on, its message shown, and true returned (the
 * caller translates again); otherwise false. A message naming no line (too many terms) leaves
 * every line out.
 */
export function rejectedTerms(dir, error) {
  const { glossary } = termsOption(dir);
  if (!glossary || !error || error.code !== 'bad-request' || !/\bglossary\b/.test(error.message)) return false;
  const message = error.message.replace(/^translate\(\): /, '');
  const entry = termsOf(dir);
  const named = entry.terms.filter((t) => !entry.refused.has(t.line) && message.includes(quotedTerm(t.source)));
  for (const t of named.length ? named.slice(0, 1) : entry.terms) entry.refused.set(t.line, message);
  entry.option = null;
  if (dir === state.dir) showProblems(entry);
  return true;
}

function showProblems(entry) {
  const all = [...entry.problems, ...entry.refused].sort((a, b) => a[0] - b[0]);
  box.problems.replaceChildren(...all.map(([line, message]) => {
    const li = document.createElement('li');
    li.textContent = `Line ${line}: ${message}`;
    return li;
  }));
  box.problems.hidden = all.length === 0;
  const used = entry.terms.filter((t) => !entry.refused.has(t.line)).length;
  text(box.count, used ? `(${used})` : '');
}

/** Shows the terms of the direction now chosen (the Direction menu and swap call this). */
export function showTermsFor(dir) {
  const entry = termsOf(dir);
  box.input.value = entry.text;
  box.input.placeholder = EXAMPLES[dir] || 'source term = target term';
  box.input.lang = fromOf(dir);
  text(box.label, `Your terms, ${langName(fromOf(dir))} → ${langName(toOf(dir))}`);
  showProblems(entry);
}

/**
 * Marks the words of `sentences` (drawn as `spans`, [sentence][targetWord] → span) that a term
 * of `dir` wrote: where the engine's glossary pass changed a sentence, each target term it holds
 * (in any letter case) whose source term is in the source. Returns how many words it marked.
 */
export function markTermWords(dir, sentences, spans, first = 0) {
  if (!termsOption(dir).glossary) return 0;
  const terms = termsOf(dir).lower;
  let marked = 0;
  sentences.forEach((s, k) => {
    if (!s.passes || !s.passes.includes('glossary') || !s.targetWords) return;
    const source = s.source.toLowerCase();
    const lower = s.target.toLowerCase();
    const target = lower.length === s.target.length ? lower : s.target; // (offsets must stay those of s.target)
    for (const [from, to, fromLower, needle] of terms) {
      if (!source.includes(fromLower)) continue;
      for (let at = target.indexOf(needle); at >= 0 && needle; at = target.indexOf(needle, at + needle.length)) {
        s.targetWords.forEach(([b, e], w) => {
          const span = spans[first + k] && spans[first + k][w];
          if (!span || b >= at + needle.length || e <= at || span.classList.contains('term')) return;
          span.classList.add('term');
          span.title = `From your terms: ${from} = ${to}${span.title ? `\n${span.title}` : ''}`;
          marked += 1;
        });
      }
    }
  });
  return marked;
}

/** The box: after a typing pause, its text read and saved, its lines checked, the text translated again. */
export function bindTerms(retranslate) {
  let timer = 0;
  box.input.addEventListener('input', () => {
    const dir = state.dir;
    pending = { dir, value: box.input.value };
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (dir !== state.dir) return; // (another direction shows now; its change translated again)
      showProblems(termsOf(dir));
      if (el.source.value.trim()) retranslate();
    }, EDIT_PAUSE_MS);
  });
  addEventListener('pagehide', readPending);
  showTermsFor(state.dir);
}
