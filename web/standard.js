/**
 * The standard-API page (standard.html). It installs the polyfill where the browser has no
 * Translator / LanguageDetector of its own, or has them but they cannot translate English↔German
 * (or always, with ?polyfill in the URL), runs the sample below on a click (again on the polyfill
 * when the built-in API fails: Chrome without its models, say), and shows the sample's
 * own lines (between the two markers, read from this file) on the page: what the page shows is
 * what it runs. The sample uses only the standard API, so it runs unchanged on Chrome's built-in
 * translator and on the polyfill. Once the polyfill has translated, the site's models are saved
 * for offline use (offline-use.js).
 */
/* global Translator, LanguageDetector */
import { install } from './polyfill.js';
import { registerServiceWorker, modelLoaded } from './offline-use.js';

// ---- sample ----
// The web's standard Translator and LanguageDetector API: Chrome's own, or the polyfill's.
const translators = new Map(); // one Translator per language pair, made on first use

async function detectAndTranslate(text, progress) {
  const detector = await LanguageDetector.create();
  const [{ detectedLanguage, confidence }] = await detector.detect(text);
  detector.destroy();
  const sourceLanguage = detectedLanguage === 'de' ? 'de' : 'en';
  const targetLanguage = sourceLanguage === 'de' ? 'en' : 'de';
  const pair = `${sourceLanguage}-${targetLanguage}`;
  if (!translators.has(pair)) {
    if (await Translator.availability({ sourceLanguage, targetLanguage }) === 'unavailable') {
      throw new Error(`This browser cannot translate ${pair}.`);
    }
    translators.set(pair, await Translator.create({
      sourceLanguage,
      targetLanguage,
      monitor(m) {
        m.addEventListener('downloadprogress', (e) => { progress.value = e.loaded; });
      },
    }));
  }
  const translation = await translators.get(pair).translate(text);
  return { detectedLanguage, confidence, targetLanguage, translation };
}
// ---- end of sample ----

const $ = (id) => document.getElementById(id);
const serviceWorkerReady = registerServiceWorker($('offline-status'));

/** Installs the polyfill where it is needed; returns true when this page runs on it. */
async function choose() {
  const force = new URLSearchParams(location.search).has('polyfill');
  const installed = install({ force });
  if (installed.Translator) return true;
  let native = 'unavailable';
  try {
    native = await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' });
  } catch {
    // a built-in API that cannot even answer: use the polyfill
  }
  if (native !== 'unavailable') return false;
  install({ force: true });
  return true;
}

/** The sample's lines, as this file has them. */
async function sampleSource() {
  const source = await (await fetch(new URL('./standard.js', import.meta.url))).text();
  const start = source.indexOf('// ---- sample ----');
  const end = source.indexOf('// ---- end of sample ----');
  return source.slice(source.indexOf('\n', start) + 1, end).trimEnd();
}

/** Destroys the built-in translators the sample made (each holds the browser's engine) before the polyfill's take their place. */
function releaseTranslators() {
  for (const translator of translators.values()) {
    try {
      translator.destroy();
    } catch {
      // one that cannot be destroyed (already gone, or no destroy()): dropped all the same
    }
  }
  translators.clear();
}

function showError(error) {
  $('std-error').textContent = error && error.message ? `${error.name}: ${error.message}` : String(error);
  $('std-error').hidden = false;
  document.body.dataset.state = 'error';
}

function showImplementation(polyfilled, note = '') {
  $('std-impl').textContent = (polyfilled ? 'the polyfill (this project\'s engine, inside this page)' : 'the browser\'s built-in Translator') + note;
  $('std-switch').hidden = polyfilled;
  document.body.dataset.implementation = polyfilled ? 'polyfill' : 'native';
}

async function run() {
  const button = $('std-translate');
  // (turned off, the button loses the keyboard focus: it gets it back at the end, unless it went elsewhere)
  const focused = document.activeElement === button;
  button.disabled = true;
  $('std-error').hidden = true;
  // (the last text's translation goes: under an error it would read as this text's)
  $('std-detected').textContent = '';
  $('std-output').textContent = '';
  $('std-output').setAttribute('aria-busy', 'true'); // (its live region speaks once the translation is in)
  $('std-status').textContent = 'Translating…';
  document.body.dataset.state = 'busy';
  try {
    await serviceWorkerReady; // (on a first visit, so that the polyfill's model download is saved as it passes)
    let r;
    try {
      r = await detectAndTranslate($('std-input').value, $('std-progress'));
    } catch (e) {
      // A built-in API that is there but cannot work (its model not downloadable here, say):
      // the same sample again, on the polyfill.
      if (document.body.dataset.implementation !== 'native') throw e;
      install({ force: true });
      releaseTranslators();
      showImplementation(true, ` (the built-in one failed: ${e.name}: ${e.message})`);
      r = await detectAndTranslate($('std-input').value, $('std-progress'));
    }
    $('std-detected').textContent = `Detected: ${r.detectedLanguage} (confidence ${r.confidence.toFixed(2)})`;
    $('std-output').textContent = r.translation;
    $('std-output').lang = r.targetLanguage; // (a screen reader reads it in its language)
    $('std-status').textContent = '';
    document.body.dataset.state = 'done';
    if (document.body.dataset.implementation === 'polyfill') modelLoaded();
  } catch (e) {
    $('std-status').textContent = '';
    showError(e);
  } finally {
    $('std-output').setAttribute('aria-busy', 'false');
    button.disabled = false;
    if (focused && (!document.activeElement || document.activeElement === document.body || document.activeElement === button)) button.focus();
  }
}

async function main() {
  showImplementation(await choose());
  $('std-translate').addEventListener('click', run);
  $('std-sample').textContent = await sampleSource();
  document.body.dataset.state = 'ready';
}

main().catch(showError);
