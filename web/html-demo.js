/**
 * The HTML mode page (html.html): translates pasted HTML with translate(html, { html: true }) and
 * shows the result twice: drawn by html/render-safe.js (this project's own reader builds allowed
 * elements only: nothing from the input runs or loads) and as source text (textContent). One
 * Translator per direction, created on first use; the first one loaded has the site's models saved
 * for offline use (offline-use.js).
 */
import { Translator } from './translator.js';
import { renderSafe } from './html/render-safe.js';
import { registerServiceWorker, modelLoaded } from './offline-use.js';

const $ = (id) => document.getElementById(id);
const serviceWorkerReady = registerServiceWorker($('offline-status'));
const manifestUrl = new URL('./models/manifest.json', document.baseURI);
const translators = new Map();
let running = null;
let shown = null; // {input, dir}: what the translation on the page translates

const SAMPLE = `<h2>Getting started</h2>
<p>Click <a href="/settings" title="Open the settings">here</a> to open the <b>settings</b>.
Choose a <em>language</em> and press <kbd>Enter</kbd>.</p>
<ul>
  <li>The <strong>red</strong> button saves the file.</li>
  <li>Run <code>npm install</code> before you start.</li>
</ul>
<p translate="no">Brand Name™ stays as it is.</p>
<img src="photo.png" alt="A small house near the river">`;

function translatorFor(dir) {
  if (!translators.has(dir)) {
    const [from, to] = dir.split('-');
    const p = serviceWorkerReady.then(() => Translator.create({ from, to, manifestUrl }));
    p.then(modelLoaded, () => translators.delete(dir));
    translators.set(dir, p);
  }
  return translators.get(dir);
}

function status(text) {
  $('html-status').textContent = text;
}

async function translateNow() {
  if (running) running.abort();
  const controller = new AbortController();
  running = controller;
  $('html-error').hidden = true;
  $('html-stop').hidden = false;
  $('html-progress').hidden = false;
  $('html-progress').removeAttribute('value');
  $('html-rendered').setAttribute('aria-busy', 'true'); // (its live region speaks once the translation is in)
  document.body.dataset.state = 'translating';
  status('Loading the model…');
  const request = { input: $('html-input').value, dir: $('html-direction').value };
  try {
    const t = await translatorFor(request.dir);
    status('Translating…');
    const r = await t.translate(request.input, {
      html: true,
      signal: controller.signal,
      onProgress: (p) => {
        $('html-progress').max = p.total || 1;
        $('html-progress').value = p.done;
      },
    });
    if (controller.signal.aborted || running !== controller) return;
    $('html-rendered').replaceChildren(renderSafe(r.text));
    $('html-source').textContent = r.text;
    // (a screen reader reads the translation in its language, not the page's English)
    $('html-rendered').lang = $('html-source').lang = request.dir.split('-')[1];
    shown = request;
    status(`${r.segments} blocks, ${r.attributes} attributes, ${r.elements} inline elements placed${r.lost ? `, ${r.lost} without a word` : ''}, ${(r.timings.totalMs / 1000).toFixed(1)} s`);
    document.body.dataset.state = 'done';
  } catch (e) {
    // A request that a newer one replaced says nothing: the newer one is running and reports itself.
    if (running !== controller) return;
    // Stopped or failed: a translation of other HTML (or the other direction) must not stay as if it were this one's.
    if (!shown || shown.input !== request.input || shown.dir !== request.dir) {
      $('html-rendered').replaceChildren();
      $('html-source').textContent = '';
      shown = null;
    }
    if (e && e.name === 'AbortError') {
      status('Stopped.');
      document.body.dataset.state = 'stopped';
      return;
    }
    $('html-error').textContent = `Could not translate: ${e && e.message ? e.message : e}`;
    $('html-error').hidden = false;
    document.body.dataset.state = 'error';
  } finally {
    if (running === controller) {
      running = null;
      $('html-rendered').setAttribute('aria-busy', 'false');
      const stopHadFocus = document.activeElement === $('html-stop');
      $('html-stop').hidden = true;
      $('html-progress').hidden = true;
      if (stopHadFocus) $('html-translate').focus(); // (the hidden button would take the keyboard focus with it)
    }
  }
}

// The direction is the one chosen here or on the plain-text page (app/direction.js keeps it under the same key).
const DIRECTION_KEY = 'nmt.direction';
try {
  const saved = localStorage.getItem(DIRECTION_KEY);
  if ([...$('html-direction').options].some((o) => o.value === saved)) $('html-direction').value = saved;
} catch { /* private mode */ }
const sourceLanguage = () => { $('html-input').lang = $('html-direction').value.split('-')[0]; };
sourceLanguage();
$('html-direction').addEventListener('change', () => {
  sourceLanguage();
  try { localStorage.setItem(DIRECTION_KEY, $('html-direction').value); } catch { /* private mode */ }
});

$('html-input').value = SAMPLE;
$('html-translate').addEventListener('click', translateNow);
$('html-stop').addEventListener('click', () => running && running.abort());
$('html-input').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) translateNow();
});
document.body.dataset.state = 'ready';
