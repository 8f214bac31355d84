/**
 * The translation direction: the Direction menu (offering only the directions the models
 * manifest lists), the swap button and Alt+S (which also move the translation into the input, when
 * it is the translation of the text there),
 * the pane and card labels and lang attributes, and the choice remembered in localStorage.
 * Changing it clears the output, starts loading that direction's model and translates again.
 */
import { el, text } from './dom.js';
import { state, langName, fromOf, toOf, resultIsOf } from './state.js';
import { getTranslator } from './loader.js';
import { updateCount, clearOutput, translateNow, showLoadError } from './translate-view.js';
import { bindLanguageHint, updateLanguageHint } from './language-hint.js';
import { showTermsFor } from './terms.js';

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
  updateLanguageHint();
  showTermsFor(state.dir);
}

function setDirection(dir, { swapText = false } = {}) {
  // chosen before the list of models came: kept, and offerDirections() takes it
  if (!state.models.length) {
    state.chosenDir = dir;
    return;
  }
  if (!state.models.some((m) => `${m.from}-${m.to}` === dir)) return;
  // Only a whole translation of the text now in the box moves into it: while a newer text waits for
  // its translation (typed since, or still streaming), or after Stop kept only part of it, the
  // person's own text stays.
  if (swapText && resultIsOf(el.source.value, state.dir) && !state.result.partial) {
    el.source.value = state.result.text;
    updateCount();
  }
  state.dir = dir;
  applyDirection();
  clearOutput();
  // With an empty box translateNow() asks for no translator, so a model that cannot load says so here.
  getTranslator(dir).catch((e) => {
    if (state.dir === dir) showLoadError(e && e.message ? e.message : String(e));
  });
  translateNow();
}

/**
 * Offers the directions of `state.models` in the menu (swap only when both exist) and picks the
 * direction chosen while the list was loading, else the saved one, else English → German, else the
 * first.
 */
export function offerDirections() {
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
  const chosen = state.chosenDir;
  state.dir = dirs.includes(chosen) ? chosen : dirs.includes(saved) ? saved : (dirs.includes('en-de') ? 'en-de' : dirs[0]);
  applyDirection();
}

/** The Direction menu, the swap button and Alt+S. */
export function bindDirection() {
  el.direction.addEventListener('change', () => setDirection(el.direction.value));
  el.swap.addEventListener('click', () => setDirection(`${toOf(state.dir)}-${fromOf(state.dir)}`, { swapText: true }));
  bindLanguageHint((dir) => setDirection(dir));
  document.addEventListener('keydown', (e) => {
    if (e.altKey && (e.key === 's' || e.key === 'S')) { e.preventDefault(); el.swap.click(); }
  });
}
