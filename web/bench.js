/**
 * The benchmark page: time to first translation (from navigation start: service worker, engine and
 * model download/compile/load, first sentence), then sentences/s, words/s and tokens/s over a list
 * of sentences translated one request at a time, and the worker's memory. Results go to the page
 * and to window.__bench (scripts/bench-web.mjs reads them from Chromium).
 */
import { Translator } from './translator.js';

const params = new URLSearchParams(location.search);
const from = params.get('from') || 'en';
const to = params.get('to') || (from === 'de' ? 'en' : 'de');
const beam = Number(params.get('beam') || 4);
const limit = params.has('n') ? Number(params.get('n')) : 100;
const dataUrl = params.get('data');
const workers = params.has('workers') ? Number(params.get('workers')) : undefined;
const warmUp = params.get('warmup') !== '0';
const out = document.getElementById('out');

const FALLBACK = {
  en: ['The weather is nice today.', 'I would like to order a cup of coffee, please.', 'Where is the nearest train station?',
    'The committee will publish its report next week.', 'She has been learning German for three years.',
    'Please save your work before closing the program.', 'The museum is closed on Mondays.',
    'Scientists have discovered a new species of frog in the rainforest.'],
  de: ['Das Wetter ist heute schön.', 'Ich hätte gerne eine Tasse Kaffee, bitte.', 'Wo ist der nächste Bahnhof?',
    'Der Ausschuss wird seinen Bericht nächste Woche veröffentlichen.', 'Sie lernt seit drei Jahren Deutsch.',
    'Bitte speichern Sie Ihre Arbeit, bevor Sie das Programm schließen.', 'Das Museum ist montags geschlossen.',
    'Wissenschaftler haben im Regenwald eine neue Froschart entdeckt.'],
};

function print(line) {
  out.textContent += `${line}\n`;
}

async function sentences() {
  if (!dataUrl) return FALLBACK[from] || FALLBACK.en;
  const response = await fetch(new URL(dataUrl, location.href));
  if (!response.ok) throw new Error(`${dataUrl}: HTTP ${response.status}`);
  const lines = (await response.text()).split('\n').filter((l) => l.trim());
  const column = from === 'de' ? 1 : 0;
  return lines.map((l) => (l.includes('\t') ? l.split('\t')[column] : l).trim()).filter(Boolean);
}

async function waitForServiceWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return 'unavailable';
  const had = !!navigator.serviceWorker.controller;
  await navigator.serviceWorker.register('./sw.js', { scope: './' });
  if (!had) {
    await Promise.race([
      new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true })),
      new Promise((r) => setTimeout(r, 3000)),
    ]);
  }
  return navigator.serviceWorker.controller ? (had ? 'controlled (cached)' : 'controlled (new)') : 'not controlling';
}

async function run() {
  out.textContent = '';
  const result = { from, to, beam, userAgent: navigator.userAgent };
  const sw = await waitForServiceWorker().catch((e) => `error: ${e.message}`);
  result.serviceWorker = sw;
  const tCreate = performance.now();
  const list = await sentences();
  const t = await Translator.create({ from, to, workers, warmUp });
  result.createMs = performance.now() - tCreate;
  const first = await t.translate(list[0], { beam, alignments: true });
  result.firstTranslationMs = performance.now(); // since navigation start
  result.firstSentenceMs = first.timings.totalMs;
  result.createToFirstMs = result.firstTranslationMs - tCreate; // Translator.create() to the first translated sentence
  result.startup = t.timings ? t.timings.startup : null;
  print(`${from}→${to}, beam ${beam}, service worker: ${sw}`);
  print(`time to first translation: ${result.firstTranslationMs.toFixed(0)} ms after navigation start; from create() ${result.createToFirstMs.toFixed(0)} ms (create ${result.createMs.toFixed(0)} ms)`);
  if (result.startup) print(`start: ${JSON.stringify(result.startup)}`);

  const n = Math.min(limit, list.length);
  if (n > 0) {
    let words = 0;
    let targetTokens = 0;
    let engineMs = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await t.translate(list[i], { beam, alignments: true });
      words += list[i].split(/\s+/).filter(Boolean).length;
      targetTokens += r.stats.targetTokens;
      engineMs += r.timings.engineMs;
      if (i % 50 === 49) print(`  ${i + 1}/${n}…`);
    }
    const secs = (performance.now() - t0) / 1000;
    Object.assign(result, {
      sentences: n,
      seconds: secs,
      sentencesPerSecond: n / secs,
      wordsPerSecond: words / secs,
      targetTokensPerSecond: targetTokens / secs,
      engineShare: engineMs / 1000 / secs,
      msPerSentence: (1000 * secs) / n,
    });
    print(`${n} sentences in ${secs.toFixed(2)} s: ${result.sentencesPerSecond.toFixed(1)} sentences/s, ${result.wordsPerSecond.toFixed(0)} source words/s, ${result.targetTokensPerSecond.toFixed(0)} target tokens/s (engine ${(100 * result.engineShare).toFixed(0)}% of the time)`);
  }
  const mem = await t.memory();
  result.memory = mem;
  print(`worker memory: WebAssembly heap ${(mem.wasmBytes / 1e6).toFixed(1)} MB${mem.jsHeapBytes ? `, JS heap ${(mem.jsHeapBytes / 1e6).toFixed(1)} MB` : ''}; model file ${(mem.modelFileBytes / 1e6).toFixed(1)} MB`);
  t.dispose();
  window.__bench = result;
  document.body.dataset.done = 'true';
}

document.getElementById('run').addEventListener('click', () => run().catch(fail));

function fail(e) {
  print(`error: ${e && e.message ? e.message : e}`);
  window.__bench = { error: String(e && e.message ? e.message : e) };
  document.body.dataset.done = 'true';
}

run().catch(fail);
