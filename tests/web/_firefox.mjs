/**
 * Debian's Firefox ESR for the end-to-end tests, driven over WebDriver BiDi by puppeteer-core, behind
 * the part of Playwright's API those tests use, so one test body runs in Chromium (Playwright) and
 * in Firefox (this file). Playwright itself cannot drive Firefox ESR 153: its BiDi client sends
 * commands that only newer Firefox releases know (emulation.setMediaFeaturesOverride).
 *
 * What is here, and how it follows Playwright:
 * - browser.newContext({ viewport, deviceScaleFactor }) → an isolated profile (a BiDi user context:
 *   its own cache, storage and service workers); viewport 1280×720 unless given. No hasTouch or
 *   isMobile: Firefox ESR 153 ignores touch emulation (navigator.maxTouchPoints stays 0, a tap fires
 *   no touch events), so asking for it throws;
 * - context: newPage, addInitScript (every page opened after it), on('request'), setOffline, close,
 *   grantPermissions for the clipboard only (Firefox ESR 153 asks nothing for a click's
 *   writeText, nor for readText evaluated over BiDi, so there is nothing to grant; others throw);
 * - page: goto (→ response.headers()), reload, evaluate, waitForFunction (→ handle.jsonValue()),
 *   waitForSelector, waitForTimeout, route (→ route.continue()), on('pageerror'|'console'|'dialog'),
 *   screenshot (saved as NAME.firefox.png), keyboard, mouse, touchscreen, context(); and on a
 *   selector: click, hover, tap, focus, fill, type, press, selectOption, dispatchEvent, textContent,
 *   innerText, getAttribute, inputValue, isVisible/isHidden, isEnabled/isDisabled, $eval, $$eval,
 *   locator (count, boundingBox, scrollIntoViewIfNeeded), and $ / $$ (puppeteer's element handles,
 *   whose hover, click and boundingBox match Playwright's).
 * - Selectors: CSS, optionally followed by Playwright's " >> nth=N". Actions wait (up to 30 s) for
 *   the element to exist and be visible, reads for it to exist; isVisible does not wait.
 * - fill sets the value and fires one `input` event, as Playwright's does.
 * Anything else throws, so a test that needs more says so instead of doing something else.
 */
export const FIREFOX = process.env.FIREFOX || '/usr/bin/firefox-esr';
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
const ACTION_TIMEOUT = 30000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function launchFirefox() {
  let puppeteer;
  try {
    ({ default: puppeteer } = await import('puppeteer-core'));
  } catch {
    throw new Error('puppeteer-core is not installed: run `npm install` (or `npm ci`) in the repository root.');
  }
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  return new FirefoxBrowser(browser, (await browser.version()).replace(/^firefox\//, ''));
}

class FirefoxBrowser {
  constructor(browser, version) {
    this._browser = browser;
    this._version = version;
  }

  version() { return this._version; }

  async newContext(options = {}) {
    return new FirefoxContext(await this._browser.createBrowserContext(), options);
  }

  async close() { await this._browser.close(); }
}

class FirefoxContext {
  constructor(context, options) {
    this._context = context;
    this._options = options;
    this._initScripts = [];
    this._requestListeners = [];
    this._pages = [];
  }

  async newPage() {
    const raw = await this._context.newPage();
    const { viewport = DEFAULT_VIEWPORT, deviceScaleFactor = 1, hasTouch, isMobile } = this._options;
    if (hasTouch || isMobile) throw new Error('Firefox ESR has no touch emulation over WebDriver BiDi (emulation.setTouchOverride): see canEmulateTouch()');
    await raw.setViewport({ ...viewport, deviceScaleFactor });
    for (const script of this._initScripts) await addInitScript(raw, script);
    raw.on('request', (r) => { for (const listener of this._requestListeners) listener(r); });
    const page = new FirefoxPage(raw, this);
    this._pages.push(page);
    return page;
  }

  async addInitScript(script) {
    this._initScripts.push(script);
    for (const page of this._pages) await addInitScript(page._page, script);
  }

  on(event, listener) {
    if (event !== 'request') throw new Error(`the Firefox adapter has no context event '${event}'`);
    this._requestListeners.push(listener);
  }

  async grantPermissions(permissions) {
    const other = permissions.filter((p) => p !== 'clipboard-read' && p !== 'clipboard-write');
    if (other.length) throw new Error(`the Firefox adapter grants only clipboard permissions, not ${other.join(', ')}`);
  }

  async setOffline(offline) {
    for (const page of this._pages) await page._page.setOfflineMode(offline);
  }

  async close() { await this._context.close(); }
}

function addInitScript(page, script) {
  if (typeof script === 'function') return page.evaluateOnNewDocument(script);
  if (script && typeof script.content === 'string') return page.evaluateOnNewDocument(script.content);
  throw new Error('addInitScript takes a function or { content }');
}

/** "css >> nth=N" → { css, nth }; plain CSS → { css, nth: null }. */
function parseSelector(selector) {
  const m = /^(.*?)\s*>>\s*nth=(-?\d+)$/.exec(selector);
  if (m) return { css: m[1], nth: Number(m[2]) };
  if (selector.includes('>>')) throw new Error(`the Firefox adapter understands CSS and " >> nth=N" only: ${selector}`);
  return { css: selector, nth: null };
}

/** Playwright's "visible": a non-empty box, and not visibility:hidden. */
function isVisibleInPage(element) {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden';
}

/**
 * An evaluation's result as Playwright returns it: objects with toJSON (DOMRect, ...) as their JSON
 * (WebDriver BiDi would send them as empty objects), arrays and plain objects element by element.
 */
async function plainResult(handlePromise) {
  const handle = await handlePromise;
  try {
    return await handle.evaluate(function plain(v) {
      if (Array.isArray(v)) return v.map(plain);
      if (v && typeof v === 'object') {
        if (typeof v.toJSON === 'function') return v.toJSON();
        const proto = Object.getPrototypeOf(v);
        if (proto === Object.prototype || proto === null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
      }
      return v;
    });
  } finally {
    await handle.dispose().catch(() => {});
  }
}

function globToRegExp(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\?/g, '.');
  return new RegExp(`^${escaped.replace(/\u0000/g, '.*')}$`);
}

class FirefoxPage {
  constructor(page, context) {
    this._page = page;
    this._context = context;
    this._routes = [];
    this.keyboard = page.keyboard;
    this.mouse = page.mouse;
    this.touchscreen = page.touchscreen;
  }

  context() { return this._context; }

  on(event, listener) {
    if (!['pageerror', 'console', 'dialog'].includes(event)) throw new Error(`the Firefox adapter has no page event '${event}'`);
    this._page.on(event, listener);
  }

  goto(url) { return this._page.goto(url); }
  reload() { return this._page.reload(); }
  evaluate(fn, arg) { return plainResult(this._page.evaluateHandle(fn, arg)); }
  waitForTimeout(ms) { return sleep(ms); }
  /** Saved beside Chromium's, with ".firefox" before the extension (web-demo.png → web-demo.firefox.png). */
  screenshot(options = {}) {
    const file = options.path && options.path.replace(/(\.\w+)$/, '.firefox$1');
    return this._page.screenshot({ ...options, path: file });
  }

  async waitForFunction(fn, arg, { timeout = ACTION_TIMEOUT, polling = 'raf' } = {}) {
    const handle = await this._page.waitForFunction(fn, { timeout, polling }, arg);
    return { jsonValue: () => plainResult(handle) };
  }

  /** route(glob, handler): the handler gets each matching request as `route`, and calls route.continue(). */
  async route(glob, handler) {
    if (!this._routes.length) {
      await this._page.setRequestInterception(true);
      this._page.on('request', (request) => {
        const match = this._routes.find((r) => r.pattern.test(request.url()));
        if (match) match.handler({ request: () => request, continue: () => request.continue() });
        else request.continue();
      });
    }
    this._routes.push({ pattern: globToRegExp(glob), handler });
  }

  // --- elements ---

  /** The elements a selector names now (no waiting). */
  async _all(selector) {
    const { css, nth } = parseSelector(selector);
    const all = await this._page.$$(css);
    if (nth === null) return all;
    const one = all.at(nth);
    return one ? [one] : [];
  }

  async $(selector) { return (await this._all(selector))[0] || null; }
  $$(selector) { return this._all(selector); }

  /** The first element of a selector, waited for (and for it to be visible, for actions). */
  async _element(selector, { visible = false, timeout = ACTION_TIMEOUT } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const element = await this.$(selector);
      if (element && (!visible || await element.evaluate(isVisibleInPage))) return element;
      if (Date.now() > end) throw new Error(`Timeout ${timeout} ms waiting for ${visible ? 'a visible ' : ''}${selector}`);
      await sleep(50);
    }
  }

  async waitForSelector(selector, { state = 'visible', timeout = ACTION_TIMEOUT } = {}) {
    const end = Date.now() + timeout;
    for (;;) {
      const element = await this.$(selector);
      const visible = element ? await element.evaluate(isVisibleInPage) : false;
      if ((state === 'attached' && element) || (state === 'visible' && visible)) return element;
      if ((state === 'detached' && !element) || (state === 'hidden' && !visible)) return null;
      if (Date.now() > end) throw new Error(`Timeout ${timeout} ms waiting for ${selector} to be ${state}`);
      await sleep(50);
    }
  }

  async click(selector) { await (await this._element(selector, { visible: true })).click(); }
  async hover(selector) { await (await this._element(selector, { visible: true })).hover(); }
  async tap(selector) { await (await this._element(selector, { visible: true })).tap(); }
  async focus(selector) { await (await this._element(selector)).focus(); }

  async fill(selector, value) {
    const element = await this._element(selector, { visible: true });
    await element.evaluate((e, v) => {
      e.focus();
      e.value = v;
      e.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: v }));
    }, value);
  }

  async type(selector, text, options) {
    await this.focus(selector);
    await this._page.keyboard.type(text, options);
  }

  async press(selector, key) {
    await this.focus(selector);
    await this._page.keyboard.press(key);
  }

  async selectOption(selector, value) {
    const element = await this._element(selector, { visible: true });
    const chosen = await element.evaluate((e, v) => {
      const option = [...e.options].find((o) => o.value === v) || [...e.options].find((o) => o.label === v);
      if (!option) return null;
      e.value = option.value;
      e.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      e.dispatchEvent(new Event('change', { bubbles: true }));
      return option.value;
    }, value);
    if (chosen === null) throw new Error(`${selector} has no option ${JSON.stringify(value)}`);
    return [chosen];
  }

  async dispatchEvent(selector, type) {
    await (await this._element(selector)).evaluate((e, t) => e.dispatchEvent(new Event(t, { bubbles: true, cancelable: true, composed: true })), type);
  }

  async textContent(selector) { return (await this._element(selector)).evaluate((e) => e.textContent); }
  async innerText(selector) { return (await this._element(selector)).evaluate((e) => e.innerText); }
  async getAttribute(selector, name) { return (await this._element(selector)).evaluate((e, n) => e.getAttribute(n), name); }
  async inputValue(selector) { return (await this._element(selector)).evaluate((e) => e.value); }
  async isEnabled(selector) { return (await this._element(selector)).evaluate((e) => !e.disabled); }
  async isDisabled(selector) { return !(await this.isEnabled(selector)); }

  async isVisible(selector) {
    const element = await this.$(selector);
    return element ? element.evaluate(isVisibleInPage) : false;
  }

  async isHidden(selector) { return !(await this.isVisible(selector)); }

  async $eval(selector, fn, arg) { return plainResult((await this._element(selector)).evaluateHandle(fn, arg)); }

  async $$eval(selector, fn, arg) {
    const elements = await this._all(selector);
    return plainResult(this._page.evaluateHandle(fn, await this._page.evaluateHandle((...all) => all, ...elements), arg));
  }

  locator(selector) {
    return {
      count: async () => (await this._all(selector)).length,
      boundingBox: async () => (await this._element(selector)).boundingBox(),
      scrollIntoViewIfNeeded: async () => (await this._element(selector)).scrollIntoView(),
    };
  }
}
