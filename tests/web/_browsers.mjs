/**
 * The browsers the end-to-end tests run in: Debian's Chromium through playwright-core, and Debian's
 * Firefox ESR through puppeteer-core over WebDriver BiDi, behind the same (Playwright's) API
 * (_firefox.mjs). An end-to-end test file runs its cases once per browser:
 *
 *   for (const name of browsers()) describe(name, () => { before(async () => { browser = await launchBrowser(name); }); ... });
 *
 * NMT_BROWSERS=chromium (or firefox, or both comma-separated) picks the browsers, to work on one.
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
