/**
 * The service worker that makes the site work offline after the first visit. It precaches the app
 * shell (pages, scripts, styles, the engine's .js and .wasm, the weights manifest) into a cache
 * named after the site's folder and the build's version, and keeps the models in a separate cache
 * keyed by their content-hashed file names, so a new build re-downloads a model only when the model
 * changed. Models are cached as they are first fetched (the download passes through here once),
 * and the page asks for the remaining ones with a 'cache-models' message. A model is cached only
 * when it has the size and SHA-256 the build listed: a truncated download, or a file on the server
 * that is not this build's, is passed on (the worker refuses it) but never saved for offline use.
 * The shell's files are checked the same way as they are saved, and when served from the cache
 * (the SHA-256 once in this service worker's life, the size every time): a saved copy damaged
 * since (a write cut off, a disk error, an extension) is dropped and fetched again, and offline
 * the answer says that the saved copy is damaged and to reconnect (as it does for one deleted since
 * the install). The page's 'cache-models' message also saves again any shell file deleted or
 * damaged since, so 'Saved for offline use.' holds for every page.
 * All URLs are relative to this file, so the site works under any sub-path, beside other copies of
 * it on the same origin. scripts/build-web.mjs fills in BUILD, the model cache's name included
 * (protocol.js's MODEL_CACHE, which this classic script cannot import).
 */
/* global self, caches */
// {version, shell: [{file, bytes, sha256}], models: [{file, bytes, sha256}], modelCache}, written
// into dist/sw.js by the build. This file itself is only the template: web/ has no engine/ or
// models/ to cache, so it is never served as it is.
const BUILD = /* BUILD */ null /* /BUILD */;
if (!BUILD) throw new Error('web/sw.js is a template: serve dist/ (scripts/build-web.mjs writes dist/sw.js)');

const abs = (u) => new URL(u, self.location.href).href;
const ROOT = abs('./');
const INDEX = abs('index.html');
// Cache Storage is the origin's, shared with any other copy of the site on it (another sub-path,
// with its own service worker): this copy names its shell cache after its folder, and deletes
// only its own old shell caches and the models in its own models/ folder.
const SHELL_PREFIX = `nmt-shell ${ROOT} `;
const SHELL_CACHE = `${SHELL_PREFIX}${BUILD.version}`;
const LEGACY_SHELL = /^nmt-shell-[0-9a-f]+$/; // (the name builds gave it before: one per origin)
const MODEL_CACHE = BUILD.modelCache; // protocol.js's MODEL_CACHE: worker.js reads cached models from it directly
const MODELS_DIR = abs('models/');
const SHELL = new Map(BUILD.shell.map((f) => [abs(f.file), f])); // url → {file, bytes, sha256}
const MODELS = new Map(BUILD.models.map((m) => [abs(m.file), m])); // url → {file, bytes, sha256}

self.addEventListener('install', (event) => {
  event.waitUntil(install().catch(async (e) => {
    // The site's pages say why offline use is off (offline-use.js): a file missing or not this build's,
    // no room, the connection lost (they try again).
    const reason = String(e && e.message ? e.message : e);
    const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true }).catch(() => []);
    const message = e && e.network ? { type: 'install-failed', reason, connectionLost: true } : { type: 'install-failed', reason };
    for (const page of pages) page.postMessage(message);
    throw e;
  }));
});

/** Saves this version's shell (and, for an update, its models), then takes over. */
async function install() {
  const cache = await caches.open(SHELL_CACHE);
  // cache: 'reload' bypasses the HTTP cache. A file that is not this build's (a deploy still
  // under way, a host that rewrites it) fails the install: the old version goes on serving.
  await Promise.all([...SHELL.keys()].map((url) => downloadShellFile(cache, url)));
  // An update of a copy whose models were saved: this version's models are saved before it takes
  // over (the old one goes on serving meanwhile, and stays if they cannot be downloaded), so that
  // offline use does not break at a release that changed a model. Where the storage has no room
  // for them beside the old ones, it takes over anyway: the old ones go as it activates, and the
  // page saves the new ones then, as on a first visit.
  if (await modelsSavedHere()) {
    await cacheMissingModels().catch((e) => {
      if (!e.noRoom) throw e;
      console.warn('No room to save the new models before the update; the page saves them after it.', e);
    });
  }
  await self.skipWaiting();
}

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if ((name.startsWith(SHELL_PREFIX) || LEGACY_SHELL.test(name)) && name !== SHELL_CACHE) await caches.delete(name);
    }
    const models = await caches.open(MODEL_CACHE);
    for (const request of await models.keys()) {
      if (request.url.startsWith(MODELS_DIR) && !MODELS.has(request.url)) await models.delete(request);
    }
    await self.clients.claim();
  })());
});

/** The error for a model's download cut off (the connection lost): the page tries again when it is back. */
const connectionLost = (name, e) => Object.assign(new Error(`the connection was lost while ${name} downloaded (${e && e.message ? e.message : e})`), { network: true });

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

const sizeProblem = (name, size, expected) => (size === expected.bytes ? null : `${name} has ${size} bytes, this version of the site expects ${expected.bytes}`);

/** What is wrong with the bytes of `name` against the build's {bytes, sha256} (size first), or null. */
async function bytesProblem(name, bytes, expected) {
  const wrongSize = sizeProblem(name, bytes.byteLength, expected);
  if (wrongSize) return wrongSize;
  if (hex(await crypto.subtle.digest('SHA-256', bytes)) !== expected.sha256) return `${name} is not the file this version of the site expects (its SHA-256 differs)`;
  return null;
}

/**
 * Caches a model's response when its bytes have the size and SHA-256 the build listed; else
 * rejects, caching nothing, with what differs. (It caches a Response of its own: the body is
 * decoded, so the server's Content-Encoding and Content-Length would not describe it.)
 */
async function putModel(cache, url, response) {
  const expected = MODELS.get(url);
  const name = expected.file.split('/').pop();
  const bytes = await response.arrayBuffer().catch((e) => { throw connectionLost(name, e); });
  const problem = await bytesProblem(name, bytes, expected);
  if (problem) throw new Error(problem);
  const type = response.headers.get('content-type') || 'application/octet-stream';
  try {
    await cache.put(url, new Response(bytes, { headers: { 'Content-Type': type, 'Content-Length': String(bytes.byteLength) } }));
  } catch (e) {
    if (e && e.name === 'QuotaExceededError') {
      const mb = (bytes.byteLength / 1e6).toFixed(1);
      throw Object.assign(new Error(`the browser's storage for this site has no room for ${name} (${mb} MB)`), { noRoom: true });
    }
    throw e;
  }
}

/** What is wrong with a shell file's bytes (size or SHA-256 not the build's), or null. */
async function shellFileProblem(url, response) {
  const expected = SHELL.get(url);
  return bytesProblem(expected.file, await response.arrayBuffer(), expected);
}

// The shell files whose saved copy passed the SHA-256 check (or was saved after it) in this
// service worker's life: later hits check only the size (a write cut off), not every byte again.
const checkedShellFiles = new Set();

/** What is wrong with the saved copy `hit` of a shell file, or null (it is left unread). */
async function savedCopyProblem(url, hit) {
  if (checkedShellFiles.has(url)) {
    const expected = SHELL.get(url);
    return sizeProblem(expected.file, (await hit.clone().blob()).size, expected);
  }
  const problem = await shellFileProblem(url, hit.clone());
  if (!problem) checkedShellFiles.add(url);
  return problem;
}

/**
 * Caches a shell file's response when it is the build's (its bytes: `bytes` when read already);
 * else rejects, caching nothing.
 */
async function putShellFile(cache, url, response, bytes) {
  const expected = SHELL.get(url);
  const problem = await bytesProblem(expected.file, bytes || (await response.clone().arrayBuffer()), expected);
  if (problem) throw new Error(problem);
  // A response that followed a redirect (a host that sends page.html on to page) cannot answer a
  // navigation, whose redirects the browser follows itself: the browser would refuse the page.
  const plain = response.redirected ? new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers }) : response;
  await cache.put(url, plain);
  checkedShellFiles.add(url);
}

/**
 * The error for a web page the server answered with for a file that is none (a host that serves its
 * index.html for any missing file, as for a single-page app), or null.
 */
function webPageInstead(file, response) {
  if (file === './' || file.endsWith('.html') || !/^text\/html\b/i.test(response.headers.get('content-type') || '')) return null;
  return new Error(`${file}: the server answered with a web page (text/html), not the file (is it missing on the server?)`);
}

/** Downloads a shell file past the HTTP cache and caches it when it is the build's; else rejects. */
async function downloadShellFile(cache, url) {
  const { file } = SHELL.get(url);
  const response = await fetch(new Request(url, { cache: 'reload' })).catch((e) => { throw connectionLost(file, e); });
  if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
  const notTheFile = webPageInstead(file, response);
  if (notTheFile) throw notTheFile;
  const bytes = await response.clone().arrayBuffer().catch((e) => { throw connectionLost(file, e); });
  await putShellFile(cache, url, response, bytes);
}

/**
 * The answer for a shell file whose saved copy is damaged or missing (`what`), while it cannot be
 * fetched again: what is wrong and what to do, instead of the browser's own error.
 */
function unusableCopy(request, file, what) {
  const message = `This site's saved copy of ${file} ${what}, and it could not be downloaded again (offline?). Connect to the internet and reload the page.`;
  if (request.mode === 'navigate') {
    const page = `<!doctype html><html lang="en"><meta charset="utf-8"><title>This site's saved copy is not usable</title><p>${message}</p></html>`;
    return new Response(page, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }
  return new Response(message, { status: 503, statusText: message, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/**
 * A shell file from the cache when its saved copy is the build's; else (none saved, or a damaged
 * one, never served) from the network, saved in its place when it is the build's.
 */
async function shellResponse(request, key) {
  const cache = await caches.open(SHELL_CACHE);
  const hit = await cache.match(key);
  let damaged = null;
  if (hit) {
    damaged = await savedCopyProblem(key, hit).catch((e) => String(e && e.message ? e.message : e));
    if (!damaged) return hit;
    // (kept until a good copy replaces it: offline, every request for it says it is damaged)
    console.warn('The saved copy is damaged, downloading it again:', damaged);
    checkedShellFiles.delete(key);
  }
  let response;
  try {
    response = await fetch(request);
  } catch (e) {
    // (no saved copy: the install saved every file, so the browser or another site deleted it)
    const what = damaged ? 'is damaged' : 'is missing (the browser, or another site at this address, deleted it)';
    return unusableCopy(request, SHELL.get(key).file, what);
  }
  if (response.ok && response.status === 200 && response.type === 'basic') {
    putShellFile(cache, key, response.clone()).catch((e) => console.warn('Could not cache', key, e));
  }
  return response;
}

const downloads = new Map(); // model url → {response: Promise of it, kept unread; saved: Promise}, while it downloads

/**
 * A model from the network: one download however many requests want it while it runs (each takes
 * a clone of `response`, which streams as the bytes come: the page's progress bar moves), saved in
 * the model cache when it passes its check (`saved` rejects with why not).
 */
function downloadModel(cache, url, request) {
  let download = downloads.get(url);
  if (!download) {
    const response = fetch(request);
    const saved = response.catch((e) => { throw connectionLost(url.split('/').pop(), e); }).then((r) => {
      if (!r.ok || r.status !== 200) throw new Error(`${url.split('/').pop()}: HTTP ${r.status}`);
      const notTheFile = webPageInstead(url.split('/').pop(), r);
      if (notTheFile) throw notTheFile;
      return putModel(cache, url, r.clone());
    });
    download = { response, saved };
    downloads.set(url, download);
    saved.catch(() => {}).finally(() => downloads.delete(url));
  }
  return download;
}

async function modelResponse(request, url) {
  const cache = await caches.open(MODEL_CACHE);
  const hit = downloads.has(url) ? null : await cache.match(url);
  if (hit) return hit;
  const { response, saved } = downloadModel(cache, url, request);
  saved.catch((e) => console.warn('Could not cache', url, e));
  return response.then((r) => r.clone());
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  url.hash = '';
  const bare = `${url.origin}${url.pathname}`;
  if (MODELS.has(bare)) {
    event.respondWith(modelResponse(request, bare));
    return;
  }
  if (request.mode === 'navigate' && (bare === ROOT || bare === INDEX)) {
    event.respondWith(shellResponse(request, INDEX));
    return;
  }
  if (SHELL.has(bare)) {
    event.respondWith(shellResponse(request, bare));
    return;
  }
  // A page's address without .html (where a host sent page.html on to page): the saved page.
  if (request.mode === 'navigate' && !bare.endsWith('/') && SHELL.has(`${bare}.html`)) {
    event.respondWith(shellResponse(request, `${bare}.html`));
  }
});

/** Whether this copy of the site has models saved (by an earlier version, when installing). */
async function modelsSavedHere() {
  if (!(await caches.has(MODEL_CACHE))) return false;
  const requests = await (await caches.open(MODEL_CACHE)).keys();
  return requests.some((r) => r.url.startsWith(MODELS_DIR));
}

/**
 * Fetches every model that is not cached yet, and every shell file whose saved copy is missing or
 * damaged (deleted since the install, by the browser or another site on the origin): once at a
 * time, however many pages ask.
 */
let caching = null;
function cacheModels() {
  caching ||= (async () => {
    // Twice: a cache deleted while the first pass ran (by the browser, or another site on the
    // origin) took what it had saved with it; the second pass opens it anew, finds that missing
    // and saves it again.
    for (let pass = 0; pass < 2; pass++) {
      await cacheMissingShellFiles();
      await cacheMissingModels();
    }
  })().finally(() => { caching = null; });
  return caching;
}

async function cacheMissingShellFiles() {
  const cache = await caches.open(SHELL_CACHE);
  for (const url of SHELL.keys()) {
    const hit = await cache.match(url);
    if (hit && !(await savedCopyProblem(url, hit))) continue;
    checkedShellFiles.delete(url);
    await downloadShellFile(cache, url);
  }
}

async function cacheMissingModels() {
  const cache = await caches.open(MODEL_CACHE);
  for (const url of MODELS.keys()) {
    if (!downloads.has(url) && (await cache.match(url))) continue;
    await downloadModel(cache, url, new Request(url, { cache: 'no-store' })).saved;
  }
}

self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type !== 'cache-models') return;
  const port = event.ports && event.ports[0];
  event.waitUntil(cacheModels().then(
    () => port && port.postMessage({ ok: true, models: MODELS.size }),
    (e) => port && port.postMessage({ ok: false, error: String(e && e.message ? e.message : e), connectionLost: !!(e && e.network) }),
  ));
});
