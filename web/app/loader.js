/**
 * Model loading: one Translator (translator.js, which runs the model in a Web Worker) per
 * direction and Quality (search) setting, created on first use and kept; while any is loading, the
 * progress section (#load) shows the phase (download with bytes, check, engine start, load). Each
 * one loaded adds its facts to "About the models"; the first also asks the service worker to save
 * the models for offline use. The Quality menu (#beam: Fast, Careful, Best) picks greedy, beam 4,
 * or beam 4 reranked by the other direction's model ("Best"), which needs a translator of its own.
 */
import { Translator } from '../translator.js';
import { el, text, formatBytes } from './dom.js';
import { state, langName, fromOf, toOf } from './state.js';
import { cacheModelsForOffline } from './offline.js';
import { showModelInfo } from './model-info.js';

export const manifestUrl = new URL('./models/manifest.json', document.baseURI);

let offlineAsked = false; // the service worker was asked to save the models (when the first one loaded)

function showLoading() {
  el.load.hidden = state.loading === 0;
}

/**
 * The Quality (search) setting: greedy, beam 4, or beam 4 reranked by the other direction's model (which
 * needs a translator created with that model too, kept apart from the plain one).
 */
// Fast: greedy search over the model's lexical shortlist (the likely translations of the source's
// pieces: ~1,300 of 8,000 candidates per step); Careful: beam 4 over the whole vocabulary; Best:
// that, reranked by the reverse model.
export function searchSettings() {
  const v = el.beam.value;
  return { beam: v === '1' ? 1 : 4, rerank: v === '4r', shortlist: v === '1' };
}

export function getTranslator(dir, rerank = searchSettings().rerank) {
  const key = rerank ? `${dir}+rerank` : dir;
  let p = state.translators.get(key);
  if (p) return p;
  const name = rerank ? `${langName(fromOf(dir))} ↔ ${langName(toOf(dir))}` : `${langName(fromOf(dir))} → ${langName(toOf(dir))}`;
  state.loading += 1;
  showLoading();
  text(el.loadLabel, `Downloading the ${name} model…`);
  text(el.loadDetail, '');
  el.loadProgress.removeAttribute('value');
  const onProgress = (p) => {
    if (p.phase === 'download') {
      text(el.loadLabel, `Downloading the ${name} model${rerank ? 's' : ''}…`);
      if (p.total > 0) {
        el.loadProgress.max = p.total;
        el.loadProgress.value = p.loaded;
        text(el.loadDetail, `${formatBytes(p.loaded)} of ${formatBytes(p.total)}`);
      }
    } else {
      text(el.loadLabel, p.phase === 'compile' ? 'Starting the translation engine…' : p.phase === 'verify' ? 'Checking the model…' : 'Loading the model…');
      el.loadProgress.removeAttribute('value');
      text(el.loadDetail, p.total ? formatBytes(p.total) : '');
    }
    if (!state.translators.get(key)?.settled) {
      el.load.hidden = false;
    }
  };
  p = Translator.create({ from: fromOf(dir), to: toOf(dir), manifestUrl, onProgress, rerank });
  state.translators.set(key, p);
  p.then((t) => {
    p.settled = true;
    showModelInfo(dir, t.info);
    if (!offlineAsked) {
      offlineAsked = true;
      cacheModelsForOffline();
    }
  }, () => {
    state.translators.delete(key); // try again next time
  }).finally(() => {
    state.loading -= 1;
    showLoading();
  });
  return p;
}
