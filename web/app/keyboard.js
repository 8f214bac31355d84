/**
 * The on-screen keyboard: while the text box has the focus on a touch screen, its buttons (Stop,
 * Clear) stay above the keyboard. A keyboard shrinks the visible part of the page (visualViewport:
 * iOS and Chrome shrink only that, Firefox for Android the window too), and the buttons under the
 * text box would sit under it. Then the text box gets shorter (down to a few lines; it scrolls) so
 * that they come up above the keyboard, and where that is not enough (a tall header, large text)
 * they float at the bottom of the visible part until the keyboard goes or the text box loses the focus.
 */
import { el } from './dom.js';
import { inputMode } from './hints.js';

const buttons = () => document.getElementById('source-buttons');
const MIN_LINES = 3;
/** Less than this taken from the screen's height is no keyboard (a browser's address bar hiding). */
const KEYBOARD_MIN = 120;

let fullWidth = 0;
let fullHeight = 0; // the window's height at this width with no keyboard (its tallest)

/**
 * Whether a keyboard takes part of the screen: the visible part is much shorter than the window
 * (iOS, Chrome) or the window than it was at this width (Firefox for Android). The buttons merely
 * below the fold of a long page stay where they are.
 */
function keyboardOpen() {
  if (window.innerWidth !== fullWidth) [fullWidth, fullHeight] = [window.innerWidth, 0];
  fullHeight = Math.max(fullHeight, window.innerHeight);
  const view = window.visualViewport;
  const shown = view ? view.height * view.scale : window.innerHeight;
  return shown < window.innerHeight - KEYBOARD_MIN || window.innerHeight < fullHeight - KEYBOARD_MIN;
}

/** The bottom of what the screen shows, in the page's viewport coordinates. */
function visibleBottom() {
  const view = window.visualViewport;
  return view ? view.offsetTop + view.height : window.innerHeight;
}

function release() {
  el.source.style.removeProperty('max-height');
  const b = buttons();
  b.classList.remove('above-keyboard');
  b.style.removeProperty('top');
}

/** Lays the text box and its buttons out for what the screen shows now. */
export function fitAboveKeyboard() {
  const box = el.source;
  const scrolled = box.scrollTop;
  release();
  if (!keyboardOpen() || document.activeElement !== box || inputMode() !== 'touch') return;
  const b = buttons();
  const limit = visibleBottom() - 4;
  let over = b.getBoundingClientRect().bottom - limit;
  if (over <= 0) return;
  const style = getComputedStyle(box);
  const lowest = MIN_LINES * parseFloat(style.lineHeight) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
  const height = box.getBoundingClientRect().height;
  if (height > lowest) {
    box.style.maxHeight = `${Math.max(lowest, height - over)}px`;
    // (the caret stays in view where one types at the end; elsewhere the text stays where it was)
    box.scrollTop = box.selectionEnd === box.value.length ? box.scrollHeight : scrolled;
    over = b.getBoundingClientRect().bottom - limit;
  }
  if (over > 0) {
    b.classList.add('above-keyboard');
    b.style.top = `${limit - b.getBoundingClientRect().height}px`;
  }
}

export function bindKeyboard() {
  keyboardOpen(); // (the window's height before any keyboard)
  let frame = 0;
  const later = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(fitAboveKeyboard);
  };
  el.source.addEventListener('focus', later);
  el.source.addEventListener('blur', later);
  el.source.addEventListener('input', later); // (the text box grows with its text)
  window.addEventListener('resize', later);
  if (window.visualViewport) {
    window.visualViewport.addEventListener('resize', later);
    window.visualViewport.addEventListener('scroll', later);
  }
  // a press on a floating button keeps the focus (and the keyboard) in the text box: else the
  // buttons would go back under the keyboard before the tap ends
  buttons().addEventListener('mousedown', (event) => {
    if (buttons().classList.contains('above-keyboard')) event.preventDefault();
  });
}
