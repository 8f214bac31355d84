/**
 * The language hint: when the text typed into the source pane looks like the other language ("This
 * looks like German — translate German → English?"), a one-line offer under the input switches the
 * direction without retyping. detectLanguage (translator.js) needs no model, so the hint shows before
 * or while a model loads. It only speaks up when the detector is sure (20+ characters, confidence
 * 0.95+), and stays quiet for a text the person already dismissed it for, while they go on writing it.
 * Text in neither language (French, Polish, Russian: the models would write nonsense from it) gets a
 * notice instead of an offer: "This looks like French. The models translate only English and German."
 */
import { detectLanguage } from '../translator.js';
import { el, text } from './dom.js';
import { state, langName, fromOf, toOf } from './state.js';

const MIN_CHARS = 20;
const MIN_CONFIDENCE = 0.95;
// Naming another language takes less certainty: the notice only warns, it changes nothing. Below it
// (Danish and Norwegian tie) the notice names no language.
const MIN_OTHER_CONFIDENCE = 0.7;
// The hint reads the beginning of the text, enough to tell the two languages apart: detecting a
// long paste whole on every keystroke made typing in it stall (1 MB: ~0.3-0.8 s a key).
const DETECT_CHARS = 2000;
let dismissed = null; // {dir, offer, text}: the hint closed ("Keep") for this text, direction and offer
let onAccept = () => {};

/**
 * What the hint says for this input in direction `dir`: `{dir}` (a direction to offer), `{other}` (the
 * text is in neither language: `other` is its language's code, or 'und' when unnamed), or null.
 */
export function languageAdvice(input, dir, models) {
  const sample = input.trimStart().slice(0, DETECT_CHARS);
  if (sample.trim().length < MIN_CHARS) return null;
  const { language, confidence } = detectLanguage(sample);
  const known = (code) => models.some((m) => m.from === code || m.to === code) || code === fromOf(dir) || code === toOf(dir);
  if (language === 'und') {
    // 'und' is also "too little text" and "only digits and marks": the notice needs letters.
    const letters = (sample.match(/\p{L}/gu) || []).length;
    return letters >= MIN_CHARS ? { other: 'und' } : null;
  }
  if (!known(language)) return { other: confidence >= MIN_OTHER_CONFIDENCE ? language : 'und' };
  if (confidence < MIN_CONFIDENCE || language === fromOf(dir)) return null;
  const offer = models.find((m) => m.from === language && m.to === (language === toOf(dir) ? fromOf(dir) : toOf(dir)))
    || models.find((m) => m.from === language);
  return offer ? { dir: `${offer.from}-${offer.to}` } : null;
}

/** The direction the input's language suggests, or null when the current one fits. */
export function suggestedDirection(input, dir, models) {
  return languageAdvice(input, dir, models)?.dir ?? null;
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

/** The languages the models translate, in words: "English and German" (`and` = 'or': "... or ..."). */
function modelLanguages(and = 'and') {
  const codes = [...new Set((state.models || []).flatMap((m) => [m.from, m.to]))];
  const names = (codes.length ? codes : [fromOf(state.dir), toOf(state.dir)]).map(langName);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} ${and} ${names.at(-1)}` : names[0];
}

/** Shows or hides the hint for the current input and direction. */
export function updateLanguageHint() {
  const input = el.source.value;
  const advice = languageAdvice(input, state.dir, state.models || []);
  // What the hint offers, for "Keep": a direction, or 'other:<code>' for a notice.
  const offer = advice && (advice.dir || `other:${advice.other}`);
  if (!offer || wasDismissed(input, offer)) {
    // (a hidden button would take the keyboard focus with it: the text box the hint is about gets it)
    if (el.langHint.contains(document.activeElement)) el.source.focus();
    el.langHint.hidden = true;
    return;
  }
  el.langHint.dataset.kind = advice.dir ? 'direction' : 'other-language';
  el.langHintAccept.dataset.dir = offer;
  if (advice.dir) {
    text(el.langHintText, `This looks like ${langName(fromOf(advice.dir))}.`);
    text(el.langHintAccept, `Translate ${langName(fromOf(advice.dir))} → ${langName(toOf(advice.dir))}`);
    text(el.langHintDismiss, 'Keep');
    el.langHintDismiss.setAttribute('aria-label', 'Keep the current direction');
  } else {
    const looks = advice.other === 'und' ? `This does not look like ${modelLanguages('or')}.` : `This looks like ${langName(advice.other)}.`;
    text(el.langHintText, `${looks} The models translate only ${modelLanguages()}: a translation of it will be wrong.`);
    text(el.langHintDismiss, 'OK');
    el.langHintDismiss.setAttribute('aria-label', 'OK, dismiss this notice'); // (the name begins with the words shown: a voice user says "OK")
  }
  el.langHintAccept.hidden = !advice.dir;
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
