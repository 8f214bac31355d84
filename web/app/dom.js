/**
 * The page's elements and small DOM helpers. `el` names every element the page's code touches
 * (looked up once, by id); `text` sets text (never HTML: all model text goes in as text);
 * `showError` fills or hides the error notice; `setState` sets body[data-state] (loading, idle,
 * translating, done, error), which the style sheet and the tests read.
 */

export const $ = (id) => document.getElementById(id);

export const el = {
  body: document.body,
  load: $('load'), loadLabel: $('load-label'), loadDetail: $('load-detail'), loadProgress: $('load-progress'),
  error: $('error'),
  direction: $('direction'), swap: $('swap'), beam: $('beam'),
  source: $('source'), sourceLabel: $('source-label'), count: $('count'), clear: $('clear'), stop: $('stop'),
  langHint: $('lang-hint'), langHintText: $('lang-hint-text'), langHintAccept: $('lang-hint-accept'), langHintDismiss: $('lang-hint-dismiss'),
  target: $('target'), targetLabel: $('target-label'), status: $('status'), statusProgress: $('status-progress'), stats: $('stats'), copy: $('copy'), copySaid: $('copy-said'),
  unsureLegend: $('unsure-legend'), termLegend: $('term-legend'),
  prev: $('prev-sent'), next: $('next-sent'), sentPos: $('sent-pos'), sentSaid: $('sent-said'), sentConfidence: $('sent-confidence'),
  alignSource: $('align-source'), alignTarget: $('align-target'),
  alignSourceLabel: $('align-source-label'), alignTargetLabel: $('align-target-label'), alignDetail: $('align-detail'),
  attention: $('attention'), headSelect: $('head-select'), heatStatus: $('heat-status'), heatmap: $('heatmap'), heatCell: $('heat-cell'),
  modelDl: $('model-dl'), offline: $('offline-status'),
};

export function text(node, value) {
  node.textContent = value;
  return node;
}

export function span(className, value) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = value;
  return s;
}

/** Text in language `lang` inside the page's English (a screen reader reads it in that language). */
export function inLang(value, lang) {
  const s = document.createElement('span');
  s.lang = lang;
  s.textContent = value;
  return s;
}

const RTL_LETTER = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}\p{Script=Samaritan}\p{Script=Mandaic}]/gu;

/**
 * 'rtl' for a text whose letters are mostly of a right-to-left script (a Hebrew or Arabic paste,
 * which the models copy), else 'ltr'. (Not dir="auto", which follows the first letter only: a German
 * sentence that begins with a Hebrew name stays left to right.)
 */
export function textDirection(value) {
  const rtl = (value.match(RTL_LETTER) || []).length;
  return rtl && rtl * 2 > (value.match(/\p{L}/gu) || []).length ? 'rtl' : 'ltr';
}

export function formatBytes(n) {
  if (!n) return '0 MB';
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`;
}

export function showError(message) {
  if (!message) {
    el.error.hidden = true;
    el.error.textContent = '';
    return;
  }
  if (!el.error.hidden && el.error.textContent === message) return; // (the same error again, as each retry fails: said once)
  el.error.textContent = message;
  el.error.hidden = false;
}

/**
 * Before `node` is hidden, turned off or removed with the keyboard focus in it: the focus goes to
 * the output pane, whose content is what changed (else it would fall to the page body).
 */
export function keepFocusFrom(node) {
  if (!node.contains(document.activeElement)) return;
  el.target.tabIndex = -1; // (focusable from code only, not in the Tab order)
  el.target.focus({ preventScroll: true });
}

export function setState(s) {
  // Stop shows only while translating: the keyboard focus on it goes back to the text box with it
  if (s !== 'translating' && document.activeElement === el.stop) el.source.focus();
  el.body.dataset.state = s;
}
