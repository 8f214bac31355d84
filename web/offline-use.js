/**
 * Offline use, shared by every page of the site: registerServiceWorker() registers the service
 * worker (sw.js, built by scripts/build-web.mjs), waiting briefly on a first visit until it controls
 * the page so the first model download passes through it and is cached; modelLoaded(), called when
 * a model has loaded, asks it the first time to save every model (html[data-offline="ready"] when
 * done), so that a first visit to any page makes the whole site work offline. The page's status
 * line (an element, or none) says what happened, and that a new version of the site was installed
 * when a new service worker takes over an open page (a new release: this page's files are the old
 * ones until it reloads). Once the models are saved, it asks the browser to keep them
 * (navigator.storage.persist(): see keepStorage()) and says in a line of its own whether it does.
 */

let statusLine = null;
let updateInstalled = false;
let modelsAsked = false;

/** Writes the status line, unless it says that a new version was installed (which stays until a reload). */
function showStatus(message) {
  if (statusLine && !updateInstalled) statusLine.textContent = message;
}

/** Says so when a service worker takes over from the one that served this page (not the first one). */
function announceUpdates() {
  let controller = navigator.serviceWorker.controller;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (controller) {
      showStatus('A new version of this site was installed: reload the page to use it.');
      updateInstalled = true;
    }
    controller = navigator.serviceWorker.controller;
  });
}

const ONLINE_STILL = 'Translation works while online.';

/**
 * A save cut off by a lost connection (the network gone, or a server that dropped the download) is
 * tried again after these delays, one after another, then only when the browser comes back online
 * or at the next visit: a server that keeps failing is not asked again and again. (The same for the
 * first install of the site and for the saving of the models.)
 */
const RETRY_DELAYS_S = [5, 15, 45, 120, 300];
let installRetries = 0;

/**
 * A promise that resolves if the site's first service worker fails to install (its files could not
 * be saved: storage full or not allowed, a file missing on the server or not this build's, the
 * connection lost); the status line then says that offline use is off, and why when the service
 * worker said so (its 'install-failed' message, which may come just before or after). An install
 * cut off by a lost connection is tried again (RETRY_DELAYS_S). (A failed update leaves the
 * version installed before working.)
 */
function firstInstallFailure(registration) {
  const worker = registration.installing;
  if (!worker || registration.active) return new Promise(() => {});
  let failed = false;
  let reason = null;
  let connectionLost = false;
  let retrying = false;
  const show = () => {
    const why = reason ? reason.replace(/\.$/, '') : 'its storage is full or not allowed here';
    const off = `Offline use is off: this browser could not save the site (${why})`;
    if (!connectionLost || retrying) {
      if (!retrying) showStatus(`${off}. ${ONLINE_STILL}`);
      return;
    }
    retrying = true;
    if (!navigator.onLine) {
      showStatus(`${off}; it will try again when the connection is back. ${ONLINE_STILL}`);
      window.addEventListener('online', () => installAgain(), { once: true });
    } else if (installRetries < RETRY_DELAYS_S.length) {
      const delay = RETRY_DELAYS_S[installRetries++];
      showStatus(`${off}; trying again in ${delay} s. ${ONLINE_STILL}`);
      setTimeout(installAgain, delay * 1000);
    } else {
      showStatus(`${off}. ${ONLINE_STILL}`);
    }
  };
  navigator.serviceWorker.addEventListener('message', (event) => {
    if (!event.data || event.data.type !== 'install-failed' || event.source !== worker) return;
    reason = String(event.data.reason);
    connectionLost = !!event.data.connectionLost;
    if (failed) show();
  });
  navigator.serviceWorker.startMessages();
  return new Promise((resolve) => {
    worker.addEventListener('statechange', () => {
      if (worker.state !== 'redundant' || registration.active || registration.installing) return;
      failed = true;
      show();
      resolve();
    });
  });
}

/** Registers the service worker again, after a first install that a lost connection cut off. */
async function installAgain() {
  try {
    firstInstallFailure(await navigator.serviceWorker.register('./sw.js', { scope: './' }));
  } catch (e) {
    console.warn('Service worker registration failed:', e);
  }
}

/**
 * Registers the service worker, writing what happens to `line` (an element, or null for none).
 * Resolves (never rejects) when the page may download its first model: at once, or on a first
 * visit once the new service worker controls the page (3 s at most).
 */
export async function registerServiceWorker(line) {
  statusLine = line;
  if (location.protocol === 'file:') {
    showStatus('Offline use needs the site served over HTTPS (or from localhost), not opened as a file.');
    return;
  }
  if (!window.isSecureContext) {
    showStatus('Offline use needs HTTPS (or localhost).');
    return;
  }
  if (!('serviceWorker' in navigator)) {
    showStatus(`Offline use is off: this browser does not let sites save themselves here (a private window?). ${ONLINE_STILL}`);
    return;
  }
  try {
    const hadController = !!navigator.serviceWorker.controller;
    announceUpdates();
    const registration = await navigator.serviceWorker.register('./sw.js', { scope: './' });
    const failed = firstInstallFailure(registration);
    if (!hadController && !registration.active) {
      // First visit: wait (briefly) until the new service worker controls the page, so the model
      // downloads pass through it and are cached the first time. (A page that a service worker
      // already installed does not control, after Shift+Reload, is never taken over.)
      await Promise.race([
        new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true })),
        failed,
        new Promise((resolve) => setTimeout(resolve, 3000)),
      ]);
    }
  } catch (e) {
    console.warn('Service worker registration failed:', e);
    const why = String(e && e.message ? e.message : e).replace(/\.$/, '');
    showStatus(`Offline use is off: the site's service worker (sw.js) could not be registered (${why}). ${ONLINE_STILL}`);
  }
}

/** To call when a model has loaded: the first call asks the service worker to save every model. */
export function modelLoaded() {
  if (modelsAsked) return;
  modelsAsked = true;
  saveModelsForOffline();
}

let retries = 0; // the retries after the delays so far
let retryTimer = null;
let saving = null; // the save running now: one at a time, however it was asked for
let cutOff = false; // the last save was cut off by a lost connection: coming back online tries again
let listensForOnline = false;

/**
 * Asks the service worker to save every model (and the site's files) for offline use; marks the
 * page when done. A save cut off by a lost connection is tried again (see RETRY_DELAYS_S).
 */
export function saveModelsForOffline() {
  if (location.protocol === 'file:' || !('serviceWorker' in navigator) || !window.isSecureContext) return Promise.resolve();
  clearTimeout(retryTimer);
  retryTimer = null;
  saving ||= askToSave().finally(() => { saving = null; });
  return saving;
}

async function askToSave() {
  try {
    const reg = await navigator.serviceWorker.ready;
    if (!reg.active) return;
    const channel = new MessageChannel();
    const done = new Promise((resolve) => { channel.port1.onmessage = (e) => resolve(e.data); });
    reg.active.postMessage({ type: 'cache-models' }, [channel.port2]);
    const reply = await done;
    cutOff = !!(reply && reply.connectionLost);
    if (reply && reply.ok) {
      retries = 0;
      showStatus('Saved for offline use.');
      document.documentElement.dataset.offline = 'ready';
      storageKept ||= keepStorage();
    } else if (reply && reply.connectionLost) {
      tryAgainLater(reply.error);
    } else if (reply) {
      showStatus(`Not all files could be saved for offline use (${reply.error || 'unknown error'}).`);
    }
  } catch (e) {
    console.warn('Caching for offline use failed:', e);
  }
}

let storageKept = null; // keepStorage(), once a page

/** The site's answer to 'persistent-storage' (Permissions API): 'granted', 'denied', 'prompt', or null where it cannot say. */
async function persistPermission() {
  try {
    return (await navigator.permissions.query({ name: 'persistent-storage' })).state;
  } catch {
    return null;
  }
}

const PERSIST_ASKED = 'nmt-persist-asked';

/** Whether this browser was asked to keep the site's storage before (on any visit). */
function askedBefore() {
  try {
    return localStorage.getItem(PERSIST_ASKED) === '1';
  } catch {
    return false;
  }
}

function rememberAsked() {
  try {
    localStorage.setItem(PERSIST_ASKED, '1');
  } catch {
    // storage not allowed: the next visit may ask again
  }
}

/** The line after the status line that says whether the browser keeps the saved files (created on first use). */
function storageLine() {
  if (!statusLine) return null;
  let line = document.getElementById('offline-storage');
  if (!line) {
    line = document.createElement(statusLine.tagName);
    line.id = 'offline-storage';
    line.className = statusLine.className;
    statusLine.after(' ', line);
  }
  return line;
}

/**
 * Once the models are saved: asks the browser to keep the site's storage
 * (navigator.storage.persist()), and says what it answered. Not before: Firefox asks the reader with
 * a prompt, which on a first visit, before anything was saved, asks about nothing they can see.
 * Asked until the browser answers once (a reader who said no is not asked on every visit), then
 * again only where the permission is already granted (Chromium decides without a prompt, by how the site is used).
 */
async function keepStorage() {
  const storage = navigator.storage;
  if (!storage || typeof storage.persisted !== 'function') return;
  const mark = (state, text) => {
    document.documentElement.dataset.offlineStorage = state;
    const line = storageLine();
    if (line) line.textContent = text;
  };
  try {
    let persisted = await storage.persisted();
    if (!persisted && typeof storage.persist === 'function') {
      const permission = await persistPermission();
      if (permission === 'granted' || (permission !== 'denied' && !askedBefore())) {
        mark('asking', 'Asking the browser to keep the saved files (it may ask you)…');
        persisted = await storage.persist();
        rememberAsked(); // (answered: a prompt left open when the page closed is asked again next time)
      }
    }
    if (persisted) mark('persistent', 'The browser keeps the saved files until you clear this site\'s data.');
    else mark('best-effort', 'The browser may clear the saved files when it runs short of space (it did not make this site\'s storage persistent); the site then downloads them again when online.');
  } catch (e) {
    console.warn('Could not ask for persistent storage:', e);
  }
}

/** After a save cut off by a lost connection: the next try, and the status line saying when. */
function tryAgainLater(error) {
  if (!listensForOnline) {
    listensForOnline = true;
    window.addEventListener('online', () => {
      if (!cutOff) return;
      retries = 0; // (back online: the delays start again)
      saveModelsForOffline();
    });
  }
  const failed = `Not all files could be saved for offline use (${error})`;
  if (!navigator.onLine) {
    showStatus(`${failed}; they will be when the connection is back.`);
  } else if (retries < RETRY_DELAYS_S.length) {
    const delay = RETRY_DELAYS_S[retries++];
    showStatus(`${failed}; trying again in ${delay} s.`);
    retryTimer = setTimeout(saveModelsForOffline, delay * 1000);
  } else {
    showStatus(`${failed}; they will be when the connection is back, or the next time this page is opened.`);
  }
}
