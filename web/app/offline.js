/**
 * Offline use on the main page: the service worker's registration and the saving of the models
 * (../offline-use.js, shared by every page) write to the footer line (#offline-status). The
 * benchmark page is not saved (it fetches its sample sentences), so its footer link is shown only
 * while the browser is online.
 */
import { el } from './dom.js';
import { registerServiceWorker as register, saveModelsForOffline } from '../offline-use.js';

export function benchLinkOnlyOnline() {
  const link = document.getElementById('bench-link');
  if (!link) return;
  const sync = () => { link.hidden = !navigator.onLine; };
  window.addEventListener('online', sync);
  window.addEventListener('offline', sync);
  sync();
}

/** Registers the service worker (on a first visit, waiting briefly until it controls the page). */
export const registerServiceWorker = () => register(el.offline);

/** Asks the service worker to save every model; the footer says how it went. */
export const cacheModelsForOffline = saveModelsForOffline;
