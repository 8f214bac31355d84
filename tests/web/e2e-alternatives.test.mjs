/**
 * The word menu in Debian's Chromium and Firefox ESR (each case in both: tests/web/_browsers.mjs)
 * with the real WASM engine and the shipped models (or the fixture model): clicking a translated
 * word opens a menu of other words, most
 * probable first, the word now in the sentence listed and marked, each with a preview of how the
 * sentence goes on and the model's rating in words (no percentages); choosing one shows the whole
 * new sentence first, "Use this sentence" puts it in place (the output and the alignment card
 * follow, the other sentences stay) and Undo brings the old one back; and the same with the
 * keyboard only (Tab to the card, arrows, Enter, Escape), focus coming back to the word. Properties only: no
 * model's words are written down here. The site is built into test-results/ and served under a
 * sub-path, as tests/web/e2e.test.mjs does.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser, heavyCase, SharedPage } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);
const BASE = '/alternatives/';
const WORDLIKE = /[\p{L}\p{N}]/u;

let server;
let browser;

before(async () => {
  if (skip) return;
  const out = path.join(resultsDir(), 'web-dist-alternatives');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'],
    { stdio: 'inherit' });
  server = await startServer({ root: out, base: BASE });
});

after(async () => {
  if (server) await server.close();
});

/**
 * The page the cases share (restarted for each: SharedPage in _browsers.mjs) with the model loaded
 * and `input` translated; its errors are collected in `problems` (and fail the case at its end).
 */
const shared = new SharedPage();
async function translatedPage(t, input) {
  const page = await shared.get(t, browser, server.url, { viewport: { width: 1200, height: 900 } });
  await page.fill('#source', input);
  await waitDone(page);
  return { page, problems: shared.problems };
}

async function waitDone(page) {
  await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state) &&
    document.getElementById('target').getAttribute('aria-busy') === 'false', null, { timeout: 120000 });
  assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', await page.textContent('#error'));
}

/** Sentence `s`'s target text and its words, as the page drew them in the output. */
const sentence = (page, s) => page.evaluate((s) => {
  const sent = document.querySelector(`#target .sent[data-s="${s}"]`);
  return { text: sent.textContent, words: [...sent.querySelectorAll('.w')].map((w) => w.textContent) };
}, s);

/** The first word after the first one that has letters (so it has a prefix, and a menu). */
const pickWord = (words) => words.findIndex((w, i) => i > 0 && WORDLIKE.test(w));

/** The open menu's items: word, the rest it leads to, its rating, whether it is the word now there, whether focused. */
const menuItems = (page) => page.$$eval('#alt-menu [role="menuitem"]', (items) => items.map((i) => ({
  word: i.querySelector('.alt-word').textContent, rest: i.querySelector('.alt-rest').textContent, rating: i.querySelector('.alt-p').textContent,
  current: i.getAttribute('aria-current') === 'true', focused: document.activeElement === i,
})));

const RATINGS = ['the model’s choice', 'also likely', 'possible', 'unlikely', 'not among the model’s likeliest'];
const RANK = (rating) => RATINGS.indexOf(rating.replace(' · in your sentence now', ''));

/** The menu's items once filled, for the word `current` (followed in its sentence by `rest`). */
async function openMenuItems(page, current, rest) {
  await page.waitForSelector('#alt-menu[aria-busy="false"]', { timeout: 60000 });
  const items = await menuItems(page);
  assert.ok(items.length >= 2, `the menu offers words: ${JSON.stringify(items)}`);
  assert.equal(new Set(items.map((i) => i.word)).size, items.length, 'distinct words');
  assert.ok(items.every((i) => RANK(i.rating) >= 0), `ratings in words: ${JSON.stringify(items.map((i) => i.rating))}`);
  assert.equal(RANK(items[0].rating), 0, 'the first is the model\'s choice');
  const ranks = items.map((i) => RANK(i.rating));
  assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'most probable first');
  assert.doesNotMatch(await page.textContent('#alt-menu'), /%/, 'no raw percentages');
  const marked = items.filter((i) => i.current);
  assert.equal(marked.length, 1, `the word now in the sentence is listed once and marked: ${JSON.stringify(items)}`);
  if (current !== undefined) {
    assert.equal(marked[0].word, current);
    assert.match(marked[0].rating, / · in your sentence now$/);
    // (the model's choice previews its greedy continuation, which a beam's sentence may not share)
    if (RANK(marked[0].rating) === RATINGS.length - 1) assert.equal(marked[0].rest, rest, 'a word the model would not list previews the sentence as it is');
  }
  return items;
}

/** The text after word `w` of sentence `s` in the output, as drawn. */
const restAfter = (page, s, w) => page.evaluate(({ s, w }) => {
  const sent = document.querySelector(`#target .sent[data-s="${s}"]`);
  const range = document.createRange();
  range.setStartAfter(sent.querySelector(`.w[data-w="${w}"]`));
  range.setEndAfter(sent.lastChild);
  return range.toString();
}, { s, w });

/** After a choice: the preview of the whole new sentence, then "Use this sentence" (by click or Enter). */
async function useChoice(page, how = 'click') {
  await page.waitForSelector('#alt-preview', { timeout: 120000 });
  await page.waitForSelector('#alt-menu[aria-busy="false"]');
  const preview = await page.textContent('#alt-preview');
  const lang = await page.getAttribute('#target', 'lang');
  assert.deepEqual(await page.$$eval('#alt-preview, #alt-menu .alt-old', (els) => els.map((e) => e.closest('[lang]').lang)), [lang, lang], 'the sentences in the language of the translation');
  const use = await page.$$eval('#alt-menu [role="menuitem"]', (b) => b.map((x) => x.textContent));
  assert.deepEqual(use, ['Use this sentence', 'Keep the old one']);
  // A screen reader on an item hears the item only: each is described by the sentence it keeps.
  const described = await page.$$eval('#alt-menu [role="menuitem"]', (b) => b.map((x) => document.getElementById(x.getAttribute('aria-describedby'))?.textContent));
  assert.deepEqual(described, [preview, await page.textContent('#alt-menu .alt-old')]);
  if (how === 'click') await page.click('#alt-menu button:first-of-type');
  else {
    assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Use this sentence', 'focus is on "Use this sentence"');
    await page.keyboard.press('Enter');
  }
  return preview;
}

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { await shared.close(); if (browser) await browser.close(); browser = null; });
  const heavy = heavyCase(name, test); // (Chromium only unless NMT_ALL_BROWSERS=1: _browsers.mjs)

  test('clicking a translated word offers other words; choosing one re-translates the rest of its sentence', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await translatedPage(t, 'The house is small. It is very old.');
    const before0 = await sentence(page, 0);
    const before1 = await sentence(page, 1);
    const w = pickWord(before0.words);
    assert.ok(w > 0, JSON.stringify(before0));
    const rest = await restAfter(page, 0, w);
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    assert.equal(await page.getAttribute('#alt-menu', 'role'), 'menu');
    const items = await openMenuItems(page, before0.words[w], rest);
    assert.ok(items[0].focused, 'the first word has the focus');
    // The menu speaks English; its words are German, for a screen reader's voice too.
    const langs = await page.$$eval('#alt-menu .alt-word, #alt-menu .alt-rest, #alt-menu .alt-p', (els) => els.map((e) => `${e.className} ${e.closest('[lang]').lang}`));
    assert.deepEqual([...new Set(langs)].sort(), ['alt-p en', 'alt-rest de', 'alt-word de']);
    // The focused item's text is readable on its highlight (WCAG 1.4.3, 4.5:1), with the light
    // colours and with style.css's dark ones (its prefers-color-scheme: dark values) put on the page.
    for (const dark of [false, true]) {
      const ratios = await page.evaluate((dark) => {
        const rgba = (c) => { const p = /rgba?\(([^)]+)\)/.exec(c)[1].split(/[\s,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
        const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
        const lum = (c) => c.map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
        if (dark) {
          const rule = [...document.styleSheets].flatMap((s) => [...s.cssRules]).find((r) => r.media && /prefers-color-scheme:\s*dark/.test(r.media.mediaText));
          for (const name of rule.cssRules[0].style) document.documentElement.style.setProperty(name, rule.cssRules[0].style.getPropertyValue(name));
        }
        const item = document.activeElement;
        const layers = [];
        for (let n = item; n; n = n.parentElement) layers.push(rgba(getComputedStyle(n).backgroundColor));
        const bg = layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255]);
        const found = [...item.querySelectorAll('span')].filter((s) => s.textContent.trim()).map((s) => {
          const [a, b] = [lum(over(rgba(getComputedStyle(s).color), bg)), lum(bg)].sort((x, y) => y - x);
          return `${s.className} ${((a + 0.05) / (b + 0.05)).toFixed(2)}`;
        });
        if (dark) document.documentElement.removeAttribute('style');
        return found;
      }, dark);
      assert.ok(ratios.length >= 2 && ratios.every((r) => Number(r.split(' ')[1]) >= 4.5), `${dark ? 'dark' : 'light'} colours: ${ratios.join(', ')}`);
    }
    const choice = items.findIndex((i) => !i.current && i.word !== before0.words[w]);
    assert.ok(choice >= 0);
    // The prefix: the sentence up to the clicked word, as drawn.
    const prefix = await page.evaluate(({ w }) => {
      const sent = document.querySelector('#target .sent[data-s="0"]');
      const range = document.createRange();
      range.setStartBefore(sent.firstChild);
      range.setEndBefore(sent.querySelector(`.w[data-w="${w}"]`));
      return range.toString();
    }, { w });
    await page.click(`#alt-menu [role="menuitem"]:nth-child(${choice + 1})`);
    const preview = await useChoice(page, 'click');
    assert.ok(preview.startsWith(prefix + items[choice].word), `the preview ${JSON.stringify(preview)} starts with the prefix and the chosen word`);
    assert.equal(await page.$('#alt-menu'), null, 'the menu closes');
    await waitDone(page);
    const after0 = await sentence(page, 0);
    assert.equal(after0.text, preview, 'the sentence put in place is the one previewed');
    assert.equal(after0.words[w], items[choice].word, 'the chosen word is a word of the new sentence');
    // the status live region says so (it was left empty: a screen reader heard nothing)
    assert.equal(await page.textContent('#status'), `Sentence 1 translated again with “${items[choice].word.trim()}”.`);
    assert.deepEqual(await page.$$eval('#status [lang]', (els) => els.map((e) => `${e.lang} ${e.textContent}`)), [`de ${items[choice].word.trim()}`], 'the word in German');
    assert.deepEqual(await sentence(page, 1), before1, 'the other sentence stays');
    assert.equal(await page.textContent('#align-target'), after0.text, 'the alignment card shows the new sentence');
    const target = await page.textContent('#target');
    assert.equal(target.trim(), `${after0.text} ${before1.text}`);
    // Undo brings the old sentence back, and goes.
    assert.equal(await page.isVisible('#undo-choice'), true, 'Undo is offered');
    await page.click('#undo-choice');
    assert.deepEqual(await sentence(page, 0), before0, 'Undo: the old sentence is back');
    assert.equal(await page.isVisible('#undo-choice'), false);
    assert.equal(await page.textContent('#align-target'), before0.text);
    // choose it again, for what follows
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    await openMenuItems(page, before0.words[w], rest);
    await page.click(`#alt-menu [role="menuitem"]:nth-child(${choice + 1})`);
    assert.equal(await useChoice(page, 'click'), preview, 'the same choice previews the same sentence');
    await waitDone(page);
    // Hovering a word of the new sentence highlights its aligned source words.
    await page.hover(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#align-source .w.hl').length > 0);
    // A click elsewhere closes an open menu.
    await page.click(`#target .sent[data-s="1"] .w[data-w="${pickWord(before1.words)}"]`);
    await page.waitForSelector('#alt-menu');
    await page.click('h1');
    assert.equal(await page.$('#alt-menu'), null);
    await page.screenshot({ path: path.join(resultsDir(), 'web-alternatives.png') });
    // Clear: no sentence is left for Undo to bring back, so it goes.
    assert.equal(await page.isVisible('#undo-choice'), true);
    await page.click('#clear');
    await page.waitForFunction(() => document.body.dataset.state === 'idle');
    assert.equal(await page.isVisible('#undo-choice'), false, 'no Undo once the box is emptied');
    // A menu opened on a word while a newer text is being translated goes when that translation replaces the word.
    await page.fill('#source', 'The house is small.');
    await waitDone(page);
    const old = await sentence(page, 0);
    const newer = 'The garden is very old.';
    // (typed, then the click, in one task: the click lands on the old translation whatever the machine's speed)
    await page.evaluate(({ newer, w }) => {
      const source = document.getElementById('source');
      source.value = newer;
      source.dispatchEvent(new Event('input', { bubbles: true }));
      document.querySelector(`#target .sent[data-s="0"] .w[data-w="${w}"]`).click();
    }, { newer, w: pickWord(old.words) });
    await page.waitForSelector('#alt-menu');
    assert.equal(await page.getAttribute('#alt-menu', 'aria-label'), `Other words for “${old.words[pickWord(old.words)]}”`, 'the menu opened on the old translation');
    await page.waitForFunction((length) => document.body.dataset.state === 'done' && document.getElementById('target').dataset.inputLength === String(length),
      newer.length, { timeout: 120000 });
    assert.equal(await page.$('#alt-menu'), null, 'no menu about a word no longer shown');
    assert.deepEqual(problems, []);
  });

  heavy('the word menu with the keyboard only: Enter opens, arrows move, Escape closes, focus comes back', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await translatedPage(t, 'My sister bought a new car yesterday.');
    const before = await sentence(page, 0);
    const w = pickWord(before.words);
    // Tab to the alignment card's target words, then along them with →.
    for (let i = 0; i < 60 && !(await page.evaluate(() => !!document.activeElement.closest('#align-target'))); i++) {
      await page.keyboard.press('Tab');
    }
    assert.ok(await page.evaluate(() => !!document.activeElement.closest('#align-target')), 'Tab reaches the card\'s target words');
    for (let i = 0; i < w; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.w), String(w));
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-haspopup')), 'menu', 'the word says it opens a menu');
    await page.keyboard.press('Enter');
    const items = await openMenuItems(page, before.words[w]);
    assert.ok(items[0].focused);
    assert.equal(await page.getAttribute(`#align-target .w[data-w="${w}"]`, 'aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    assert.ok((await menuItems(page))[1].focused, '↓ moves to the next word');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    assert.ok((await menuItems(page)).at(-1).focused, '↑ from the first wraps to the last');
    await page.keyboard.press('Escape');
    assert.equal(await page.$('#alt-menu'), null, 'Escape closes the menu');
    assert.equal(await page.getAttribute(`#align-target .w[data-w="${w}"]`, 'aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#align-target') && document.activeElement.dataset.w), String(w),
      'focus is back on the word');
    assert.equal((await sentence(page, 0)).text, before.text, 'nothing changed');

    await page.keyboard.press(' ');
    const again = await openMenuItems(page, before.words[w]);
    const choice = again.findIndex((i) => !i.current && i.word !== before.words[w]);
    for (let i = 0; i < choice; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    assert.equal((await sentence(page, 0)).text, before.text, 'the old sentence stays while the new one is previewed');
    await useChoice(page, 'Enter');
    await waitDone(page);
    const after = await sentence(page, 0);
    assert.equal(after.words[w], again[choice].word, `the chosen word is in place: ${after.text}`);
    assert.deepEqual(after.words.slice(0, w), before.words.slice(0, w), 'the words before it stay');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#align-target') && document.activeElement.textContent),
      again[choice].word, 'focus is on the chosen word on the card');
    // Undo by keyboard: the button goes, and the focus goes back to the word, not to nowhere.
    await page.focus('#undo-choice');
    await page.keyboard.press('Enter');
    assert.equal((await sentence(page, 0)).text, before.text, 'Undo: the old sentence is back');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#align-target') && document.activeElement.dataset.w), String(w),
      'focus is on the word again');
    assert.deepEqual(problems, []);
  });

  test('the word menu says a failure aloud: its line is a live region, the focus being on the menu', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await translatedPage(t, 'My sister bought a new car yesterday.');
    const w = pickWord((await sentence(page, 0)).words);
    // The page's translator fails as an engine that stopped would (the page's own modules, imported again: the same instances).
    const fail = (method) => page.evaluate(async (method) => {
      const { state } = await import(new URL('app/state.js', document.baseURI).href);
      for (const translator of state.translators.values()) (await translator)[method] = () => Promise.reject(new Error('the engine stopped'));
    }, method);
    const said = () => page.evaluate(() => {
      const line = [...document.querySelectorAll('#alt-menu .alt-status')].find((p) => /stopped/.test(p.textContent));
      return line ? `${line.closest('[role="status"], [role="alert"], [aria-live]')?.getAttribute('role')}: ${line.textContent}` : null;
    });
    // writing the sentence with a chosen word fails
    await page.focus(`#align-target .w[data-w="${w}"]`);
    await page.keyboard.press('Enter');
    const items = await openMenuItems(page);
    await fail('translate');
    await page.keyboard.press('ArrowDown');
    assert.ok(items.length >= 2);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /stopped/.test(document.getElementById('alt-menu')?.textContent), null, { timeout: 60000 });
    assert.equal(await said(), 'status: Could not write it: the engine stopped');
    await page.keyboard.press('Escape');
    // finding the other words fails
    await fail('alternatives');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /stopped/.test(document.getElementById('alt-menu')?.textContent), null, { timeout: 60000 });
    assert.equal(await said(), 'status: No alternatives: the engine stopped');
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.w), String(w), 'Escape gives the focus back to the word');
    assert.deepEqual(problems, []);
  });

  heavy('the keyboard focus stays on the output when a new translation closes the word menu, hides Undo or turns Copy off', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await translatedPage(t, 'The house is small.');
    const focused = () => page.evaluate(() => (document.activeElement === document.body ? 'the page body'
      : document.activeElement.closest('#alt-menu') ? 'the menu' : document.activeElement.id || document.activeElement.outerHTML.slice(0, 40)));
    // a new text translated at once (Ctrl+Enter from the box's key handler): the focus stays where it is
    const translateAgain = async (text) => {
      await page.evaluate((text) => {
        const source = document.getElementById('source');
        source.value = text;
        source.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
      }, text);
      await waitDone(page);
      await page.waitForFunction((length) => document.getElementById('target').dataset.inputLength === String(length), text.length);
    };
    // the word menu, closed with the output it was opened on
    const words = (await sentence(page, 0)).words;
    const w = pickWord(words);
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    const items = await openMenuItems(page, words[w]);
    assert.equal(await focused(), 'the menu');
    // (a resized window closes the menu: the focus goes back to its word)
    await page.evaluate(() => window.dispatchEvent(new Event('resize')));
    assert.equal(await page.$('#alt-menu'), null);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.w), String(w), 'resized: the focus is on the word');
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    await openMenuItems(page, words[w]);
    await translateAgain('The house is small.');
    assert.equal(await page.$('#alt-menu'), null);
    assert.equal(await focused(), 'target', 'the menu: the focus is on the output');
    // the menu writing the sentence with a chosen word when a new translation starts: its answer is dropped, and the menu goes
    const now = (await sentence(page, 0)).words;
    await page.click(`#target .sent[data-s="0"] .w[data-w="${pickWord(now)}"]`);
    const choices = await openMenuItems(page, now[pickWord(now)]);
    await page.evaluate((n) => {
      document.querySelectorAll('#alt-menu [role="menuitem"]')[n].click();
      const source = document.getElementById('source');
      source.value = 'The house is small!';
      source.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true }));
    }, choices.findIndex((i) => !i.current));
    await waitDone(page);
    await page.waitForFunction(() => document.getElementById('target').dataset.inputLength === '19' && !document.getElementById('alt-menu'));
    assert.equal(await focused(), 'target', 'a choice overtaken: the focus is on the output');
    // Undo, hidden by the new translation (it has nothing to undo then)
    const again = (await sentence(page, 0)).words;
    await page.click(`#target .sent[data-s="0"] .w[data-w="${pickWord(again)}"]`);
    const offered = await openMenuItems(page, again[pickWord(again)]);
    const choice = offered.findIndex((i) => !i.current);
    await page.click(`#alt-menu [role="menuitem"]:nth-child(${choice + 1})`);
    await useChoice(page, 'click');
    await waitDone(page);
    await page.focus('#undo-choice');
    await translateAgain('The garden is big.');
    assert.equal(await page.isVisible('#undo-choice'), false);
    assert.equal(await focused(), 'target', 'Undo: the focus is on the output');
    // Copy, turned off while the other direction's translation replaces this one (Alt+S swaps)
    await page.focus('#copy');
    await page.keyboard.down('Alt');
    await page.keyboard.press('s');
    await page.keyboard.up('Alt');
    await waitDone(page);
    assert.equal(await page.inputValue('#direction'), 'de-en');
    assert.ok(['copy', 'target'].includes(await focused()), `Copy: the focus is on ${await focused()}`);
    assert.ok(items.length >= 2);
    assert.deepEqual(problems, []);
  });

  heavy('after a chosen word, the heatmap\'s layers and heads are those of the new translation, not the old one', { skip, timeout: 240000 }, async (t) => {
    const { page, problems } = await translatedPage(t, 'The house is small.');
    await page.click('#attention summary');
    await page.waitForFunction(() => / heads$/.test(document.getElementById('heat-status').textContent), null, { timeout: 60000 });
    const before = await sentence(page, 0);
    const w = pickWord(before.words);
    await page.click(`#target .sent[data-s="0"] .w[data-w="${w}"]`);
    const items = await openMenuItems(page, before.words[w]);
    const choice = items.findIndex((i) => !i.current && i.word !== before.words[w]);
    assert.ok(choice >= 0);
    await page.click(`#alt-menu [role="menuitem"]:nth-child(${choice + 1})`);
    await useChoice(page, 'click');
    await waitDone(page);
    const after = await sentence(page, 0);
    assert.equal(after.words[w], items[choice].word);
    // The heads are asked for again, for the sentence as it is now (from the same prefix).
    await page.waitForFunction(() => / heads$/.test(document.getElementById('heat-status').textContent) &&
      document.getElementById('head-select').options.length > 1, null, { timeout: 60000 });
    const rowsOf = async (value) => {
      await page.selectOption('#head-select', value);
      const label = await page.getAttribute('#heatmap', 'aria-label');
      const m = /Translation: (.*)\.$/.exec(label);
      assert.ok(m, label);
      return m[1].split(' | ');
    };
    const mean = await rowsOf('mean');
    assert.ok(mean.includes(items[choice].word), `the average's rows are the new translation's words: ${mean}`);
    const values = await page.$$eval('#head-select option', (os) => os.map((o) => o.value).filter((v) => v !== 'mean' && v !== 'links'));
    for (const v of values) assert.deepEqual(await rowsOf(v), mean, `layer/head ${v} labels the rows with the translation shown`);
    // the word links: the same words, without the end-of-sentence row
    assert.deepEqual(await rowsOf('links'), mean.filter((w) => w !== 'end of sentence'), 'the word links label the rows with the translation shown');
    assert.deepEqual(problems, []);
  });
});
