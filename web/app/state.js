/**
 * What the page's views share: the models on offer, the direction, the translators (loading or
 * loaded), the request in flight, the last translation and which of its sentences and words are
 * selected. A direction is a string 'from-to' ('en-de'); `fromOf`, `toOf` and `langName` read it.
 * Nothing here touches the DOM.
 */

const NAMES = { en: 'English', de: 'German' };
// Other languages' names (detectLanguage can name French, Dutch, ...) from the browser's own table.
const displayNames = typeof Intl !== 'undefined' && Intl.DisplayNames ? new Intl.DisplayNames(['en'], { type: 'language' }) : null;
export const langName = (code) => NAMES[code] || displayNames?.of(code) || code;
export const [fromOf, toOf] = [(dir) => dir.split('-')[0], (dir) => dir.split('-')[1]];

export const state = {
  models: [],
  dir: 'en-de',
  chosenDir: null, // a direction picked in the menu before the list of models came
  translators: new Map(), // 'en-de' → Promise<Translator>
  loading: 0,
  controller: null, // AbortController of the current request
  seq: 0,
  timer: 0,
  result: null, // the last Translation (complete, or partial: what a stopped request had finished)
  kept: null, // {seq, dir, input, text, sentences}: what the running request has finished so far
  resultDir: null,
  resultInput: null, // the text box's text that `result` translates (swap moves the result in only for it)
  sel: 0, // selected sentence
  pinned: null, // {side, w} pinned by a tap/click
  outWords: [], // [sentence][targetWord] → span in the output pane
  cardWords: { s: [], t: [] },
  heads: null, // {key, sentence} with all heads, for the heatmap
  headsController: null,
  heatCursor: null,
};

/**
 * Whether the translation on screen (`state.result`, whole or partial) is the one of the text
 * `input` in direction `dir`: else it is another text's, or another direction's.
 */
export function resultIsOf(input, dir) {
  return state.result !== null && state.resultInput === input && state.resultDir === dir;
}

/** The selected sentence of the last translation, or undefined/null when there is none. */
export function currentSentence() {
  return state.result && state.result.sentences[state.sel];
}
