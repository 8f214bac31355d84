/**
 * translateElement(element, options): translates a live DOM subtree in place (main thread), as
 * Firefox's page translation does: the same segments, inline-element placement and attributes as
 * translate(html, { html: true }) (segment.js), applied to the page's own nodes.
 *
 * How the DOM changes: translated text is new Text nodes (never markup: nothing is parsed, no
 * innerHTML); an inline element keeps its identity (the original node holds its first placed
 * words, listeners and all) and, only where the translation splits it in two, a shallow clone
 * without its id holds the rest; images, code and other untranslated elements are moved, never
 * cloned, so nothing loads again. Attributes (title, alt, placeholder, aria-label, …) are set with
 * setAttribute. Batches of about `batchChars` characters are translated and applied one after
 * another, so the page changes as it goes and onProgress reports each. restore() (or
 * restoreElement(element)) puts the original nodes, text and attributes back; an abort (`signal`)
 * or an error restores what was done and rejects.
 */
import { collectUnits, placeSegment, placedText, translateUnits, joinPlain, langOf, optionValue } from './segment.js';
import { checkBatchOptions } from '../request-options.js';
import { ErrorCode, TranslatorError } from '../protocol.js';

const domAdapter = {
  kind: (n) => (n.nodeType === 1 ? 'element' : n.nodeType === 3 || n.nodeType === 4 ? 'text' : n.nodeType === 8 ? 'comment' : n.nodeType === 11 || n.nodeType === 9 ? 'element' : 'other'),
  name: (n) => (n.nodeType === 1 ? n.localName.toLowerCase() : '#fragment'),
  attr: (n, name) => (n.nodeType === 1 ? n.getAttribute(name) : null),
  children: (n) => Array.from(n.childNodes),
  text: (n) => n.data,
  elementText: (n) => n.textContent,
  // (an open shadow root: a web component's own text; a closed one cannot be reached)
  shadow: (n) => (n.nodeType === 1 && n.shadowRoot ? n.shadowRoot : null),
  live: true,
};

const active = new WeakMap(); // element → the handle of its translation

/** translateElement()'s names besides the decoding options (translate()'s, less `html`). */
const ELEMENT_OPTIONS = ['translator', 'signal', 'onProgress', 'chunkChars', 'batchChars'];

/**
 * @param {Element} element
 * @param {{translator: import('../translator.d.ts').Translator, signal?: AbortSignal,
 *   onProgress?: (p: {done: number, total: number, segments: number}) => void, batchChars?: number,
 *   beam?: number}} options
 */
export async function translateElement(element, options = {}) {
  // checked before anything changes: translating again restores the last translation first
  options = checkBatchOptions(options, 'translateElement()', ELEMENT_OPTIONS);
  const { translator, signal, onProgress, batchChars = 1500, ...decoding } = options;
  if (!translator || typeof translator.translate !== 'function') {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, 'translateElement(element, { translator }): a Translator is needed.');
  }
  if (!element || element.nodeType !== 1) throw new TranslatorError(ErrorCode.BAD_REQUEST, 'translateElement(element): element must be a DOM Element.');
  restoreElement(element); // translating again starts from the original
  const undo = [];
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
    undo.length = 0;
    if (active.get(element) === handle) active.delete(element);
  };
  const handle = { restore, segments: 0, attributes: 0, elements: 0, lost: 0, skipped: 0 };
  active.set(element, handle);
  const a = { ...domAdapter, source: typeof translator.from === 'string' ? translator.from : null, root: element, ...styleQuestions() };
  const langs = []; // translated elements whose lang names the source language
  const units = collectUnits(element, a, { langs });
  const doc = element.ownerDocument;
  let langSaid = false;
  // With its first translated batch the element says the target language, and so do the elements
  // inside it that said the source's (a screen reader reads German with a German voice).
  const sayTargetLanguage = () => {
    langSaid = true;
    const to = translator.to;
    if (typeof to !== 'string') return;
    let inherited = null;
    for (let n = element; n && n.nodeType === 1 && inherited === null; n = n.parentNode) inherited = langOf(n, a);
    // (one without text of its own to translate, only attributes, is left as it is)
    const sayAtRoot = !langs.includes(element) && inherited !== to && units.some((u) => u.type === 'segment');
    const targets = sayAtRoot ? [element, ...langs] : langs;
    for (const node of targets) {
      const before = node.getAttribute('lang');
      node.setAttribute('lang', to);
      undo.push(() => (before === null ? node.removeAttribute('lang') : node.setAttribute('lang', before)));
    }
  };
  try {
    await translateUnits(translator, units, { ...decoding, batchChars, signal }, (batch, results, progress) => {
      if (restored) throw abortError();
      if (!langSaid) sayTargetLanguage();
      batch.forEach((u, i) => {
        const r = results[i];
        if (u.type === 'attribute') {
          const before = u.node.getAttribute(u.name);
          if (before !== u.value) { // changed by the page meanwhile: leave it
            handle.skipped += 1;
            return;
          }
          u.node.setAttribute(u.name, joinPlain(u.value, r.sentences));
          undo.push(() => u.node.setAttribute(u.name, before));
          handle.attributes += 1;
          return;
        }
        if (u.type === 'title') {
          if (u.node.textContent !== u.value) {
            handle.skipped += 1;
            return;
          }
          const before = Array.from(u.node.childNodes);
          u.node.replaceChildren(doc.createTextNode(joinPlain(u.value, r.sentences)));
          undo.push(() => u.node.replaceChildren(...before));
          handle.attributes += 1;
          return;
        }
        if (!stillInPlace(u)) {
          handle.skipped += 1;
          return;
        }
        const value = optionValue(u.container, a);
        if (value !== null) {
          u.container.setAttribute('value', value);
          undo.push(() => u.container.removeAttribute('value'));
        }
        const p = placeSegment(u.seg, r.sentences);
        undo.push(applySegment(doc, u, p.pieces));
        for (const f of u.followers) { // a title that says what its link says: the link's words
          const value = placedText(p.pieces, f.node);
          const before = f.node.getAttribute(f.name);
          if (!value || before !== f.value) continue;
          f.node.setAttribute(f.name, value);
          undo.push(() => f.node.setAttribute(f.name, before));
          handle.attributes += 1;
        }
        handle.segments += 1;
        handle.elements += p.placed;
        handle.lost += p.lost;
      });
      if (typeof onProgress === 'function') {
        try {
          onProgress({ done: progress.done, total: progress.total, segments: handle.segments });
        } catch (e) {
          console.error(e);
        }
      }
    });
  } catch (e) {
    restore();
    throw e;
  }
  return handle;
}

/** Puts back what translateElement() changed under `element`; false when nothing was translated. */
export function restoreElement(element) {
  const h = active.get(element);
  if (!h) return false;
  h.restore();
  return true;
}

function abortError() {
  return typeof DOMException === 'function' ? new DOMException('The translation was restored.', 'AbortError') : new Error('AbortError');
}

/**
 * What the page's CSS says, asked before anything changes (an element outside a document has no
 * computed style: neither then): keepsLines(text), whether a text node's line breaks show (its
 * element's white-space is pre, pre-wrap, pre-line or break-spaces: a chat message, a poem), and
 * blockBox(element), whether an element is laid out as a block (display block, flex, grid, list-item,
 * table, a table's row or cell, …; not inline-block) or not shown (display none: read apart too).
 */
function styleQuestions() {
  const styles = new Map();
  const style = (el) => {
    if (!styles.has(el)) {
      const view = el.ownerDocument && el.ownerDocument.defaultView;
      styles.set(el, view && typeof view.getComputedStyle === 'function' ? view.getComputedStyle(el) : null);
    }
    return styles.get(el);
  };
  return {
    keepsLines: (text) => {
      const el = text.parentNode;
      const s = el && el.nodeType === 1 ? style(el) : null;
      return Boolean(s) && /^(pre|pre-wrap|pre-line|break-spaces)$/.test(s.whiteSpace);
    },
    blockBox: (el) => {
      const s = style(el);
      // (display none: text the page does not show is not part of the sentence around it, "<span
      // class=short>Mon</span><span hidden-by-css>Monday</span>" had read "MonMonday")
      return Boolean(s) && /^(block|flex|grid|list-item|table|flow-root|none)\b|^table-(row|cell|caption)/.test(s.display);
    },
  };
}

/** The segment's nodes are still consecutive children of its container, their text unchanged. */
function stillInPlace(u) {
  for (let i = 0; i < u.nodes.length; i++) {
    const n = u.nodes[i];
    if (n.parentNode !== u.container) return false;
    if (i > 0 && u.nodes[i - 1].nextSibling !== n) return false;
  }
  return true;
}

/** Rebuilds a segment's nodes from the placed pieces; returns the function that undoes it. */
function applySegment(doc, u, pieces) {
  const parent = u.container;
  const next = u.nodes[u.nodes.length - 1].nextSibling;
  const saved = new Map(); // element → its original child nodes
  const keep = (el) => {
    if (!saved.has(el)) saved.set(el, Array.from(el.childNodes));
  };
  for (const r of u.seg.elements) for (const n of [r.node, ...r.inner]) keep(n);
  const frag = doc.createDocumentFragment();
  const used = new Set();
  let open = []; // [{rec, el}]
  for (const p of pieces) {
    const stack = p.stack || [];
    let k = 0;
    while (k < open.length && k < stack.length && open[k].rec === stack[k]) k++;
    open = open.slice(0, k);
    for (let j = k; j < stack.length; j++) {
      const rec = stack[j];
      // the record's element with its inner wrappers, `el` the innermost (which holds the words)
      const again = used.has(rec.node);
      used.add(rec.node);
      const chain = [rec.node, ...rec.inner].map((n) => {
        if (!again) return n;
        const el = n.cloneNode(false); // a shallow clone of an inline element: nothing to load or run
        el.removeAttribute('id');
        return el;
      });
      fillChain(chain, [], again);
      (open.length ? open[open.length - 1].el : frag).appendChild(chain[0]);
      open.push({ rec, el: chain[chain.length - 1] });
    }
    const into = open.length ? open[open.length - 1].el : frag;
    if (p.node) {
      if (p.empty) { // a lost element: its tags and those of the inline elements inside it, without text
        // (with the atomic elements inside it that got no word either), records innermost first
        const records = [p.rec];
        for (let i = 0; i < records.length; i++) records.push(...records[i].children);
        for (let i = records.length - 1; i >= 0; i--) {
          const rec = records[i];
          const chain = [rec.node, ...rec.inner];
          for (const n of chain) keep(n);
          fillChain(chain, [...rec.children.map((c) => c.node), ...p.inside.filter((x) => x.rec === rec).map((x) => x.node)], false);
        }
      }
      into.appendChild(p.node);
    } else into.appendChild(doc.createTextNode(p.text));
  }
  const inserted = Array.from(frag.childNodes);
  for (const n of u.nodes) if (n.parentNode === parent) parent.removeChild(n);
  parent.insertBefore(frag, next && next.parentNode === parent ? next : null);
  return () => {
    // (an element whose children are still its own is left alone: the links of a chain, see fillChain)
    const same = (el, children) => el.childNodes.length === children.length && children.every((c, i) => el.childNodes[i] === c);
    for (const [el, children] of saved) if (!same(el, children)) el.replaceChildren(...children);
    const originals = new Set(u.nodes);
    const ref = next && next.parentNode === parent ? next : null;
    for (const n of inserted) if (!originals.has(n) && n.parentNode === parent) parent.removeChild(n);
    for (const n of u.nodes) parent.insertBefore(n, ref);
  };
}

/**
 * Makes the innermost element of a chain (outermost first: an element and the wrappers inside it
 * that hold nothing else, segment.js's `inner`) hold `content`. The page's own elements are still
 * linked one inside the next, and stay so: a browser walks the ancestors or the descendants of every
 * node it changes or moves, so re-linking 100,000 nested elements one by one took minutes. Fresh
 * clones (an element split in two) are linked innermost first.
 */
function fillChain(chain, content, fresh) {
  if (fresh) for (let j = chain.length - 1; j > 0; j--) chain[j - 1].appendChild(chain[j]);
  chain[chain.length - 1].replaceChildren(...content);
}
