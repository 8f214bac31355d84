/**
 * The language hint: when the text typed into the source pane looks like the other language ("This
 * looks like German — translate German → English?"), a one-line offer under the input switches the
 * direction without retyping. detectLanguage (translator.js) needs no model, so the hint shows before
 * or while a model loads. It only speaks up when the detector is sure (20+ characters, confidence
 * 0.95+), and stays quiet for a text the person already dismissed it for, while they go on writing it.
 */
import { detectLanguage } from '../translator.js';
import { el, text } from './dom.js';
import { state, langName, fromOf, toOf } from './state.js';

const MIN_CHARS = 20;
const MIN_CONFIDENCE = 0.95;
// The hint reads the beginning of the text, enough to tell the two languages apart: detecting a
// long paste whole on every keystroke made typing in it stall (1 MB: ~0.3-0.8 s a key).
const DETECT_CHARS = 2000;
let dismissed = null; // {dir, offer, text}: the hint closed ("Keep") for this text, direction and offer
let onAccept = () => {};

/** The direction the input's language suggests, or null when the current one fits. */
export function suggestedDirection(input, dir, models) {
  const sample = input.trimStart().slice(0, DETECT_CHARS);
  if (sample.trim().length < MIN_CHARS) return null;
  const { language, confidence } = detectLanguage(sample);
  if (language === 'und' || confidence < MIN_CONFIDENCE || language === fromOf(dir)) return null;
  const offer = models.find((m) => m.from === language && m.to === (language === toOf(dir) ? fromOf(dir) : toOf(dir)))
    || models.find((m) => m.from === language);
  return offer ? `${offer.from}-${offer.to}` : null;
}

/**
 * Whether the person closed this offer for this text: "Keep" holds while they go on writing or
 * editing the same text (it begins as the text did then) in the same direction; another text, or
 * another direction, can be offered again.
 */
function wasDismissed(input, dir) {
  if (!dismissed || dismissed.dir !== state.dir || dismissed.offer !== dir) return false;
  const head = (x) => x.trimStart().slice(0, MIN_CHARS);
  return head(input) === head(dismissed.text);
}

/** Shows or hides the hint for the current input and direction. */
export function updateLanguageHint() {
  const input = el.source.value;
  const dir = suggestedDirection(input, state.dir, state.models || []);
  if (!dir || wasDismissed(input, dir)) {
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
    dismissed = { dir: state.dir, offer: el.langHintAccept.dataset.dir, text: el.source.value };
    el.langHint.hidden = true;
    el.source.focus();
  });
  el.langHint.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') el.langHintDismiss.click();
  });
}
