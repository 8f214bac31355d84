/**
 * Words that fit the device and the newcomer. On a touch screen (no hover, a coarse pointer, or a
 * touch screen at phone width) <html data-input="touch"> hides the page's `.for-pointer` phrases
 * ("Hover …", "Ctrl+Enter …") and shows its `.for-touch` ones ("Tap a word …"), else the reverse;
 * it follows a change (a tablet's keyboard attached, a window resized). The Quality menu (#beam)
 * says its options in plain words; its tooltip names the chosen option's technical term (greedy
 * search, beam search of 4 hypotheses) from that option's title.
 */
import { el } from './dom.js';

const NO_HOVER = '(hover: none), (pointer: coarse)';
const PHONE_WIDTH = '(max-width: 760px)';

/** 'touch' or 'pointer' for this device now. */
export function inputMode() {
  if (!window.matchMedia) return 'pointer';
  if (matchMedia(NO_HOVER).matches) return 'touch';
  if ((navigator.maxTouchPoints || 0) > 0 && matchMedia(PHONE_WIDTH).matches) return 'touch';
  return 'pointer';
}

function applyInputMode() {
  document.documentElement.dataset.input = inputMode();
}

function syncSearchTitle() {
  const option = el.beam.selectedOptions[0];
  if (option && option.title) el.beam.title = option.title;
}

export function bindHints() {
  applyInputMode();
  if (window.matchMedia) {
    for (const q of [NO_HOVER, PHONE_WIDTH]) matchMedia(q).addEventListener('change', applyInputMode);
  }
  syncSearchTitle();
  el.beam.addEventListener('change', syncSearchTitle);
}
