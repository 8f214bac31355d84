/**
 * The language hint: when the text typed into the source pane looks like the other language ("This
 * looks like German — translate German → English?"), a one-line offer under the input switches the
 * direction without retyping. detectLanguage (translator.js) needs no model, so the hint shows before
 * or while a model loads. It only speaks up when the detector is sure (20+ characters, confidence
 * 0.95+), and stays quiet for a text the person already dismissed it for.
 */
import { detectLanguage } from '../translator.js';
import { el, text } from './dom.js';
import { state, langName, fromOf, toOf } from './state.js';

const MIN_CHARS = 20;
const MIN_CONFIDENCE = 0.95;
let dismissedFor = null; // the text the hint was closed for
let onAccept = () => {};

/** The direction the input's language suggests, or null when the current one fits. */
export function suggestedDirection(input, dir, models) {
  if (input.trim().length < MIN_CHARS) return null;
  const { language, confidence } = detectLanguage(input);
  if (language === 'und' || confidence < MIN_CONFIDENCE || language === fromOf(dir)) return null;
  const offer = models.find((m) => m.from === language && m.to === (language === toOf(dir) ? fromOf(dir) : toOf(dir)))
    || models.find((m) => m.from === language);
  return offer ? `${offer.from}-${offer.to}` : null;
}

/** Shows or hides the hint for the current input and direction. */
export function updateLanguageHint() {
  const input = el.source.value;
  const dir = suggestedDirection(input, state.dir, state.models || []);
  if (!dir || dismissedFor === input) {
    el.langHint.hidden = true;
    return;
  }
  text(el.langHintText, `This looks like ${langName(fromOf(dir))}.`);
  text(el.langHintAccept, `Translate ${langName(fromOf(dir))} → ${langName(toOf(dir))}`);
  el.langHintAccept.dataset.dir = dir;
  el.langHint.hidden = false;
}

/** `accept(dir)` switches the direction (direction.js); the hint's buttons and Escape. */
export function bindLanguageHint(accept) {
  onAccept = accept;
  el.langHintAccept.addEventListener('click', () => {
    const dir = el.langHintAccept.dataset.dir;
    el.langHint.hidden = true;
    onAccept(dir);
    el.source.focus();
  });
  el.langHintDismiss.addEventListener('click', () => {
    dismissedFor = el.source.value;
    el.langHint.hidden = true;
    el.source.focus();
  });
  el.langHint.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') el.langHintDismiss.click();
  });
}
