/**
 * A classic script (every page's <head>, before its module): when the page's module script cannot
 * load, the page would sit there without a word, so this says why in a notice at the top. That is
 * Chromium and others opening a page from a file (file:// URLs: they block module scripts there),
 * a server that sends .js files with a type other than JavaScript or lacks one, and offline, a
 * saved copy of the script that the service worker found damaged or deleted (sw.js says which).
 */
(() => {
  async function notice(script) {
    const name = new URL(script.src, location.href).pathname.split('/').pop();
    const message = location.protocol === 'file:'
      ? 'This page cannot run opened as a file: the browser blocks its scripts on file:// URLs. Serve its folder with a web server (for example, run python3 -m http.server in it) and open the page at the address the server gives (http://localhost:8000/).'
      : (await savedCopyProblem(script.src)) || `This page's script ${name} could not be loaded. If you host this site, check that the file is there and that the server sends .js files as JavaScript (Content-Type: text/javascript).`;
    const p = document.createElement('p');
    p.className = 'notice error';
    p.id = 'load-failed';
    p.setAttribute('role', 'alert');
    p.textContent = message;
    const show = () => {
      if (document.getElementById('load-failed')) return;
      const where = document.querySelector('main') || document.body;
      where.prepend(p);
    };
    if (document.body) show();
    else document.addEventListener('DOMContentLoaded', show, { once: true });
  }
  /**
   * What the site's service worker says is wrong with its saved copy of `url` (damaged or deleted,
   * and offline: its 503's status text), or null: then it is the server's answer that failed.
   */
  async function savedCopyProblem(url) {
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) return null;
    try {
      const response = await fetch(url); // (through the service worker, which answers for its saved copy)
      return response.status === 503 && response.statusText.startsWith("This site's saved copy") ? response.statusText : null;
    } catch {
      return null;
    }
  }
  // A script's 'error' does not bubble: listen in the capture phase.
  window.addEventListener('error', (event) => {
    const target = event.target;
    if (target instanceof HTMLScriptElement && target.type === 'module' && target.src) notice(target);
  }, true);
})();
