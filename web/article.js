/**
 * The sample article (article.html): "Translate this page" translates the article in place with
 * translateElement() (English → German), with progress and Stop; "Show original" restores it.
 * Once its model has loaded, the site's models are saved for offline use (offline-use.js).
 */
import { Translator, translateElement } from './translator.js';
import { registerServiceWorker, modelLoaded } from './offline-use.js';

const $ = (id) => document.getElementById(id);
const serviceWorkerReady = registerServiceWorker($('offline-status'));
const manifestUrl = new URL('./models/manifest.json', document.baseURI);
const article = $('article');
let translator = null;
let controller = null;
let done = null;

function show(state, text) {
  document.body.dataset.state = state;
  $('article-status').textContent = text;
  const busy = state === 'loading' || state === 'translating';
  const buttons = [$('article-translate'), $('article-stop'), $('article-restore')];
  const focused = buttons.find((b) => b === document.activeElement);
  $('article-translate').hidden = busy || state === 'translated';
  $('article-stop').hidden = !busy;
  $('article-restore').hidden = state !== 'translated';
  $('article-progress').hidden = !busy;
  // (a hidden button would take the keyboard focus with it: the one shown in its place gets it)
  if (focused && focused.hidden) buttons.find((b) => !b.hidden).focus();
}

async function translatePage() {
  controller = new AbortController();
  const { signal } = controller;
  show('loading', 'Loading the model…');
  try {
    if (!translator) {
      await Promise.race([serviceWorkerReady, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
      translator = await Translator.create({ from: 'en', to: 'de', manifestUrl, signal });
      modelLoaded();
    }
    if (signal.aborted) throw new DOMException('Stopped', 'AbortError');
    show('translating', 'Translating…');
    $('article-progress').removeAttribute('value');
    done = await translateElement(article, {
      translator,
      signal,
      batchChars: 400,
      onProgress: (p) => {
        $('article-progress').max = p.total || 1;
        $('article-progress').value = p.done;
        $('article-status').textContent = `Translating… ${Math.round((100 * p.done) / (p.total || 1))}%`;
      },
    });
    article.lang = 'de';
    show('translated', 'Translated from English by the model on this device.');
  } catch (e) {
    if (e && e.name === 'AbortError') show('idle', 'Stopped: the page is as it was.');
    else show('idle', `Could not translate: ${e && e.message ? e.message : e}`);
  }
}

$('article-translate').addEventListener('click', translatePage);
$('article-stop').addEventListener('click', () => controller && controller.abort());
$('article-restore').addEventListener('click', () => {
  if (done) done.restore();
  done = null;
  article.lang = 'en';
  show('idle', 'The original.');
});
document.body.dataset.ready = 'true';
