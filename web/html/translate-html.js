/**
 * translate(html, { html: true }): translates the text of an HTML string and returns HTML, with
 * the markup kept and inline elements placed on the translated words (see segment.js for how).
 * The markup is read by this project's tokenizer (tokenize.js), never by a browser parser, so
 * nothing in it runs or loads while it is translated, in a page, a Web Worker or Node.
 *
 * What comes out: the same document with the text of every segment (a run of text and inline
 * elements between block boundaries), of the <title> element, and the title, alt, placeholder, aria-label and
 * aria-description attributes (and the value of button-type inputs) translated; everything else
 * as it was written: script, style, pre, code/kbd/samp/var, textarea, comments, elements and
 * attributes under translate="no" or class="notranslate", other attributes (start tags whose
 * attributes are not translated are copied character for character). Translated text is escaped
 * (& < > and no-break spaces), characters the input wrote as a character reference are written
 * with the same reference, and the whitespace around and between sentences is the input's. End
 * tags the input left out (or that a broken document never closed) are written, so every element
 * is closed and the output is well-formed; stray end tags are dropped. The output is no safer than
 * the input: it keeps the input's scripts, event handlers and URLs (translation does not sanitize).
 */
import { parseHtml, decodeEntities, escapeText, escapeAttribute, VOID } from './tokenize.js';
import { collectUnits, placeSegment, placedText, translateUnits, joinPlain, optionValue } from './segment.js';
import { runFlat } from './flat.js';

/** Reads a tree from parseHtml() (the adapter segment.js works through). */
function stringAdapter(html, source) {
  const decoded = new Map();
  return {
    source,
    root: null,
    kind: (n) => (n.type === 'element' ? 'element' : n.type === 'text' ? 'text' : n.type === 'comment' ? 'comment' : n.type === 'root' ? 'element' : 'other'),
    name: (n) => (n.type === 'root' ? '#root' : n.name),
    attr: (n, name) => {
      if (!n.attrs) return null;
      const at = n.attrs.find((x) => x.name === name);
      return at ? at.value : null;
    },
    children: (n) => n.children || [],
    // (a <title>'s text, or an SVG <desc>'s)
    elementText: (n) => n.children.filter((c) => c.type === 'rawtext' || c.type === 'text').map((c) => decodeEntities(html.slice(c.start, c.end))).join(''),
    text: (n) => {
      if (!decoded.has(n)) decoded.set(n, decodeEntities(html.slice(n.start, n.end)));
      return decoded.get(n);
    },
  };
}

/**
 * The characters the input wrote as named or numeric references in text (other than & < > and
 * the quote), mapped to how it wrote them, so that translated text writes them the same way.
 */
function referenceSpellings(html) {
  const map = new Map();
  const re = /&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);/g;
  let m;
  while ((m = re.exec(html)) !== null && map.size < 200) {
    const ch = decodeEntities(m[0]);
    if (ch === m[0] || [...ch].length !== 1 || /[&<>"\s]/.test(ch)) continue;
    if (!map.has(ch)) map.set(ch, m[0]);
  }
  return map;
}

/**
 * Translates an HTML string with `translator` (a Translator). Options are translate()'s (`beam`,
 * `signal`, `onProgress`, …); alignments are always on. Resolves with the translation: `text` the
 * HTML, `html: true`, `sentences` (their ranges index the plain text that was translated, not the
 * HTML), `segments` (how many runs of text were translated), `attributes`, `elements` (inline
 * elements placed on words) and `lost` (inline elements the alignment placed on no word; they are
 * kept, empty, where their text began), plus translate()'s stats and timings summed over requests.
 */
export async function translateHtml(translator, html, options = {}) {
  // htmlPlacement 'hard' (measurement only: scripts/html-placement.mjs): elements span from their
  // first to their last hard-aligned word, without segment.js's soft-attention trim.
  const { onProgress, html: _html, htmlPlacement = 'span', ...rest } = options;
  const root = parseHtml(html);
  const a = stringAdapter(html, typeof translator.from === 'string' ? translator.from : null);
  const langs = []; // translated elements whose lang names the source language
  const units = collectUnits(root, a, { langs });
  const spellings = referenceSpellings(html);
  const escape = (text) => {
    let out = escapeText(text);
    if (spellings.size) out = [...out].map((c) => spellings.get(c) || c).join('');
    return out;
  };
  const attributeOut = new Map(); // element → Map(name → translated value)
  if (typeof translator.to === 'string') for (const node of langs) attributeOut.set(node, new Map([['lang', translator.to]]));
  const placed = new Map(); // segment unit → its pieces
  const titleOut = new Map(); // <title> element → its translated text
  const sentences = [];
  let elements = 0;
  let lost = 0;
  const stats = { sourceTokens: 0, targetTokens: 0, tokensPerSecond: 0, chunks: 0, wasmHeapBytes: null };
  const timings = { engineMs: 0, encodeMs: 0, decodeMs: 0, workerMs: 0, queueMs: 0, totalMs: 0 };
  const started = performance.now();
  await translateUnits(translator, units, { batchChars: 5000, ...rest }, (batch, results, progress) => {
    const r = progress.result;
    for (const k of ['sourceTokens', 'targetTokens', 'chunks']) stats[k] += r.stats[k];
    stats.wasmHeapBytes = r.stats.wasmHeapBytes;
    for (const k of Object.keys(timings)) timings[k] += r.timings[k] || 0;
    sentences.push(...r.sentences);
    batch.forEach((u, i) => {
      if (u.type === 'attribute') {
        if (!attributeOut.has(u.node)) attributeOut.set(u.node, new Map());
        attributeOut.get(u.node).set(u.name, joinPlain(u.value, results[i].sentences));
        return;
      }
      if (u.type === 'title') {
        titleOut.set(u.node, joinPlain(u.value, results[i].sentences));
        return;
      }
      const value = optionValue(u.container, a);
      if (value !== null) {
        if (!attributeOut.has(u.container)) attributeOut.set(u.container, new Map());
        attributeOut.get(u.container).set('value', value);
      }
      const p = placeSegment(u.seg, results[i].sentences, htmlPlacement);
      elements += p.placed;
      lost += p.lost;
      placed.set(u, p.pieces);
      for (const f of u.followers) { // a title that says what its link says: the link's words
        const value = placedText(p.pieces, f.node);
        if (!value) continue;
        if (!attributeOut.has(f.node)) attributeOut.set(f.node, new Map());
        attributeOut.get(f.node).set(f.name, value);
      }
    });
    if (typeof onProgress === 'function') {
      try {
        onProgress({ done: progress.done, total: progress.total, range: [0, 0], text: '', sentences: r.sentences });
      } catch (e) {
        console.error(e);
      }
    }
  });
  // first node of a segment → {nodes, pieces}; written as the tree is, so that a segment inside an
  // element another segment moved (a button's label) is written translated too
  const segmentOut = new Map();
  for (const [u, pieces] of placed) segmentOut.set(u.nodes[0], { nodes: new Set(u.nodes), pieces });
  for (const [node, value] of titleOut) segmentOut.set(node, { title: escape(value) });
  const out = { html, segmentOut, attributeOut, escape };
  const text = runFlat(serializeChildren(root.children, out)); // text at the top level too
  stats.tokensPerSecond = timings.engineMs > 0 ? stats.targetTokens / (timings.engineMs / 1000) : 0;
  timings.totalMs = performance.now() - started;
  return {
    text, html: true, sentences, segments: placed.size, attributes: units.filter((u) => u.type === 'attribute').length + [...placed.keys()].reduce((n, u) => n + u.followers.length, 0), elements, lost, stats, timings,
  };
}

// The writers below call one another on runFlat's stack (`yield f(x)` is a call), so markup
// nested any depth is written without deep recursion.

/** Opens and closes inline elements as the pieces' stacks change. */
function* renderPieces(pieces, o) {
  const { html, attributeOut, escape } = o;
  let out = '';
  let open = [];
  const opened = new Set();
  for (const p of pieces) {
    const stack = p.stack || [];
    let k = 0;
    while (k < open.length && k < stack.length && open[k] === stack[k]) k++;
    for (let j = open.length - 1; j >= k; j--) out += endTags(open[j]);
    for (let j = k; j < stack.length; j++) {
      const r = stack[j];
      out += startTag(r.node, html, attributeOut, opened.has(r));
      for (const n of r.inner) out += startTag(n, html, attributeOut, opened.has(r));
      opened.add(r);
    }
    open = stack;
    if (p.node) out += p.empty ? yield emptyShell(p.rec, p.inside, o) : yield serializeNode(p.node, o);
    else out += escape(p.text);
  }
  for (let j = open.length - 1; j >= 0; j--) out += endTags(open[j]);
  return out;
}

/** The end tags of an element record: its inner wrappers' and its own. */
function endTags(rec) {
  let out = '';
  for (let j = rec.inner.length - 1; j >= 0; j--) out += `</${rec.inner[j].name}>`;
  return `${out}</${rec.node.name}>`;
}

/**
 * A lost element (placed on no word) as its tags and those of the inline elements inside it, without
 * text, holding the atomic elements in `inside` ([{rec, node}]: kept whole, also without a word).
 */
function* emptyShell(rec, inside, o) {
  let inner = '';
  for (const c of rec.children) inner += yield emptyShell(c, inside, o);
  for (const x of inside) if (x.rec === rec) inner += yield serializeNode(x.node, o);
  const starts = [rec.node, ...rec.inner].map((n) => startTag(n, o.html, o.attributeOut, false)).join('');
  return `${starts}${inner}${endTags(rec)}`;
}

function startTag(node, html, attributeOut, again) {
  const translated = attributeOut.get(node);
  if (!translated && !again && !node.synthetic) return html.slice(node.start, node.end);
  let out = `<${node.name}`;
  for (const at of node.attrs) {
    if (again && at.name === 'id') continue; // an element split in two keeps its id once
    if (translated && translated.has(at.name)) out += ` ${at.name}="${escapeAttribute(translated.get(at.name))}"`;
    else if (at.raw === null) out += ` ${at.name}`;
    else out += ` ${at.name}="${at.raw.replace(/"/g, '&quot;')}"`;
  }
  if (translated && !again) { // (added: an option's value, see optionValue)
    for (const [name, value] of translated) if (!node.attrs.some((at) => at.name === name)) out += ` ${name}="${escapeAttribute(value)}"`;
  }
  return `${out}${node.selfClosing && (VOID.has(node.name) || node.foreign) ? ' /' : ''}>`;
}

/** `o`: {html, segmentOut, attributeOut, escape}. */
function* serializeChildren(children, o) {
  let out = '';
  let skip = null;
  for (const c of children) {
    if (skip && skip.has(c)) continue;
    const seg = o.segmentOut.get(c);
    if (seg && seg.nodes) {
      out += yield renderPieces(seg.pieces, o);
      skip = seg.nodes;
      continue;
    }
    out += yield serializeNode(c, o);
  }
  return out;
}

function* serializeNode(node, o) {
  const { html, segmentOut, attributeOut } = o;
  if (node.type !== 'element') return html.slice(node.start, node.end) + (node.closer || '');
  let out = startTag(node, html, attributeOut, false);
  if (VOID.has(node.name) || (node.foreign && node.selfClosing)) return out;
  const title = segmentOut.get(node);
  if (title && title.title !== undefined) return `${out}${title.title}</${node.name}>`;
  out += yield serializeChildren(node.children, o);
  return node.name === 'plaintext' ? out : `${out}</${node.name}>`; // (plaintext runs to the end: it has no end tag)
}
