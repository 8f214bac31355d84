/**
 * The demo page as a newcomer meets it (issue 27, item 5), in Debian's Chromium and Firefox ESR
 * (tests/web/_browsers.mjs) with the real WASM engine and the shipped models (or the fixture model
 * before they exist): "About the models" is a
 * short card with the size, the data, the licence and the scores next to the peers' (the raw
 * provenance only behind "Technical details"); plain labels with the technical term in a tooltip;
 * the heatmap labelled with words; the source words highlighted in the text box itself; touch
 * hints on a phone; one download total from the start; no space before punctuation on the card;
 * no highlight left behind once focus or the mouse moves on.
 *
 * The site is built into test-results/web-dist-newcomer (its own folder: node --test may run this
 * file beside e2e.test.mjs) and served under a sub-path as deployed.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser, canEmulateTouch, heavyCase, serveSite, openPage as openSitePage, SharedPage, translate } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);
const shipped = testManifest().shipped;
const DESKTOP = { viewport: { width: 1200, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let site;
let server;
let browser;

before(async () => {
  if (skip) return;
  ({ site, server } = await serveSite('newcomer'));
});

after(async () => {
  if (server) await server.close();
});

const builtJson = (rel) => JSON.parse(readFileSync(path.join(site, rel), 'utf8'));
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;

/** A fresh context (no cache, no service worker) whose page errors fail the test; the page, model loaded. */
const openPage = (t, options = DESKTOP, init) => openSitePage(t, browser, server.url, options, init);
/** The desktop page the cases share that need no fresh profile: restarted for each (_browsers.mjs). */
const shared = new SharedPage();
const desktopPage = (t) => shared.get(t, browser, server.url, DESKTOP);

/** What the text box's mirror shows: its marks (text, offset, kind) and whether its box matches the textarea's. */
const mirrorState = (page) => page.evaluate(() => {
  const m = document.getElementById('source-mirror');
  const t = document.getElementById('source');
  const ms = getComputedStyle(m);
  const ts = getComputedStyle(t);
  const mr = m.getBoundingClientRect();
  const tr = t.getBoundingClientRect();
  return {
    marks: [...m.querySelectorAll('mark')].map((k) => {
      const r = k.getBoundingClientRect();
      return { text: k.textContent, start: Number(k.dataset.start), kind: k.className, w: Number(k.style.getPropertyValue('--w')),
        inside: r.width > 0 && r.left >= tr.left && r.right <= tr.right + 0.5 && r.top >= tr.top && r.bottom <= tr.bottom + 0.5, background: getComputedStyle(k).backgroundColor };
    }),
    text: m.textContent.replace(/\u200b$/, ''),
    value: t.value,
    same: ['fontFamily', 'fontSize', 'lineHeight', 'paddingTop', 'paddingLeft', 'paddingRight', 'whiteSpace', 'overflowWrap', 'letterSpacing']
      .filter((k) => ms[k] !== ts[k]).map((k) => `${k}: ${ms[k]} vs ${ts[k]}`),
    box: { left: mr.left - tr.left, top: mr.top - tr.top, width: mr.width - t.clientWidth, height: mr.height - t.clientHeight },
    scroll: [m.scrollTop, t.scrollTop],
    textareaBackground: ts.backgroundColor,
    mirrorBehind: Number(ms.zIndex) < Number(ts.zIndex),
  };
});

const highlighted = (page) => page.evaluate(() => ({
  words: document.querySelectorAll('.w.hl, .w.self').length,
  marks: document.querySelectorAll('#source-mirror mark').length,
  detail: document.getElementById('align-detail').textContent,
}));

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { await shared.close(); if (browser) await browser.close(); browser = null; });
  const heavy = heavyCase(name, test); // (Chromium only unless NMT_ALL_BROWSERS=1: _browsers.mjs)

  heavy('About the models: a short card with size, data, licence and the scores next to the peers\', raw provenance only under Technical details', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    await page.click('#model-info > summary');
    await page.waitForFunction(() => document.getElementById('about-facts').children.length > 0, null, { timeout: 30000 });
    const about = builtJson('models/about.json');
    const manifest = builtJson('models/manifest.json');

    // Size: from the manifest, not written into the page by hand.
    const size = await page.textContent('#about-size');
    const sizes = [...new Set(manifest.models.map((m) => mb(m.bytes)))];  // one size, or each distinct one
    assert.ok(size.startsWith(`${sizes.join(' / ')} per direction`), size);
    const facts = await page.textContent('#about-facts');
    assert.ok(facts.includes(`First download${mb(manifest.engine.wasm.bytes + manifest.models[0].bytes)}`), facts);

    // No raw JSON in what is shown; the provenance is drawn only when "Technical details" is opened.
    const visible = await page.evaluate(() => document.getElementById('model-info').innerText);
    assert.doesNotMatch(visible, /[{}]|"train"|valid_nll|history/, 'no raw JSON visible');
    assert.equal(await page.evaluate(() => document.getElementById('model-provenance').childElementCount), 0);
    const height = await page.evaluate(() => document.getElementById('model-info').getBoundingClientRect().height);
    // Short: the facts, the scores and the limitations with one example each (card.json) at desktop width.
    assert.ok(height < 1700, `the open card is ${Math.round(height)} px tall`);

    if (shipped) {
      const scores = Object.fromEntries(['en-de', 'de-en'].map((d) => [d, JSON.parse(readFileSync(path.join(ROOT, `weights/${d}/scores.json`), 'utf8'))]));
      const { peers, shipped: cardShipped } = JSON.parse(readFileSync(path.join(ROOT, 'weights/card.json'), 'utf8'));
      assert.match(size, new RegExp(`${(cardShipped['en-de'].parameters / 1e6).toFixed(1)} M parameters`), 'the parameter count comes from card.json');
      // The scores table: ours as evaluate.py measured them (scores.json, via card.json), the peers' from card.json, same set, each direction.
      const table = await page.$$eval('#about-scores tr', (rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim())));
      const heads = table[0];
      const dirs = heads.slice(1).map((h) => (h === 'English → German' ? 'en-de' : h === 'German → English' ? 'de-en' : h));
      assert.deepEqual([...dirs].sort(), ['de-en', 'en-de']);
      const ours = table.find((r) => r[0] === 'This translator');
      assert.deepEqual(ours.slice(1), dirs.map((d) => scores[d].sets['flores-dev'].int8_beam4.bleu.toFixed(1)));
      for (const p of peers.systems) {
        const row = table.find((r) => r[0] === p.name);
        assert.ok(row, `a row for ${p.name}`);
        assert.deepEqual(row.slice(1), dirs.map((d) => p.scores[d].toFixed(1)));
      }
      assert.ok(table.length >= 4, 'ours and at least two peers');
      assert.match(await page.textContent('#about-scores caption'), /BLEU on FLORES dev \(997 sentences of Wikipedia-style prose\)/);
      assert.equal(peers.set, 'flores-dev', 'the peers were scored on the set the table names');
      // Where the numbers come from, with a link to the peers' source.
      const sources = await page.textContent('#about-sources');
      assert.match(sources, /ours from weights\/card\.json /);
      assert.equal(await page.getAttribute('#about-sources a', 'href'), peers.source.url);
      const tatoeba = dirs.map((d) => `${scores[d].sets['tatoeba-dev'].int8_beam4.bleu.toFixed(1)} \\(${d === 'en-de' ? 'English → German' : 'German → English'}\\)`).join(' and ');
      assert.match(await page.textContent('#about-scores-more'), new RegExp(`^On easier text it does better: ${tatoeba} on short everyday sentences \\(Tatoeba dev\\)`));
      // What it was trained on, and the licence, read from the card.
      const pairs = about.card.data.filter((d) => !d.synthetic).reduce((n, d) => n + d.pairs, 0);
      assert.ok(pairs > 100000, `${pairs} pairs in the card's data table`);
      assert.match(await page.textContent('#about-data-summary'), new RegExp(`^${pairs.toLocaleString('en')} English–German sentence pairs from \\d+ public sources \\(share of the text: news \\d+%`));
      assert.match(await page.textContent('#about-licence'), /^Models: .*non-commercial.* Code: MIT\.$/);
      assert.equal(await page.$$eval('#about-data-table tbody tr', (rows) => rows.length), about.card.data.length);
      // What they get wrong: card.json's limitations (via about.json), as text, each example's two
      // sides marked with their language.
      const limits = about.card.limitations;
      assert.ok(limits.items.length >= 5, 'the card\'s limitations reach the page');
      assert.equal(await page.textContent('#about-limits-summary'), limits.summary);
      const shown = await page.$$eval('#about-limits li', (lis) => lis.map((li) => ({
        text: li.textContent,
        tags: [...li.querySelectorAll('*')].map((n) => n.tagName.toLowerCase()).join(' '),
        langs: [...li.querySelectorAll('[lang]')].map((n) => n.lang).join(' '),
      })));
      assert.deepEqual(shown, limits.items.map(({ title, text, example: ex }) => ({
        text: `${title}. ${text} “${ex.source}” → “${ex.output}” (${ex.wrong}).`,
        tags: 'strong span span span',
        langs: `${ex.from} ${ex.to}`,
      })));
    } else {
      assert.equal(await page.textContent('#about-scores-more'), 'No scores: this build uses a test model.');
      assert.equal(await page.isHidden('#about-limits'), true, 'no card.json, no list: only the fixed sentence');
    }
    assert.match(await page.textContent('#model-info'), /What they get wrong/);

    // Technical details: the loaded model's shape and, once opened, its raw provenance.
    await page.click('#model-details > summary');
    assert.match(await page.textContent('#model-dl'), /English → German.*Transformer: \d+ encoder and \d+ decoder layers/);
    await page.waitForSelector('#model-provenance pre');
    assert.match(await page.textContent('#model-provenance pre'), /^\{/);
  });

  heavy('plain labels: Fast / Careful / Best, with the technical term (greedy, beam search of 4) in the tooltip; no jargon shown', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    const options = await page.$$eval('#beam option', (os) => os.map((o) => ({ value: o.value, text: o.textContent, title: o.title })));
    assert.deepEqual(options.map((o) => o.text), ['Fast', 'Careful', 'Best (checked both ways)']);
    assert.match(options[0].title, /^greedy search/);
    assert.match(options[1].title, /^beam search, 4 hypotheses/);
    assert.match(options[2].title, /^beam search, 4 hypotheses, reranked by the reverse model/);
    assert.equal(await page.textContent('label[for="beam"]'), 'Quality');
    assert.match(await page.getAttribute('#beam', 'title'), /^beam search, 4 hypotheses/, 'the menu\'s tooltip names the chosen option\'s term');
    await page.selectOption('#beam', '1');
    assert.match(await page.getAttribute('#beam', 'title'), /^greedy search/);
    assert.match(await page.getAttribute('#align-title', 'title'), /^word alignment/);

    await translate(page, 'The unbelievably small house is near the station.');
    assert.match(await page.textContent('#stats'), /^1 sentence in \d+ ms$/);
    await page.click('#attention summary');
    await page.waitForFunction(() => Number(document.getElementById('heatmap').dataset.cols) > 0);
    const shown = await page.evaluate(() => document.body.innerText);
    for (const jargon of [/greedy/i, /beam of/i, /\btokens?\b/i, /▁/, /<\/s>/, /mean of heads/i]) {
      assert.doesNotMatch(shown, jargon, `no ${jargon} on the page`);
    }
  });

  heavy('the heatmap is labelled with words: pieces merged, "end of sentence" named, no ▁ or </s>', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    await translate(page, 'The unbelievably small house is near the station.');
    await page.click('#attention summary');
    await page.waitForFunction(() => Number(document.getElementById('heatmap').dataset.cols) > 0);
    const info = await page.evaluate(() => {
      const label = document.getElementById('heatmap').getAttribute('aria-label');
      const [, cols, rows] = /Your text: (.*)\. Translation: (.*)\.$/.exec(label);
      return {
        label, cols: cols.split(' | '), rows: rows.split(' | '),
        sourceWords: [...document.querySelectorAll('#align-source .w')].map((w) => w.textContent),
        targetWords: [...document.querySelectorAll('#align-target .w')].map((w) => w.textContent),
      };
    });
    assert.doesNotMatch(info.label, /▁|<\/s>/);
    // Every column is one of the input's words (or several joined by one piece), in order, then the end.
    assert.equal(info.cols.at(-1), 'end of sentence');
    assert.equal(info.rows.at(-1), 'end of sentence');
    assert.equal(info.cols.slice(0, -1).join(''), info.sourceWords.join(''), `columns ${info.cols.join('|')} vs words ${info.sourceWords.join('|')}`);
    assert.equal(info.rows.slice(0, -1).join(''), info.targetWords.join(''), `rows ${info.rows.join('|')} vs words ${info.targetWords.join('|')}`);
    assert.ok(info.cols.includes('unbelievably'), `a word of several pieces is one column: ${info.cols.join('|')}`);
    // Reading a cell says it in words.
    const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await page.focus('#heatmap'); // focus itself reads the first cell, where the arrow keys start
    assert.match(await page.textContent('#heat-cell'), new RegExp(`^writing “${esc(info.rows[0])}”, the model looked at “${esc(info.cols[0])}”: \\d\\.\\d{3}$`));
    await page.keyboard.press('ArrowRight');
    assert.match(await page.textContent('#heat-cell'), new RegExp(`^writing “${esc(info.rows[0])}”, the model looked at “${esc(info.cols[1])}”: \\d\\.\\d{3}$`));
  });

  test('the source words light up in the text box itself (a mirror behind the textarea), and go when the text changes', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    const input = 'My sister reads a book. The old man sits in the garden.';
    await translate(page, input);
    let s = await mirrorState(page);
    assert.equal(s.marks.length, 0, 'nothing marked before a hover');
    // Hover a word of the second sentence in the output: its aligned words are marked in the text box.
    await page.hover('#target .sent[data-s="1"] .w >> nth=2');
    await page.waitForFunction(() => document.querySelectorAll('#source-mirror mark').length > 0);
    s = await mirrorState(page);
    assert.deepEqual(s.same, [], 'the mirror has the textarea\'s font, padding and wrapping');
    assert.deepEqual(s.box, { left: 0, top: 0, width: 0, height: 0 }, 'the mirror covers the textarea\'s text area exactly');
    assert.ok(s.mirrorBehind, 'the mirror is behind the textarea');
    assert.equal(s.textareaBackground, 'rgba(0, 0, 0, 0)', 'the textarea is transparent, so the marks show through');
    assert.equal(s.text, s.value, 'the mirror holds the same text');
    const second = input.indexOf('The old');
    for (const k of s.marks) {
      assert.equal(input.slice(k.start, k.start + k.text.length), k.text, 'each mark is at its word in the text');
      assert.ok(k.start >= second, `a word of the hovered sentence: ${k.text}`);
      assert.ok(k.inside, `the mark "${k.text}" is drawn inside the text box`);
    }
    const cardMarked = await page.$$eval('#align-source .w.hl', (els) => els.map((e) => e.textContent));
    assert.deepEqual(s.marks.map((k) => k.text).sort(), [...cardMarked].sort(), 'the same words as the card');
    const strongest = s.marks.reduce((a, b) => (b.w > a.w ? b : a));
    assert.equal(strongest.w, 1);
    assert.notEqual(strongest.background, 'rgba(0, 0, 0, 0)');
    // A source word on the card marks itself in the text box.
    await page.hover('#align-source .w >> nth=1');
    s = await mirrorState(page);
    assert.equal(s.marks.length, 1);
    assert.match(s.marks[0].kind, /self/);
    assert.equal(s.marks[0].text, await page.textContent('#align-source .w >> nth=1'));
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-source-highlight.png') });
    // Typing drops the marks at once.
    await page.focus('#source');
    await page.keyboard.press('End');
    await page.keyboard.type(' Yes');
    assert.equal((await mirrorState(page)).marks.length, 0);

    // A long text that scrolls: the mirror scrolls with the textarea.
    const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} is here.`).join('\n');
    await translate(page, long);
    await page.evaluate(() => { document.getElementById('source').scrollTop = 400; });
    const last = await page.$$eval('#target .sent', (els) => els.length - 1);
    await page.hover(`#target .sent[data-s="${last - 3}"] .w >> nth=0`);
    s = await mirrorState(page);
    assert.ok(s.marks.length > 0);
    assert.ok(s.scroll[1] > 0 && s.scroll[0] === s.scroll[1], `scrolled together: ${s.scroll}`);
  });

  // (Chromium only: Firefox ESR over WebDriver BiDi has no touch emulation, and headless it reports
  // no pointer at all, `(hover: none)`, so its desktop page shows the touch hints too.)
  if (canEmulateTouch(name)) test('phone: touch hints ("Tap a word", no Hover or Ctrl+Enter), a tap highlights in the text box', { skip, timeout: 120000 }, async (t) => {
    const desktop = await desktopPage(t);
    assert.equal(await desktop.evaluate(() => document.documentElement.dataset.input), 'pointer');
    assert.equal(await desktop.innerText('#source-hint'), 'Translates as you type · Ctrl+Enter translates now');
    const desktopHint = await desktop.innerText('#align-hint');
    assert.match(desktopHint, /^Hover over or focus a word \(arrow keys move/);
    assert.match(desktopHint, /For other words the model considered, click a translated word or press Enter on it\.$/);

    const page = await openPage(t, PHONE);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.input), 'touch');
    assert.equal(await page.innerText('#source-hint'), 'Translates as you type');
    const hint = await page.innerText('#align-hint');
    assert.match(hint, /^Tap a word to see the words it matches, here and in your text/);
    assert.match(hint, /For other words the model considered, tap a translated word\.$/);
    const visible = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(visible, /Hover|[Cc]lick|Ctrl\+Enter|arrow keys|press Enter/, 'no mouse or keyboard hints on a phone');
    await translate(page, 'The old man reads a book in the garden.');
    await page.tap('#target .w >> nth=1');
    await page.waitForFunction(() => document.querySelectorAll('#source-mirror mark').length > 0);
    const s = await mirrorState(page);
    assert.deepEqual(s.same, []);
    assert.ok(s.marks.every((k) => k.inside), 'the marks are inside the text box');
    assert.equal(s.text, s.value);
    assert.ok((await highlighted(page)).words > 0, 'the tap pinned the highlight');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `nothing overflows: ${width}`);
    await page.screenshot({ path: path.join(resultsDir(), 'web-demo-phone-highlight.png'), fullPage: true });
    // Tapping elsewhere lets go.
    await page.tap('.app-header');
    assert.deepEqual(await highlighted(page), { words: 0, marks: 0, detail: '' });
    // The heatmap: a tap on a cell reads it in words.
    await page.tap('#attention summary');
    await page.waitForFunction(() => Number(document.getElementById('heatmap').dataset.cols) > 0);
    await page.locator('#heatmap').scrollIntoViewIfNeeded();
    const again = await page.evaluate(() => {
      const c = document.getElementById('heatmap');
      const r = c.getBoundingClientRect();
      const [left, top, cell] = c.dataset.grid.split(' ').map(Number);
      return { x: r.left + left + cell * 1.5, y: r.top + top + cell * 0.5 };
    });
    await page.touchscreen.tap(again.x, again.y);
    assert.match(await page.textContent('#heat-cell'), /^writing “.+”, the model looked at “.+”: \d\.\d{3}$/);
  });

  test('no highlight is left behind: keyboard focus moving on, the mouse leaving', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    await translate(page, 'The old man reads a book in the garden.');
    // Keyboard: focus a word on the card, it lights up; Tab away, it goes.
    await page.focus('#align-target .w >> nth=0');
    let h = await highlighted(page);
    assert.ok(h.words > 1 && h.marks > 0 && h.detail, `focused: ${JSON.stringify(h)}`);
    await page.keyboard.press('ArrowRight');
    h = await highlighted(page);
    assert.ok(h.words > 1 && h.marks > 0, 'moving between words keeps a highlight');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('#align-source, #align-target')), false, 'focus left the card');
    assert.deepEqual(await highlighted(page), { words: 0, marks: 0, detail: '' }, 'the highlight went with the focus');
    // Shift+Tab back onto the card and away the other way.
    await page.focus('#align-source .w >> nth=2');
    assert.ok((await highlighted(page)).words > 0);
    await page.focus('#source');
    assert.deepEqual(await highlighted(page), { words: 0, marks: 0, detail: '' });
    // Mouse: hover a word, then leave the output pane without passing another word.
    const box = await page.locator('#target .w >> nth=1').boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    assert.ok((await highlighted(page)).words > 0);
    await page.mouse.move(box.x + box.width / 2, box.y - 40, { steps: 2 }); // up, out of the pane
    assert.deepEqual(await highlighted(page), { words: 0, marks: 0, detail: '' });
  });

  heavy('the download total is one number from the start (engine and model sizes known up front)', { skip, timeout: 120000 }, async (t) => {
    const page = await openPage(t, DESKTOP, () => {
      window.__details = [];
      document.addEventListener('DOMContentLoaded', () => {
        const detail = document.getElementById('load-detail');
        new MutationObserver(() => window.__details.push(detail.textContent)).observe(detail, { childList: true, characterData: true, subtree: true });
      });
    });
    const manifest = builtJson('models/manifest.json');
    const first = manifest.models.find((m) => m.from === 'en' && m.to === 'de');
    const expected = mb(manifest.engine.wasm.bytes + first.bytes);
    const details = await page.evaluate(() => window.__details);
    const totals = [...new Set(details.map((d) => /of (.+)$/.exec(d)).filter(Boolean).map((m) => m[1]))];
    assert.deepEqual(totals, [expected], `the page showed: ${[...new Set(details)].join(' | ')}`);
    // The module's progress reports: total is 0 until every size is known, then never changes.
    const reports = await page.evaluate(async () => {
      const { Translator } = await import('./translator.js');
      const seen = [];
      const tr = await Translator.create({ from: 'de', to: 'en', onProgress: (p) => seen.push([p.phase, p.loaded, p.total]) });
      tr.dispose();
      return seen;
    });
    const other = manifest.models.find((m) => m.from === 'de' && m.to === 'en');
    const downloads = reports.filter(([phase]) => phase === 'download');
    assert.ok(downloads.length >= 2, JSON.stringify(reports));
    const known = [...new Set(downloads.map(([, , total]) => total).filter((x) => x > 0))];
    assert.deepEqual(known, [manifest.engine.wasm.bytes + other.bytes], JSON.stringify(downloads));
    assert.equal(downloads[0][2], known[0], 'known from the first report');
  });

  test('the card puts no space before punctuation: word spans add no width, the row reads as typed', { skip, timeout: 120000 }, async (t) => {
    const page = await desktopPage(t);
    const input = 'The dog\'s ball; 3.5 km! Really?';
    await translate(page, input);
    const rows = await page.evaluate(() => {
      const measure = (row) => {
        const words = [...row.querySelectorAll('.w')];
        const range = document.createRange();
        range.selectNodeContents(row);
        const drawn = range.getBoundingClientRect().width;
        // The same characters as one plain run of text in the row's font: what the row should measure.
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'pre';
        probe.textContent = row.textContent;
        row.append(probe);
        const plain = probe.getBoundingClientRect().width;
        probe.remove();
        return { text: row.textContent, plain, drawn, punct: words.filter((w) => /^\p{P}+$/u.test(w.textContent)).length };
      };
      return [measure(document.getElementById('align-source')), measure(document.getElementById('align-target'))];
    });
    assert.ok(input.startsWith(rows[0].text), `the card's source row is the typed sentence: ${rows[0].text}`);
    for (const r of rows) {
      assert.ok(r.punct >= 1, `punctuation in "${r.text}"`);
      assert.ok(Math.abs(r.drawn - r.plain) < 1, `"${r.text}": drawn ${r.drawn.toFixed(1)} px, as plain text ${r.plain.toFixed(1)} px`);
    }
  });
});

if (skip) test(`newcomer page tests (skipped: ${skip})`, { skip }, () => {});
