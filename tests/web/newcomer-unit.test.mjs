/**
 * Node tests of the pure parts behind the newcomer's page: the heatmap's tokens-as-words
 * (web/app/token-words.js) and the build-time facts of "About the models" (scripts/about-models.mjs:
 * the model card's facts, weights/card.json, read into models/about.json). No browser, no engine.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tokenWords, mergeAttention, SPECIAL_NAMES } from '../../web/app/token-words.js';
import { aboutModels, readCard, readLimitations, readScores } from '../../scripts/about-models.mjs';
import { ROOT, FIXTURE_MANIFEST } from './_helpers.mjs';

const tok = (piece, b, e) => ({ piece, range: [b, e] });

test('tokenWords: pieces of one word merge, special tokens are named, no ▁ in any label', () => {
  const text = 'Unbelievably small.';
  // "▁Un" "bel" "iev" "ably" "▁small" "." "</s>"
  const tokens = [tok('▁Un', 0, 2), tok('bel', 2, 5), tok('iev', 5, 8), tok('ably', 8, 12), tok('▁small', 12, 18), tok('.', 18, 19), tok('</s>', 19, 19)];
  const words = [[0, 12], [13, 18], [18, 19]];
  const groups = tokenWords(text, tokens, words);
  assert.deepEqual(groups.map((g) => g.label), ['Unbelievably', 'small', '.', 'end of sentence']);
  assert.deepEqual(groups.map((g) => g.tokens), [[0, 1, 2, 3], [4], [5], [6]]);
  assert.equal(groups[3].special, true);
  assert.equal(SPECIAL_NAMES['</s>'], 'end of sentence');
});

test('tokenWords: a piece over two words joins them; a lone ▁ joins the next word; every token once', () => {
  const text = 'Mr. X ( a )';
  // "▁Mr" "." spans words "Mr" "." ; then a lone "▁" before "X"; "▁(" then "▁a" "▁)" ; no </s>
  const tokens = [tok('▁Mr.', 0, 3), tok('▁', 3, 4), tok('X', 4, 5), tok('▁(', 5, 7), tok('▁a', 7, 9), tok('▁)', 9, 11)];
  const words = [[0, 2], [2, 3], [4, 5], [6, 7], [8, 9], [10, 11]];
  const groups = tokenWords(text, tokens, words);
  assert.deepEqual(groups.map((g) => g.label), ['Mr.', 'X', '(', 'a', ')']);
  assert.deepEqual(groups.flatMap((g) => g.tokens), [0, 1, 2, 3, 4, 5]);
  assert.deepEqual(groups[1].tokens, [1, 2]);
  // No words at all (an empty sentence): the pieces are shown without ▁.
  assert.deepEqual(tokenWords('', [tok('▁', 0, 0), tok('</s>', 0, 0)], []).map((g) => g.label), ['end of sentence']);
  assert.deepEqual(tokenWords('x', [tok('▁x', 0, 1)], []).map((g) => g.label), ['x']);
  // An unknown piece the engine filled with the source's emoji is labelled with it (it read
  // "unknown character" beside an emoji in the translation); one left empty keeps the name.
  const pizza = 'Ich liebe 🍕 sehr.';
  const filled = tokenWords(pizza, [tok('▁Ich', 0, 3), tok('▁liebe', 3, 9), tok('<unk>', 9, 12), tok('▁sehr', 12, 17), tok('.', 17, 18)],
    [[0, 3], [4, 9], [13, 17], [17, 18]]);
  assert.deepEqual(filled.map((g) => g.label), ['Ich', 'liebe', '🍕', 'sehr', '.']);
  assert.deepEqual(tokenWords('a', [tok('▁a', 0, 1), tok('<unk>', 1, 1)], [[0, 1]]).map((g) => g.label), ['a', 'unknown character']);
});

test('mergeAttention: a target word\'s row is the mean of its pieces\' rows, a source word\'s column the sum', () => {
  const m = [
    [0.5, 0.3, 0.2],
    [0.1, 0.1, 0.8],
    [0.0, 1.0, 0.0],
  ];
  const rows = [{ tokens: [0, 1] }, { tokens: [2] }];
  const cols = [{ tokens: [0, 1] }, { tokens: [2] }];
  const merged = mergeAttention(m, rows, cols);
  const close = (a, b) => a.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - b[i][j]) < 1e-9, `${i},${j}: ${x} vs ${b[i][j]}`)));
  close(merged, [[0.5, 0.5], [1.0, 0.0]]);
  for (const row of merged) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-9, 'rows still sum to 1');
});

test('readCard: card.json gives the parameters, the data table and the licence', () => {
  const json = JSON.parse(readFileSync(path.join(ROOT, 'weights/card.json'), 'utf8'));
  const card = readCard(json);
  assert.equal(card.parameters, json.shipped['en-de'].parameters);
  assert.ok(card.parameters > 1e6, `${card.parameters} parameters`);
  assert.ok(card.data.length >= 5, `${card.data.length} sources`);
  for (const d of card.data) {
    assert.ok(d.source && d.domain && d.licence, JSON.stringify(d));
    assert.ok(d.pairs > 0, `${d.source}: ${d.pairsText}`);
    assert.match(d.pairsText, /^\d{1,3}(,\d{3})*( \(\w+→\w+\)( \/ [\d,]+ \(\w+→\w+\))*)?$/);
  }
  assert.equal(card.data.filter((d) => d.synthetic).length, 1, 'the back-translations are one row, marked');
  assert.ok(card.data.filter((d) => !d.synthetic).every((d) => d.share > 0), 'every real source has its share of the text');
  assert.match(card.licence, /non-commercial/);
  assert.match(card.intendedUse, /English↔German/);
  // A card.json that lacks a part loses only that part; anything else reads as nothing.
  assert.deepEqual(readCard({ licence: 'CC0' }), { licence: 'CC0' });
  assert.deepEqual(readCard({ data: { sources: [{ source: 'x', pairs: { 'en-de': 1200, 'de-en': 3 } }] } }).data,
    [{ source: 'x', synthetic: false, pairs: 1200, pairsText: '1,200 (en→de) / 3 (de→en)', share: null, domain: '', licence: '' }]);
  assert.deepEqual(readCard(null), {});
  assert.deepEqual(readCard([1, 2]), {});
});

test('readLimitations: card.json\'s limitations as the page shows them, each example with its languages, the card-only detail left out', () => {
  const json = JSON.parse(readFileSync(path.join(ROOT, 'weights/card.json'), 'utf8'));
  const limits = readCard(json).limitations;
  assert.equal(limits.summary, json.limitations.summary);
  assert.deepEqual(limits.items.map((i) => i.title), json.limitations.items.map((i) => i.title), 'every entry, in the card\'s order');
  limits.items.forEach((item, n) => {
    const ex = json.limitations.items[n].example;
    assert.deepEqual(item.example, { from: ex.direction.slice(0, 2), to: ex.direction.slice(3), source: ex.source, output: ex.output, wrong: ex.wrong });
    assert.equal(item.detail, undefined);
  });
  // An entry without its title or sentence is left out, an example without its source, output or
  // a direction too; nothing usable is null.
  assert.deepEqual(readLimitations({ items: [
    { title: 'A', text: 'a.', example: { direction: 'de-en', source: 's', output: 'o' } },
    { title: 'B', text: 'b.', example: { direction: 'de', source: 's', output: 'o' } },
    { title: '', text: 'c.' }, { text: 'd.' }, 'e', null] }),
  { summary: '', items: [{ title: 'A', text: 'a.', example: { from: 'de', to: 'en', source: 's', output: 'o', wrong: '' } }, { title: 'B', text: 'b.' }] });
  assert.equal(readLimitations({ items: [] }), null);
  assert.equal(readLimitations({ summary: 'x' }), null);
  assert.equal(readLimitations(undefined), null);
});

test('readScores and aboutModels: scores and peers from card.json, only for the file they were measured on, nothing invented for the fixture', () => {
  const json = JSON.parse(readFileSync(path.join(ROOT, 'weights/card.json'), 'utf8'));
  const s = readScores(json.shipped['en-de']);
  assert.equal(s['flores-dev'].bleu, json.shipped['en-de'].scores['flores-dev'].bleu);
  assert.equal(s['flores-dev'].sentences, json.shipped['en-de'].scores['flores-dev'].sentences);
  assert.equal(readScores({ scores: {} }), null);
  assert.equal(readScores(undefined), null);

  const manifest = path.join(ROOT, 'weights/manifest.json');
  const entries = JSON.parse(readFileSync(manifest, 'utf8')).models.map((m) => ({ from: m.from, to: m.to, bytes: m.bytes, source: path.join(ROOT, 'weights', m.file) }));
  const about = aboutModels({ manifestPath: manifest, entries, engineBytes: 1234, codeLicence: 'MIT', root: ROOT });
  assert.equal(about.engineBytes, 1234);
  for (const m of about.models) {
    const real = JSON.parse(readFileSync(path.join(ROOT, `weights/${m.from}-${m.to}/scores.json`), 'utf8'));
    assert.equal(m.scores['flores-dev'].bleu, real.sets['flores-dev'].int8_beam4.bleu, 'card.json holds what evaluate.py measured');
  }
  assert.equal(about.scoresFrom, 'weights/card.json');
  assert.equal(about.peers.set, about.sets[0].key, 'the peers\' scores are on the set shown first');
  assert.ok(about.peers.systems.length >= 2 && about.peers.systems.every((p) => p.scores['en-de'] > 0 && p.scores['de-en'] > 0));
  assert.match(about.peers.source.url, /^https:\/\//);
  assert.deepEqual(about.builtFrom, ['weights/manifest.json', 'weights/card.json']);
  // A model file other than the one measured (another size) gets no scores.
  const other = aboutModels({ manifestPath: manifest, entries: [{ ...entries[0], bytes: entries[0].bytes + 1 }], engineBytes: 1, root: ROOT });
  assert.equal(other.models[0].scores, undefined);

  const fixture = aboutModels({ manifestPath: FIXTURE_MANIFEST, entries: [{ from: 'en', to: 'de', bytes: 10, source: path.join(ROOT, 'tests/fixtures/tiny.nmt') }], engineBytes: 5, root: ROOT });
  assert.equal(fixture.models[0].scores, undefined);
  assert.equal(fixture.card, undefined);
  assert.equal(fixture.peers, undefined);

  // A card.json next to a manifest is picked up, with the set names the page uses.
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-about-'));
  writeFileSync(path.join(dir, 'manifest.json'), '{"models":[]}');
  writeFileSync(path.join(dir, 'card.json'), JSON.stringify({ shipped: { 'en-de': { bytes: 1, parameters: 5, scores: { 'flores-dev': { sentences: 3, bleu: 12.5, chrf: 40 }, other: { bleu: 1 } } } } }));
  const own = aboutModels({ manifestPath: path.join(dir, 'manifest.json'), entries: [{ from: 'en', to: 'de', bytes: 1, source: path.join(dir, 'm.nmt') }], engineBytes: 1 });
  assert.deepEqual(own.models[0].scores, { 'flores-dev': { bleu: 12.5, chrf: 40, sentences: 3 } });
  assert.deepEqual(own.card, { parameters: 5 });
  assert.ok(existsSync(path.join(dir, 'card.json')));
});

test('load progress: the total is 0 until every file\'s size is known, then one number to the end (module + worker, fake engine)', async () => {
  const { Translator } = await import('../../web/translator.js');
  const { fileUrl } = await import('./_helpers.mjs');
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-progress-'));
  const model = Buffer.from(`NMTMODEL ${'x'.repeat(3 << 20)}`);
  writeFileSync(path.join(dir, 'model.nmt'), model);
  const wasm = Buffer.from('fake wasm compile_ms=0');
  writeFileSync(path.join(dir, 'engine.wasm'), wasm);
  const engineUrl = fileUrl(path.join(ROOT, 'tests/web/fake-engine.mjs'));
  // Each start its own engine file: a Translator reuses an engine compiled earlier in the page from
  // the same URL (translator.js compiledEngines), which then needs no download at all.
  const start = async (manifest, wasmFile) => {
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(dir, wasmFile), wasm);
    const seen = [];
    const t = await Translator.create({ from: 'en', to: 'de', engineUrl, wasmUrl: fileUrl(path.join(dir, wasmFile)), manifestUrl: fileUrl(path.join(dir, 'manifest.json')),
      onProgress: (p) => seen.push(p) });
    t.dispose();
    return seen.filter((p) => p.phase === 'download');
  };
  const all = model.length + wasm.length;
  // The manifest gives both sizes: the first report has the whole total already.
  let downloads = await start({ models: [{ from: 'en', to: 'de', file: 'model.nmt', bytes: model.length }], engine: { wasm: { file: 'engine-a.wasm', bytes: wasm.length } } }, 'engine-a.wasm');
  assert.ok(downloads.length >= 2, `${downloads.length} reports`);
  assert.deepEqual([...new Set(downloads.map((p) => p.total))], [all], JSON.stringify(downloads.map((p) => [p.loaded, p.total])));
  assert.equal(downloads.at(-1).loaded, all);
  // Without engine.wasm's size in the manifest: 0 while it is unknown (engine.wasm is fetched at once,
  // beside the manifest, so here it is usually known by the first report), never a smaller total.
  downloads = await start({ models: [{ from: 'en', to: 'de', file: 'model.nmt', bytes: model.length }] }, 'engine-b.wasm');
  const totals = downloads.map((p) => p.total);
  assert.ok(totals.every((x) => x === 0 || x === all), `only 0 or the whole total: ${JSON.stringify(totals)}`);
  assert.deepEqual([...new Set(totals.filter((x) => x > 0))], [all], JSON.stringify(totals));
  assert.ok(totals.indexOf(all) < totals.length && totals.slice(totals.indexOf(all)).every((x) => x === all), 'once known, it stays');
});
