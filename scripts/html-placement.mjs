#!/usr/bin/env node
/**
 * Tag-placement accuracy of translate(html, { html: true }) on the hand-checked sets
 * tests/fixtures/html/placement-{en-de,de-en}.json: 50 sentences with inline markup per direction,
 * each with the model's plain translation at the time it was judged and, per inline element, the
 * target words it should cover (judged by hand from the source and that translation). A sentence
 * whose translation is no longer the same (another model) is counted as stale, not judged.
 * An element is right when the words it covers (letters and digits, case-insensitive) are one of
 * the accepted answers.
 *
 *   node scripts/html-placement.mjs [--manifest weights/manifest.json] [--beam 4] [--placement span|hard] [--verbose]
 *
 * --placement hard measures the first version of the placement (each element from its first to its
 * last hard-aligned target word), before segment.js's soft-attention trim.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Translator } from '../web/translator.js';
import { parseHtml, decodeEntities } from '../web/html/tokenize.js';
import { translateHtml } from '../web/html/translate-html.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = ['en-de', 'de-en'].map((d) => path.join(ROOT, `tests/fixtures/html/placement-${d}.json`));

const norm = (s) => (s.toLowerCase().match(/[\p{L}\p{N}]+/gu) || []).join(' ');

/** The inline elements of `html` in document order, with their text. */
function inlineElements(html) {
  const out = [];
  const text = (n) => (n.type === 'text' ? decodeEntities(html.slice(n.start, n.end)) : (n.children || []).map(text).join(''));
  const walk = (n) => {
    for (const c of n.children || []) {
      if (c.type !== 'element') continue;
      if (c.name !== 'p') out.push({ name: c.name, text: text(c) });
      walk(c);
    }
  };
  walk(parseHtml(html));
  return out;
}

/** Translates a fixture's sentences and scores the placement: {judged, right, stale, sentences, rows}. */
export async function measurePlacement(translator, fixture, { beam = 4, placement = 'span' } = {}) {
  const res = { direction: fixture.direction, judged: 0, right: 0, stale: 0, sentencesJudged: 0, sentencesRight: 0, lost: 0, tags: 0, rows: [] };
  for (const item of fixture.items) {
    // (htmlPlacement is no option of translator.translate(): the measurement calls what it runs)
    const r = await translateHtml(translator, item.html, { beam, htmlPlacement: placement });
    const plain = decodeEntities(r.text.replace(/<[^>]*>/g, ''));
    const els = inlineElements(r.text);
    res.tags += item.expect.length;
    res.lost += r.lost;
    const row = { html: item.html, out: r.text, stale: norm(plain) !== norm(item.target), marks: [] };
    if (row.stale) {
      res.stale += 1;
      res.rows.push(row);
      continue;
    }
    res.sentencesJudged += 1;
    let all = true;
    item.expect.forEach(([name, accepted], k) => {
      const el = els.filter((e) => e.name === name)[item.expect.slice(0, k).filter(([n]) => n === name).length];
      const got = el ? norm(el.text) : null;
      const ok = got !== null && accepted.split('|').some((a) => norm(a) === got);
      res.judged += 1;
      if (ok) res.right += 1;
      else all = false;
      row.marks.push({ name, expected: accepted, got, ok });
    });
    if (all) res.sentencesRight += 1;
    res.rows.push(row);
  }
  return res;
}

export function summary(res) {
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
  return `${res.direction}: elements placed right ${res.right}/${res.judged} (${pct(res.right, res.judged)}), ` +
    `sentences all right ${res.sentencesRight}/${res.sentencesJudged} (${pct(res.sentencesRight, res.sentencesJudged)}), ` +
    `stale (translation changed since judged) ${res.stale}, lost ${res.lost}`;
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const manifestUrl = pathToFileURL(path.resolve(opt('--manifest', path.join(ROOT, 'weights/manifest.json')))).href;
  const beam = Number(opt('--beam', '4'));
  const placement = opt('--placement', 'span');
  for (const file of FIXTURES) {
    const fixture = JSON.parse(readFileSync(file, 'utf8'));
    const [from, to] = fixture.direction.split('-');
    const t = await Translator.create({ from, to, manifestUrl });
    try {
      const res = await measurePlacement(t, fixture, { beam, placement });
      if (args.includes('--verbose')) {
        for (const row of res.rows) {
          const bad = row.marks.filter((m) => !m.ok);
          if (row.stale) console.log(`  stale: ${row.out}`);
          else if (bad.length) console.log(`  ${row.out}\n    ${bad.map((m) => `<${m.name}> expected "${m.expected}", got "${m.got}"`).join('; ')}`);
        }
      }
      console.log(summary(res));
    } finally {
      t.dispose();
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
