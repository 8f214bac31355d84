/**
 * The browsers the end-to-end tests run in: Debian's Chromium through playwright-core, and Debian's
 * Firefox ESR through puppeteer-core over WebDriver BiDi, behind the same (Playwright's) API
 * (_firefox.mjs). An end-to-end test file runs its cases once per browser:
 *
 *   for (const name of browsers()) describe(name, () => { before(async () => { browser = await launchBrowser(name); }); ... });
 *
 * NMT_BROWSERS=chromium (or firefox, or both comma-separated) picks the browsers, to work on one.
 *
 * To keep CI's time, the heavy cases that test the page's own logic more than the browser (long
 * translations, search options, hint rules) are registered with `heavyCase(name, test)`: they run in
 * Chromium only, and in Firefox too with NMT_ALL_BROWSERS=1 (they passed there when this was written).
 */
import { existsSync } from 'node:fs';
import { launchChromium } from './_helpers.mjs';
import { launchFirefox, FIREFOX } from './_firefox.mjs';

export const BROWSERS = ['chromium', 'firefox'];

export function browsers() {
  const chosen = (process.env.NMT_BROWSERS || BROWSERS.join(',')).split(',').map((b) => b.trim()).filter(Boolean);
  const unknown = chosen.filter((b) => !BROWSERS.includes(b));
  if (unknown.length) throw new Error(`NMT_BROWSERS names ${unknown.join(', ')}: the tests know ${BROWSERS.join(', ')}`);
  return chosen;
}

export async function launchBrowser(name) {
  if (name === 'chromium') return launchChromium();
  if (name === 'firefox') {
    if (!existsSync(FIREFOX)) throw new Error(`${FIREFOX} is missing: install Debian's firefox-esr (bash scripts/setup.sh --tests)`);
    return launchFirefox();
  }
  throw new Error(`unknown browser ${name}`);
}

/**
 * Whether a browser emulates a touch screen (newContext({ hasTouch, isMobile })): Chromium does;
 * Firefox ESR over WebDriver BiDi does not, so tests of touch run in Chromium only.
 */
export const canEmulateTouch = (name) => name === 'chromium';

/** `test` in Chromium (and everywhere with NMT_ALL_BROWSERS=1); elsewhere a no-op: see above. */
export const heavyCase = (name, test) => (name === 'chromium' || process.env.NMT_ALL_BROWSERS === '1' ? test : () => {});
