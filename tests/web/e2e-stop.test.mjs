/**
 * Stop keeps what was done (issue 53), in Debian's Chromium and Firefox ESR (tests/web/_browsers.mjs)
 * with the real WASM engine and the shipped models (or the fixture model): a long text streams
 * sentence by sentence; after Stop, the sentences already translated stay on screen as a usable
 * result that says it is partial: Copy copies exactly that text, a word of it lights its source
 * words on the alignment card, and the next edit translates everything again (and the mark goes).
 * A short text (one request) keeps the sentences finished before Stop, whether they stand on
 * several lines or on one: the worker sends them in groups of sentences as they are done.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { engineSkip, requireEngine } from './_helpers.mjs';
import { browsers, launchBrowser, heavyCase, serveSite, waitFor } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);

let server;
let browser;

before(async () => {
  if (!skip) ({ server } = await serveSite('stop'));
});

after(async () => {
  if (server) await server.close();
});

/** A fresh context and the page in it, its first model loaded; `problems` collects page errors. */
async function openPage(t, { clipboard = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  t.after(() => context.close());
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.state === 'error', null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true', await page.textContent('#error'));
  return { page, problems };
}

/**
 * Clicks Stop in the page the moment the first translated words are drawn, or with `sentences`,
 * that many sentences (a click sent from here could land after the end: a short text takes ~1 s).
 */
function stopAtFirstWords(page, sentences = 0) {
  return page.evaluate((sentences) => {
    const target = document.getElementById('target');
    window.__stopClicked = false;
    new MutationObserver((_, observer) => {
      if (document.body.dataset.state !== 'translating' || !target.textContent.trim()) return;
      if (target.querySelectorAll('.sent').length < sentences) return;
      observer.disconnect();
      window.__stopClicked = true;
      document.getElementById('stop').click();
    }).observe(target, { childList: true, subtree: true, characterData: true });
  }, sentences);
}

/**
 * Types `text` (one request), stops at the first words drawn and checks the page says the result
 * is partial; returns how many sentences were kept (at least `atLeast`, fewer than `total`) and the kept text.
 */
async function stopShortText(page, text, total, atLeast) {
  await stopAtFirstWords(page);
  await page.fill('#source', text);
  await waitFor(page, 'Stop clicked in the page at the first words drawn, and the status "Stopped."',
    () => window.__stopClicked && document.getElementById('status').textContent === 'Stopped.', null, { timeout: 120000 });
  const n = Number(await page.getAttribute('#target', 'data-sentences'));
  assert.ok(n >= atLeast && n < total, `${n} of ${total} sentences kept`);
  assert.equal(await page.getAttribute('#target', 'data-partial'), 'true');
  assert.match(await page.textContent('#stats'), new RegExp(`^Partial: stopped after ${n} sentences?; the rest is not translated$`));
  return { n, kept: await page.textContent('#target') };
}

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });

  heavyCase(name, test)('after Stop the finished sentences stay usable (copy, alignments) and say they are partial', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await openPage(t, { clipboard: true });

    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}: the weather was cold and the streets were empty, so we stayed at home and read.`).join('\n\n');
    // Stop once a few sentences are drawn, long before the 40th.
    await stopAtFirstWords(page, 2);
    await page.fill('#source', text);
    await waitFor(page, 'Stop clicked in the page once 2 sentences were drawn, and the status "Stopped."',
      () => window.__stopClicked && document.getElementById('status').textContent === 'Stopped.', null, { timeout: 120000 });
    const drawn = await page.textContent('#target');
    const n = Number(await page.getAttribute('#target', 'data-sentences'));
    assert.ok(n >= 2 && n < 40, `${n} sentences kept`);
    assert.equal(await page.getAttribute('#target', 'data-partial'), 'true');
    assert.match(await page.textContent('#stats'), new RegExp(`^Partial: stopped after ${n} sentences; the rest is not translated$`));
    assert.equal(await page.textContent('#target'), drawn, 'the drawn text stays as it was');

    // Copy: exactly the kept text.
    assert.equal(await page.isEnabled('#copy'), true, 'Copy is on');
    await page.click('#copy');
    await page.waitForFunction(() => document.getElementById('copy').textContent === 'Copied');
    assert.equal(await page.textContent('#copy-said'), 'Copied to the clipboard.', 'a live region says so');
    assert.equal(await page.getAttribute('#copy-said', 'aria-live'), 'polite');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(copied.trim().length > 0 && drawn.startsWith(copied), `the clipboard holds the kept translation: ${JSON.stringify(copied.slice(0, 80))}`);

    // Alignments: a word of the last kept sentence lights its source words on the card.
    const last = n - 1;
    await page.hover(`#target .sent[data-s="${last}"] .w[data-w="0"]`);
    await page.waitForFunction(() => document.querySelectorAll('#align-source .w.hl').length > 0, null, { timeout: 10000 });
    assert.equal(await page.textContent('#sent-pos'), `Sentence ${n} of ${n}`, 'the card steps through the kept sentences');

    // The next edit translates all of it; the partial mark goes.
    await page.fill('#source', 'The house is small.');
    await page.waitForFunction(() => document.body.dataset.state === 'done' && document.getElementById('target').getAttribute('aria-busy') === 'false', null, { timeout: 120000 });
    assert.equal(await page.getAttribute('#target', 'data-partial'), null);
    assert.doesNotMatch(await page.textContent('#stats'), /Partial/);
    assert.deepEqual(problems, []);
  });

  heavyCase(name, test)('Stop during a short text of several lines keeps the lines already translated', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await openPage(t);

    // One request (under 1,000 characters, not streamed): the worker sends its sentences in groups (2, 2, 4).
    const lines = Array.from({ length: 8 }, (_, i) => `Line ${i + 1}: the weather was cold and the streets were empty, so we stayed at home.`);
    const text = lines.join('\n');
    assert.ok(text.length < 1000);
    const { n, kept } = await stopShortText(page, text, lines.length, 1);
    assert.equal(kept.split('\n').filter((l) => l.trim()).length, n, `one line a kept sentence: ${JSON.stringify(kept)}`);
    // the first n lines, in order (their numbers are copied as they are)
    assert.deepEqual(kept.match(/\d+/g).map(Number), Array.from({ length: n }, (_, i) => i + 1), `the first ${n} lines: ${JSON.stringify(kept)}`);
    // Swap moves only a whole translation into the box: a partial one would replace the lines not translated.
    await page.click('#swap');
    assert.equal(await page.inputValue('#source'), text, 'the person\'s text stays, every line of it');
    assert.equal(await page.inputValue('#direction'), 'de-en');
    // the output is emptied for the new direction (or holds its translation already): nothing says partial, not even the figures' tooltip
    assert.equal(await page.getAttribute('#target', 'data-partial'), null);
    assert.doesNotMatch(await page.getAttribute('#stats', 'title') || '', /Stop/);
    assert.deepEqual(problems, []);
  });

  test('Stop during one line of several sentences keeps the sentences already translated, usable', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await openPage(t);

    // One paragraph on one line, one request: the worker sends its sentences in groups (2, 2, 4, 4).
    const sentences = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}: the weather was cold and the streets were empty.`);
    const text = sentences.join(' ');
    assert.ok(text.length < 1000 && !text.includes('\n'));
    const { n, kept } = await stopShortText(page, text, sentences.length, 2);
    assert.match(await page.getAttribute('#stats', 'title'), /the rest of the text was not translated/);
    // the first n sentences, in order (their numbers are copied as they are), and nothing after them
    assert.deepEqual(kept.match(/\d+/g).map(Number), Array.from({ length: n }, (_, i) => i + 1), `the first ${n} sentences: ${JSON.stringify(kept)}`);
    assert.equal(await page.evaluate(() => document.querySelectorAll('#target .sent').length), n, 'each kept sentence drawn as one');

    // usable: Copy is on, and a word of the last kept sentence lights its source words on the alignment card
    assert.equal(await page.isEnabled('#copy'), true, 'Copy is on');
    await page.hover(`#target .sent[data-s="${n - 1}"] .w[data-w="0"]`);
    await page.waitForFunction(() => document.querySelectorAll('#align-source .w.hl').length > 0, null, { timeout: 10000 });
    assert.equal(await page.textContent('#sent-pos'), `Sentence ${n} of ${n}`);
    assert.match(await page.textContent('#align-source'), new RegExp(`Line ${n}: the weather`), 'the card shows the kept sentence\'s source');

    // Another word chosen in a kept sentence, and Undo: the result is still partial, and the foot still says so.
    const partialFoot = async (when) => {
      assert.equal(await page.getAttribute('#target', 'data-partial'), 'true', when);
      assert.match(await page.textContent('#stats'), new RegExp(`^Partial: stopped after ${n} sentences?; the rest is not translated$`), when);
    };
    const w = await page.$$eval('#target .sent[data-s="0"] .w', (ws) => ws.findIndex((x, i) => i > 0 && /\p{L}/u.test(x.textContent)));
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    await page.waitForSelector('#alt-menu[aria-busy="false"] [role="menuitem"]', { timeout: 60000 });
    await page.click('#alt-menu [role="menuitem"]:not([aria-current])');
    await page.waitForSelector('#alt-preview', { timeout: 60000 });
    await page.click('#alt-menu [role="menuitem"]:first-of-type');
    await page.waitForFunction(() => /translated again/.test(document.getElementById('status').textContent));
    await partialFoot('after a chosen word');
    await page.click('#undo-choice');
    await partialFoot('after Undo');

    // Another text's first sentences drawn as they come: the old translation's card and Copy go with it.
    await page.evaluate(() => {
      const target = document.getElementById('target');
      new MutationObserver((_, observer) => {
        if (document.body.dataset.state !== 'translating' || !target.textContent.trim()) return;
        observer.disconnect();
        window.firstPartial = { copy: document.getElementById('copy').disabled, pos: document.getElementById('sent-pos').textContent,
          card: document.getElementById('align-source').textContent };
      }).observe(target, { childList: true, subtree: true, characterData: true });
    });
    await page.fill('#source', Array.from({ length: 12 }, (_, i) => `Row ${i + 1}: the garden was green and the sky was blue.`).join(' '));
    await page.waitForFunction(() => document.body.dataset.state === 'done' && window.firstPartial, null, { timeout: 120000 });
    assert.deepEqual(await page.evaluate(() => window.firstPartial), { copy: true, pos: 'No sentence yet', card: '' }, 'nothing of the old translation beside the new one');

    // Stop before anything of another text is done: what stays on screen must not be the old text's translation.
    await page.evaluate(() => new MutationObserver((_, observer) => {
      if (document.body.dataset.state !== 'translating') return;
      observer.disconnect();
      document.getElementById('stop').click();
      window.stoppedAtOnce = true;
    }).observe(document.body, { attributes: true, attributeFilter: ['data-state'] }));
    await page.fill('#source', 'The house is small. It is very old.');
    await page.waitForFunction(() => window.stoppedAtOnce, null, { timeout: 60000 });
    assert.equal(await page.textContent('#status'), 'Stopped.');
    assert.equal(await page.textContent('#target'), '', 'no translation of the old text');
    assert.equal(await page.getAttribute('#target', 'data-sentences'), '0');
    assert.equal(await page.textContent('#sent-pos'), 'No sentence yet');
    assert.equal(await page.textContent('#stats'), '');
    assert.equal(await page.isEnabled('#copy'), false, 'nothing to copy');

    // Stop focused (by Tab) but not pressed: when the translation ends and Stop goes, the focus goes back to the text box.
    const focusedWhile = await page.evaluate(() => {
      document.getElementById('source').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true })); // (Ctrl+Enter)
      document.getElementById('stop').focus();
      return [document.body.dataset.state, document.activeElement.id].join(' '); // (in the same task: the translation cannot have ended)
    });
    assert.equal(focusedWhile, 'translating stop');
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: 60000 });
    assert.equal(await page.evaluate(() => document.activeElement.id), 'source');
    assert.deepEqual(problems, []);
  });
});
