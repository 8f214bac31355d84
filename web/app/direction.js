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
  fitDirectionNames();
  el.swap.disabled = !dirs.includes('de-en') || !dirs.includes('en-de');
  let saved = null;
  try { saved = localStorage.getItem('nmt.direction'); } catch { /* private mode */ }
  const chosen = state.chosenDir;
  state.dir = dirs.includes(chosen) ? chosen : dirs.includes(saved) ? saved : (dirs.includes('en-de') ? 'en-de' : dirs[0]);
  applyDirection();
}

/**
 * The menu shows 'EN → DE' where 'English → German' would be cut off: a phone of 320 px with the
 * text at 200%, or zoomed in (a closed select cannot wrap its text). The option's text stays the
 * whole name, which the open list shows; `label` is what the closed menu shows. Measured against
 * the toolbar's width (the line the menu may take), not the menu's own, which the labels change.
 */
function fitDirectionNames() {
  const menu = el.direction;
  const probe = menu.cloneNode(true);
  probe.removeAttribute('id');
  for (const o of probe.options) o.removeAttribute('label');
  probe.style.cssText = 'position: absolute; visibility: hidden; width: auto; max-width: none; min-width: 0; field-sizing: fixed';
  probe.setAttribute('aria-hidden', 'true');
  menu.parentElement.append(probe);
  const needed = probe.getBoundingClientRect().width;
  probe.remove();
  const toolbar = menu.closest('.toolbar');
  const style = getComputedStyle(toolbar);
  const room = toolbar.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  // (a menu a pixel narrower than its own width still shows all its words: 360 px at 200%)
  const short = needed > room + 2;
  for (const o of menu.options) {
    if (short) o.label = `${fromOf(o.value).toUpperCase()} → ${toOf(o.value).toUpperCase()}`;
    else o.removeAttribute('label');
  }
}

/** The Direction menu, the swap button and Alt+S. */
export function bindDirection() {
  // (the menu's height follows the text size, the toolbar's width the window's)
  let fitting = 0;
  const resized = new ResizeObserver(() => {
    cancelAnimationFrame(fitting);
    fitting = requestAnimationFrame(fitDirectionNames);
  });
  resized.observe(el.direction);
  resized.observe(el.direction.closest('.toolbar'));
  el.direction.addEventListener('change', () => setDirection(el.direction.value));
  el.swap.addEventListener('click', () => setDirection(`${toOf(state.dir)}-${fromOf(state.dir)}`, { swapText: true }));
  bindLanguageHint((dir) => setDirection(dir));
  document.addEventListener('keydown', (e) => {
    if (e.altKey && (e.key === 's' || e.key === 'S')) { e.preventDefault(); el.swap.click(); }
  });
}
