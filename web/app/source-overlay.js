/**
 * Highlights in the text box itself: a mirror of the textarea (#source-mirror, same font, padding,
 * wrapping and scroll position) sits behind it, and the textarea's own background is transparent,
 * so marks drawn in the mirror appear behind the words the person typed, on a phone as on a
 * desktop. The mirror holds text only while something is marked; its text is transparent and it
 * takes no pointer events, so typing, selecting and scrolling work as before. Marks are input
 * offsets with a strength (the alignment weight, 0..1) and a kind ('hl' aligned, 'self' the word
 * itself); they are dropped as soon as the text changes.
 */
import { el } from './dom.js';

const mirror = () => document.getElementById('source-mirror');

/** Keeps the mirror's box (without the textarea's scrollbar) and scroll position on the textarea's. */
function syncBox() {
  const m = mirror();
  if (!m || !m.childNodes.length) return;
  const t = el.source;
  m.style.width = `${t.clientWidth}px`;
  m.style.height = `${t.clientHeight}px`;
  m.scrollTop = t.scrollTop;
  m.scrollLeft = t.scrollLeft;
}

export function clearSourceMarks() {
  const m = mirror();
  if (m && m.childNodes.length) m.replaceChildren();
}

/**
 * Draws `marks` ([{start, end, weight, kind, linked}], offsets into the text box's value) behind
 * the text box; overlapping or out-of-range marks are skipped.
 */
export function showSourceMarks(marks) {
  const m = mirror();
  if (!m) return;
  const value = el.source.value;
  const list = marks.filter((k) => k.start >= 0 && k.end <= value.length && k.end > k.start).sort((a, b) => a.start - b.start);
  if (!list.length) {
    clearSourceMarks();
    return;
  }
  const frag = document.createDocumentFragment();
  let pos = 0;
  for (const k of list) {
    if (k.start < pos) continue;
    if (k.start > pos) frag.append(value.slice(pos, k.start));
    const mark = document.createElement('mark');
    mark.className = `src-mark ${k.kind === 'self' ? 'self' : 'hl'}${k.linked ? ' linked' : ''}`;
    mark.style.setProperty('--w', (k.weight || 0).toFixed(3));
    mark.dataset.start = String(k.start);
    mark.textContent = value.slice(k.start, k.end);
    frag.append(mark);
    pos = k.end;
  }
  frag.append(value.slice(pos));
  if (value.endsWith('\n')) frag.append('\u200b'); // a textarea shows the line after a final newline; a div does not
  m.replaceChildren(frag);
  syncBox();
  revealMarks(m);
}

/**
 * When none of the marks is in view (a long text scrolled elsewhere), scrolls the text box to the
 * strongest one, a third of the way down, so that a highlight is never invisible.
 */
function revealMarks(m) {
  const t = el.source;
  const marks = [...m.querySelectorAll('mark')];
  if (!marks.length || t.scrollHeight <= t.clientHeight) return;
  const top = m.getBoundingClientRect().top - m.scrollTop; // content y = rect.top - top
  const y = (k) => k.getBoundingClientRect().top - top;
  const visible = (k) => y(k) + k.offsetHeight > t.scrollTop && y(k) < t.scrollTop + t.clientHeight;
  if (marks.some(visible)) return;
  const strongest = marks.reduce((a, b) => (Number(b.style.getPropertyValue('--w')) > Number(a.style.getPropertyValue('--w')) ? b : a));
  t.scrollTop = Math.max(0, y(strongest) - t.clientHeight / 3);
  syncBox();
}

/** Marks go when the text changes; the mirror follows the textarea's scrolling and size. */
export function bindSourceOverlay() {
  el.source.addEventListener('input', clearSourceMarks);
  el.source.addEventListener('scroll', syncBox);
  if (typeof ResizeObserver === 'function') new ResizeObserver(syncBox).observe(el.source);
}
