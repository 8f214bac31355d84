/**
 * The demo page's entry: checks the browser can run the translator, wires up the page's parts
 * (web/app/, one job each), registers the service worker, offers the directions the models manifest
 * lists and loads the first model; then the page translates as you type. The model runs in a Web
 * Worker behind translator.js; the page's code only draws.
 *
 *   app/dom.js             the page's elements, text/error/state helpers
 *   app/state.js           what the parts share (direction, translators, last result, selection)
 *   app/offline.js         the service worker: registration, saving the models for offline use
 *   app/loader.js          one Translator per direction and Search setting, with load progress
 *   app/model-info.js      "About the models": the card from models/about.json, each loaded model's facts
 *   app/direction.js       the Direction menu, swap (Alt+S), labels, the remembered choice
 *   app/translate-view.js  input and output panes: translate as you type, Copy
 *   app/language-hint.js   "This looks like German": offers the direction that fits the input
 *   app/alignment-view.js  word highlighting by alignment weight, the sentence card
 *   app/heatmap.js         the cross-attention heatmap canvas, labelled with words
 *   app/alternatives-menu.js  a translated word's menu of other words; choosing one re-translates the rest
 *   app/source-overlay.js  the highlights behind the text box (a mirror of the textarea)
 *   app/hints.js           hints that fit touch or pointer, the Quality menu's technical tooltip
 *   app/terms.js           the "Terms" box: the reader's glossary per direction, passed to every translation
 */
import { listModels, hasWasmSimd } from './translator.js';
import { el, showError, setState } from './app/dom.js';
import { state } from './app/state.js';
import { benchLinkOnlyOnline, registerServiceWorker } from './app/offline.js';
import { manifestUrl, getTranslator } from './app/loader.js';
import { bindDirection, offerDirections } from './app/direction.js';
import { bindTranslateView, updateCount, translateNow, showLoadError } from './app/translate-view.js';
import { bindAlignmentView } from './app/alignment-view.js';
import { bindHeatmap } from './app/heatmap.js';
import { bindAlternativesMenu } from './app/alternatives-menu.js';
import { bindModelInfo, loadAbout } from './app/model-info.js';
import { bindHints } from './app/hints.js';
import { bindSourceOverlay } from './app/source-overlay.js';
import { bindTerms } from './app/terms.js';

async function main() {
  if (!hasWasmSimd()) {
    setState('error');
    showError('This browser does not support WebAssembly SIMD, which the translator needs. Please use a current version of Chrome, Edge, Firefox or Safari (16.4 or later).');
    el.source.disabled = true;
    return;
  }
  if (typeof Worker !== 'function') {
    setState('error');
    showError('This browser does not support Web Workers, which the translator needs.');
    return;
  }

  bindTranslateView();
  bindDirection();
  bindAlignmentView();
  bindHeatmap();
  bindAlternativesMenu();
  bindModelInfo();
  bindHints();
  bindSourceOverlay();
  bindTerms(translateNow);
  loadAbout();
  updateCount();
  benchLinkOnlyOnline();
  await registerServiceWorker();

  try {
    state.models = await listModels({ manifestUrl });
  } catch (e) {
    setState('error');
    showError(`Could not read the list of models (${e.message || e}).`);
    return;
  }
  offerDirections();
  try {
    await getTranslator(state.dir);
    if (el.body.dataset.state === 'loading') setState('idle');
  } catch (e) {
    showLoadError(e.message || String(e));
    return;
  }
  el.body.dataset.ready = 'true';
  if (el.source.value.trim()) translateNow();
}

main();
