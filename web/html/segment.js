/**
 * What the HTML path and the DOM helper share: which elements are translated how, cutting a tree
 * (parsed markup or live DOM, through a small adapter) into the units the model translates, and
 * placing inline elements on the translated words by the word alignments.
 *
 * A "segment" is a run of sibling nodes between block boundaries: its text (with the text of the
 * inline elements inside it) goes to the model as one paragraph, whitespace runs collapsed to one
 * space as a browser renders them and <br> as a line break (one inside running text as a space: it breaks the line,
 * not the sentence; see buildSegment). Inside a segment:
 * - inline elements (a, b, em, span, …) are placed on the target words aligned to their source
 *   words: each target word takes the elements of the source word it is aligned to (the hard
 *   alignment, else the strongest soft link), an element then covers the span from its first to its
 *   last word (an element whose words got no hard link takes its strongest soft-aligned word), a
 *   child is kept inside its parent, and overlapping siblings are cut where the fewest words change
 *   owner. The text between words goes inside the elements on both sides of it.
 * - atomic elements (code, kbd, samp, var, ruby, and any inline element with translate="no", class
 *   "notranslate" or a lang other than the source's) are kept as they are; their text goes to the
 *   model so that the sentence reads whole, and the element lands on the aligned target word that
 *   most surely says it (target words that repeat its words, or are hard-aligned to them, i.e.
 *   translate what it keeps, are dropped);
 * - elements without text (img, input, svg, an empty span, …) and comments land after the target
 *   word aligned to the source word before them, inside the inline elements they were in ("<a><img>
 *   Home</a>" keeps the logo in its link; "<label>Name <input></label>" the input in its label):
 *   one at the start of its element goes before the element's first target word if the words moved
 *   away, one at the end after its last.
 */
import { VOID } from './tokenize.js';
import { runFlat } from './flat.js';

export const INLINE = new Set(['a', 'abbr', 'acronym', 'b', 'bdi', 'bdo', 'big', 'cite', 'data', 'del', 'dfn', 'em',
  'font', 'i', 'ins', 'label', 'mark', 'nobr', 'q', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time',
  'tt', 'u', 'rb']);
/** Inline elements whose content is kept as it is (but read by the model; a ruby's base text only). */
export const ATOMIC = new Set(['code', 'kbd', 'samp', 'var', 'ruby']);
/** A ruby's annotations and their fallback parentheses: kept in it, never read. */
const RUBY_TEXT = new Set(['rt', 'rp', 'rtc']);
/** Inline elements without translatable text of their own: moved with the words, content untouched. */
export const ZERO = new Set(['img', 'input', 'wbr', 'svg', 'math', 'button', 'select', 'textarea', 'meter',
  'progress', 'output', 'picture', 'canvas', 'map', 'area']);
/** Zero-width in the text around them, but with text of their own, translated on its own: a button's label, a list's options. */
const OWN_TEXT = new Set(['button', 'select']);
/** Not translated at all, and a boundary between segments. */
export const SKIP = new Set(['script', 'style', 'template', 'noscript', 'pre', 'xmp', 'plaintext', 'iframe', 'object',
  'embed', 'video', 'audio', 'noembed', 'noframes', 'title']);
/**
 * Inline elements nested deeper than this inside one segment are kept as they are, as code is (their
 * text is read by the model, not rewritten): each word belongs to every element around it, so placing
 * n nested elements costs n² steps. A run of wrappers that hold nothing else ("<b><i><span>…") counts
 * once, however long; blocks nest without limit.
 */
export const MAX_INLINE_DEPTH = 100;
/** The longest sentence (in characters) that single <br>s inside running text are read into (buildSegment). */
export const MAX_JOINED = 400;
/**
 * Skipped elements that may stand inside a sentence ("Write to <script>…</script>us."): there they
 * are elements without words, moved with the words around them, content untouched (a script that
 * ran does not run again when moved; an iframe, object or media element would reload or stop, so
 * those stay boundaries).
 */
const SKIPPED_INLINE = new Set(['script', 'style', 'noscript', 'template', 'noembed', 'noframes']);
/**
 * Skipped elements whose own attributes are still read by people: an iframe's or a video's title
 * (what a screen reader announces for it), a pre's title. (Not a style's: its title names a style sheet set.)
 */
const SKIPPED_LABELLED = new Set(['iframe', 'object', 'embed', 'video', 'audio', 'pre']);
/** Attributes translated wherever their element is translated. */
export const TRANSLATED_ATTRIBUTES = ['title', 'alt', 'placeholder', 'aria-label', 'aria-description'];

const ASCII_SPACE = /[ \t\n\r\f]/;

/**
 * The adapter a tree is read through:
 *   kind(node): 'text' | 'element' | 'comment' | 'other';  name(node): lower-case tag name;
 *   attr(node, name): string | null;  children(node): array;  text(node): a text node's text (decoded);
 *   elementText(node): the text of a <title> element (decoded);
 *   source: the source language ('en'; none: lang attributes are not read);  root: the node translated;
 *   keepsLines(textNode) (optional): whether its line breaks show (CSS white-space), each then a break;
 *   blockBox(element) (optional): whether the page lays an inline element out as a block (CSS display);
 *   shadow(element) (optional): its open shadow root (what the page shows in its place), or null;
 *   live: the tree is a page's DOM (moving a node takes effect there: scripts and styles are not moved)
 */

/** The language an element's lang attribute names ('en' of "en-GB"), or null where it names none. */
export function langOf(node, a) {
  const lang = a.attr(node, 'lang');
  const primary = lang === null ? '' : lang.trim().toLowerCase().split(/[-_]/)[0];
  return /^[a-z]{2,3}$/.test(primary) && primary !== 'und' && primary !== 'mul' ? primary : null;
}

/**
 * Whether `node` (an element) says translate="no" (or is class notranslate), or says with its lang
 * attribute that it is written in a language other than the source (a German quote in an English
 * page: the en->de model had garbled it). `a.source` is the source language (none: lang is not
 * read); the root translated and <html>/<body> (whose lang a site's template often gets wrong) are
 * taken to be in the source language whatever they say.
 */
function saysNo(node, a) {
  if (saysNoExplicitly(node, a) || (editable(node, a) && node !== a.root)) return true;
  const t = a.attr(node, 'translate');
  if ((t !== null && t.trim().toLowerCase() === 'yes') || !a.source || node === a.root || /^(html|body)$/.test(a.name(node))) return false;
  const lang = langOf(node, a);
  return lang !== null && lang !== a.source;
}

/**
 * An editing host (contenteditable): what the user is writing there (a comment box, a rich-text
 * editor) is theirs, as a textarea's text is, and an editor rewritten under its feet loses its
 * state: kept as written unless it is itself the root translated (asked for by name).
 */
function editable(node, a) {
  const v = a.attr(node, 'contenteditable');
  return v !== null && /^(|true|plaintext-only)$/.test(v.trim().toLowerCase());
}

/** translate="no" or class notranslate. */
function saysNoExplicitly(node, a) {
  const t = a.attr(node, 'translate');
  if (t !== null && t.trim().toLowerCase() === 'no') return true;
  const cls = a.attr(node, 'class');
  return cls !== null && /(^|\s)notranslate(\s|$)/.test(cls);
}

/**
 * Whether an element inside a block that is not translated is translated again: translate="yes",
 * or (where only a lang kept the blocks around it, `byLang`) a lang naming the source language.
 */
function saysYes(node, a, byLang) {
  const t = a.attr(node, 'translate');
  if (t !== null && t.trim().toLowerCase() === 'yes') return true;
  return byLang && Boolean(a.source) && langOf(node, a) === a.source && !saysNo(node, a);
}

/**
 * How an element takes part: 'inline', 'atomic', 'zero', 'br', 'skip' or 'block'. An inline or
 * atomic element with a block inside it, or that the page's CSS lays out as a block, is a block (an
 * atomic one is skipped); a translate="no" block is skipped.
 */
export function classify(node, a, memo = new Map()) {
  return memo.has(node) ? memo.get(node) : runFlat(classifyFlat(node, a, memo));
}

function* classifyFlat(node, a, memo) {
  if (memo.has(node)) return memo.get(node);
  const name = a.name(node);
  let kind;
  // (a declarative shadow root's template is what the page shows)
  if (SKIP.has(name) && !(name === 'template' && a.attr(node, 'shadowrootmode') !== null)) {
    // (in a live page they are never moved: a style applies again, a page's CSP reports a blocked
    // script or style again, so there they still end their sentence)
    kind = SKIPPED_INLINE.has(name) && !a.live ? 'zero' : 'skip';
  } else if (a.shadow && a.shadow(node)) kind = saysNo(node, a) ? 'skip' : 'block'; // (its shadow root and its light children read apart)
  else if (RUBY_TEXT.has(name)) kind = 'atomic';
  else if (name === 'br') kind = 'br';
  else if (ZERO.has(name) || VOID.has(name)) kind = 'zero';
  // (a custom element, "<relative-time>", is inline as a browser draws an unknown element, unless
  // it holds a block or the CSS lays it out as one)
  else if (INLINE.has(name) || ATOMIC.has(name) || name.includes('-')) {
    kind = saysNo(node, a) || ATOMIC.has(name) ? 'atomic' : 'inline';
    if (yield hasBlockInside(node, a, memo)) kind = saysNo(node, a) ? 'skip' : 'block';
    // laid out as a block by the page's CSS (a card's title and text as two <span>s): read apart
    else if (a.blockBox && a.blockBox(node)) kind = kind === 'atomic' ? 'skip' : 'block';
  } else kind = saysNo(node, a) ? 'skip' : 'block';
  memo.set(node, kind);
  return kind;
}

function* hasBlockInside(node, a, memo) {
  for (const c of a.children(node)) {
    if (a.kind(c) !== 'element') continue;
    const k = yield classifyFlat(c, a, memo);
    if (k === 'block' || k === 'skip') return true;
  }
  return false;
}

const collapsed = (text) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Cuts the tree under `root` into units: {type: 'segment', container, nodes, seg, followers},
 * {type: 'attribute', node, name, value} and {type: 'title', node, value} (a <title> element). Skipped subtrees and translate="no" are left out.
 * A segment's `followers` are attributes that say what an inline element inside it says ("<a
 * title="Berlin">Berlin</a>", as every link of a wiki): they are not translated on their own (the
 * model mangled a name alone, "Kai Wegner" → "Kai-Blockner", and a page's links doubled its
 * requests) but take the element's words in the placed translation (placedText).
 */
export function collectUnits(root, a, options = {}) {
  const memo = new Map();
  const units = [];
  const attributeNames = options.attributes || TRANSLATED_ATTRIBUTES;
  const visitAttributes = (node, segment = null) => {
    // (an element translated whose lang names the source language: the caller says the target's)
    if (options.langs && a.source && langOf(node, a) === a.source && classify(node, a, memo) !== 'atomic') options.langs.push(node);
    for (const name of attributeNames) {
      const v = a.attr(node, name);
      if (v === null || !/\S/.test(v)) continue;
      const unit = { type: 'attribute', node, name, value: v };
      if (segment && collapsed(v) === collapsed(textContent(node, a)) && classify(node, a, memo) === 'inline') segment.followers.push(unit);
      else units.push(unit);
    }
    if (a.name(node) === 'input') {
      const type = (a.attr(node, 'type') || '').toLowerCase();
      const v = a.attr(node, 'value');
      // (not a named submit button's: its value is what the form sends, "action=Delete")
      const sent = type === 'submit' && a.attr(node, 'name') !== null && a.attr(node, 'name') !== '';
      if ((type === 'button' || type === 'submit' || type === 'reset') && !sent && v !== null && /\S/.test(v)) {
        units.push({ type: 'attribute', node, name: 'value', value: v });
      }
    }
  };
  // Attributes of the elements inside a segment (an img's alt, a link's title), outside atomic ones;
  // and the text of its buttons and lists of options, each translated on its own.
  // (walk, findYes and visitInlineAttributes call one another on runFlat's stack: `yield f(x)` is a call)
  function* visitInlineAttributes(node, segment) {
    if (a.kind(node) !== 'element') return;
    if (SKIP.has(a.name(node))) return; // (a style's title names a style sheet set)
    if (saysNo(node, a)) { // kept as written, but translate="yes" inside it is translated
      if (!editable(node, a)) yield findYes(node, !saysNoExplicitly(node, a));
      return;
    }
    visitAttributes(node, segment);
    if (OWN_TEXT.has(a.name(node))) {
      yield walk(node);
      return;
    }
    const k = classify(node, a, memo);
    if (k === 'inline' || (k === 'zero' && !a.name(node).match(/^(svg|math)$/))) {
      for (const c of a.children(node)) yield visitInlineAttributes(c, segment);
    }
    if (a.name(node) === 'svg') svgLabels(node);
  }
  // An inline SVG's <title> and <desc> (its tooltip and what a screen reader says of it), each
  // translated as text; its drawn <text> is kept (it is laid out by coordinates).
  const svgLabels = (svg) => {
    const todo = [...a.children(svg)];
    while (todo.length) {
      const c = todo.pop();
      if (a.kind(c) !== 'element' || saysNo(c, a) || a.name(c) === 'foreignobject') continue;
      const name = a.name(c);
      if ((name === 'title' || name === 'desc') && a.children(c).every((x) => a.kind(x) !== 'element')) {
        const v = a.elementText(c);
        if (/\S/.test(v)) units.push({ type: 'title', node: c, value: v });
      } else todo.push(...a.children(c));
    }
  };
  function* findYes(node, byLang) {
    for (const c of a.children(node)) {
      if (a.kind(c) !== 'element' || SKIP.has(a.name(c))) continue;
      if (saysYes(c, a, byLang)) {
        visitAttributes(c);
        yield walk(c);
      } else if (!editable(c, a)) yield findYes(c, byLang && !saysNoExplicitly(c, a));
    }
  }
  function* walk(container, inAddress = false) {
    let run = [];
    function* flush() {
      if (run.length) {
        for (const item of listItems(run, a, memo)) {
          const seg = buildSegment(item, a, memo, { linesEnd: inAddress });
          const unit = /\S/.test(seg.text) ? { type: 'segment', container, nodes: item, seg, followers: [] } : null;
          if (unit) units.push(unit);
          for (const n of item) yield visitInlineAttributes(n, unit);
        }
      }
      run = [];
    }
    for (const c of a.children(container)) {
      const kind = a.kind(c);
      if (kind === 'text' || kind === 'comment') {
        run.push(c);
        continue;
      }
      if (kind !== 'element') {
        yield* flush();
        continue;
      }
      const k = classify(c, a, memo);
      if (k === 'block') {
        yield* flush();
        visitAttributes(c);
        yield walk(c, inAddress || a.name(c) === 'address');
        const shadowRoot = a.shadow ? a.shadow(c) : null;
        if (shadowRoot) yield walk(shadowRoot);
      } else if (k === 'skip') {
        yield* flush();
        if (SKIPPED_LABELLED.has(a.name(c)) && !saysNo(c, a)) visitAttributes(c);
        // The document's title is translated as plain text (as Firefox does); an SVG's, see svgLabels.
        if (a.name(c) === 'title' && !saysNo(c, a)) {
          const v = a.elementText(c);
          if (/\S/.test(v)) units.push({ type: 'title', node: c, value: v });
        }
        // a translate="no" block: translate="yes" inside it is translated (not in what a user edits)
        if (!SKIP.has(a.name(c)) && !editable(c, a)) yield findYes(c, !saysNoExplicitly(c, a));
      } else run.push(c);
    }
    yield* flush();
  }
  if (a.kind(root) === 'element') {
    const k = classify(root, a, memo);
    if (k === 'skip') return units;
    if (k !== 'block') {
      // An inline root: its content is one segment.
      visitAttributes(root);
    } else visitAttributes(root);
  }
  runFlat(walk(root, a.kind(root) === 'element' && a.name(root) === 'address'));
  const rootShadow = a.shadow && a.kind(root) === 'element' ? a.shadow(root) : null;
  if (rootShadow) runFlat(walk(rootShadow));
  return units;
}

/** Marks that stand between menu items or the steps of a breadcrumb ("Home | News", "Home › Shoes"). */
const ITEM_MARK = /[|·•‧∙◦⋅/\\›»‹«>\u2013\u2014-]/u;
/** Text that only separates items: spaces and such marks (and, in a list of links, commas). */
const SEPARATOR_TEXT = /^[\s|·•‧∙◦⋅/\\›»‹«>\u2013\u2014,;-]*$/u;

/** A link, or an inline element around nothing but one link ("<span><a>Home</a></span>"). */
function isLinkLike(node, a, memo) {
  for (;;) {
    if (!node || a.kind(node) !== 'element') return false;
    if (a.name(node) === 'a') return true;
    if (classify(node, a, memo) !== 'inline') return false;
    const inner = a.children(node).filter((c) => !(a.kind(c) === 'text' && !/\S/.test(a.text(c))) && a.kind(c) !== 'comment');
    if (inner.length !== 1) return false;
    node = inner[0];
  }
}

/**
 * A run of sibling nodes cut into the items of a menu, a list of links or a breadcrumb, each then
 * translated on its own: read as one sentence, "<a>Home</a> <a>News</a> <a>Contact</a>" came out
 * as one word in the first link ("Home-Nachrichten-Kontakt") and two empty ones. Items end at a text
 * of only spaces and separating marks between two inline elements (" | ", " › "), and, where the run
 * holds no words outside links, between two links. Otherwise (a sentence with links in it) the run
 * stays whole. The separators stay as they are, outside every item.
 */
export function listItems(run, a, memo = new Map()) {
  const wordless = (n) => a.kind(n) === 'comment' || (a.kind(n) === 'text' && !/[\p{L}\p{N}]/u.test(a.text(n)));
  const linksOnly = run.every((n) => wordless(n) || isLinkLike(n, a, memo)
    || (a.kind(n) === 'element' && ['zero', 'br'].includes(classify(n, a, memo))));
  const inlineElement = (n) => n && a.kind(n) === 'element' && ['inline', 'atomic'].includes(classify(n, a, memo));
  const items = [];
  let item = [];
  const end = () => {
    if (item.length) items.push(item);
    item = [];
  };
  run.forEach((n, i) => {
    const prev = run[i - 1];
    const next = run[i + 1];
    if (a.kind(n) === 'text' && SEPARATOR_TEXT.test(a.text(n)) && inlineElement(prev) && inlineElement(next)) {
      const marked = ITEM_MARK.test(a.text(n));
      if (marked || (linksOnly && isLinkLike(prev, a, memo) && isLinkLike(next, a, memo))) {
        end();
        return; // the separator itself is no item's
      }
    }
    if (linksOnly && isLinkLike(n, a, memo) && isLinkLike(prev, a, memo)) end(); // two links side by side
    item.push(n);
  });
  end();
  const withWords = items.filter((it) => it.some((n) => /[\p{L}\p{N}]/u.test(a.kind(n) === 'text' ? a.text(n) : a.kind(n) === 'element' ? textContent(n, a) : '')));
  return withWords.length >= 2 ? items : [run];
}

/**
 * Reads a run of sibling nodes into what the model sees and where each character came from:
 * {text, charStack, wsRaw, elements, atomics, zeros}. `elements` are records {node, inner, parent,
 * children, start, end} (`inner`: the wrappers inside `node` that hold nothing else, outermost
 * first); a character's stack is the list of records it is inside (outermost first); `wsRaw` maps
 * a collapsed space to the whitespace it stands for.
 */
export function buildSegment(nodes, a, memo = new Map(), { linesEnd = false } = {}) {
  // The text is built a UTF-16 unit an entry and joined once: a string read while it grows is
  // copied whole at each read (a paragraph of 10,000 links took seconds).
  const buf = [];
  let solid = 0; // how many characters other than whitespace so far
  const charStack = [];
  const wsRaw = new Map();
  const elements = [];
  const top = [];
  const atomics = [];
  const zeros = [];
  // `keepLines`: the text's element shows its line breaks (CSS white-space pre-line, pre-wrap, …):
  // each is a break, as a <br> is, written back as it was (collapsed to a space, lines had run together)
  const addText = (s, stack, keepLines = false) => {
    for (const ch of s) {
      // a soft hyphen marks where the source word may break: the model reads the word whole, and
      // the translation breaks its own words (it had copied them, "schöne&shy; &shy;")
      if (ch === '\u00ad') continue;
      if (keepLines && ch === '\n') {
        const at = buf.length - 1;
        const zeroHere = zeros.length && zeros[zeros.length - 1].pos === buf.length; // ("a <img>\n": the image stays on its line)
        if ((buf[at] === ' ' && !zeroHere) || buf[at] === '\n') { // (the space before it becomes the break)
          buf[at] = '\n';
          wsRaw.set(at, (wsRaw.get(at) || '') + ch);
        } else {
          wsRaw.set(buf.length, ch);
          buf.push('\n');
          charStack.push(stack);
        }
        continue;
      }
      if (ASCII_SPACE.test(ch)) {
        const last = buf[buf.length - 1];
        if (last === ' ' || last === '\n') {
          // a space collapsed right after an image that has one before it too ("a <img> b"): the
          // image keeps a space on each side in the translation; that whitespace is the image's
          // to write after it (between a label and the button after it, not inside the label)
          const z = zeros[zeros.length - 1];
          if (z && z.pos === buf.length && last === ' ') {
            z.spaceAfter = true;
            z.rawAfter = (z.rawAfter || '') + ch;
          } else if (wsRaw.has(buf.length - 1)) wsRaw.set(buf.length - 1, wsRaw.get(buf.length - 1) + ch);
          continue;
        }
        wsRaw.set(buf.length, ch);
        buf.push(' ');
        charStack.push(stack);
      } else {
        if (!/\s/.test(ch)) solid += 1;
        for (let k = 0; k < ch.length; k++) {
          charStack.push(stack);
          buf.push(ch[k]);
        }
      }
    }
  };
  const breaks = new Map(); // position of a <br>'s line break → the <br>s there (zeros)
  const addBreak = (node, stack) => {
    if (buf[buf.length - 1] === ' ') {
      buf.pop();
      charStack.pop();
      wsRaw.delete(buf.length);
      // what stood after that space stays before the break ("x <wbr><b><br>y</b>": the <wbr> after
      // the <br> split the <b> in two)
      for (let i = zeros.length - 1; i >= 0 && zeros[i].pos > buf.length; i--) zeros[i].pos = buf.length;
    }
    const z = { node, pos: buf.length, stack, br: true };
    zeros.push(z);
    if (buf[buf.length - 1] === '\n') {
      if (breaks.has(buf.length - 1)) breaks.get(buf.length - 1).push(z);
    } else {
      breaks.set(buf.length, [z]);
      wsRaw.set(buf.length, ''); // the <br> itself writes no whitespace; what follows it is kept
      buf.push('\n');
      charStack.push(stack);
    }
  };
  // (a generator run by runFlat: `yield visit(...)` is the recursive call)
  function* visit(node, stack, parent) {
    const kind = a.kind(node);
    if (kind === 'text') {
      addText(a.text(node), stack, Boolean(a.keepsLines && a.keepsLines(node)));
      return;
    }
    if (kind !== 'element') {
      zeros.push({ node, pos: buf.length, stack });
      return;
    }
    const k = classify(node, a, memo);
    if (k === 'br') {
      addBreak(node, stack);
    } else if (k === 'zero' || k === 'skip' || k === 'block') {
      zeros.push({ node, pos: buf.length, stack });
    } else if (k === 'atomic' || stack.length >= MAX_INLINE_DEPTH) { // (too deep: kept as it is)
      const start = buf.length;
      addText(textContent(node, a), stack);
      const inner = buf.slice(start).join('');
      if (/\S/.test(inner)) {
        const s = start + (inner.length - inner.trimStart().length);
        const e = buf.length - (inner.length - inner.trimEnd().length);
        atomics.push({ node, start: s, end: e, words: new Set(inner.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) });
      } else zeros.push({ node, pos: start, stack });
    } else { // inline
      // Wrappers with nothing else inside ("<b><i>word</i></b>") cover the same words: one record,
      // its `inner` elements written inside `node`, so a chain of any length costs one level.
      const inner = [];
      for (let n = node; ;) {
        const only = a.children(n);
        if (only.length !== 1 || a.kind(only[0]) !== 'element' || classify(only[0], a, memo) !== 'inline') break;
        n = only[0];
        inner.push(n);
      }
      const rec = { node, inner, parent, children: [], start: buf.length, end: buf.length, stack: null };
      rec.stack = [...stack, rec];
      const mark = { text: buf.length, solid, zeros: zeros.length, atomics: atomics.length, elements: elements.length };
      for (const c of a.children(inner.length ? inner[inner.length - 1] : node)) yield visit(c, rec.stack, rec);
      rec.end = buf.length;
      if (solid === mark.solid) {
        // No words: the element travels whole, like an image.
        for (let p = mark.text; p < buf.length; p++) charStack[p] = stack;
        zeros.length = mark.zeros;
        atomics.length = mark.atomics;
        elements.length = mark.elements;
        zeros.push({ node, pos: mark.text, stack });
        return;
      }
      elements.push(rec);
      (parent ? parent.children : top).push(rec);
    }
  }
  for (const n of nodes) runFlat(visit(n, [], null));
  // A single <br> inside running text ("Please call<br>our office today.") breaks the line, not the
  // sentence: the model reads a space there (two translations of half a sentence each read badly) and
  // the <br> lands in the translated sentence. It ends the line's sentence where the line ends one or
  // reads as a label or a line of an address: after . ! ? : or a line of one word, before a capital,
  // a digit or a mark, two <br>s in a row, and in an <address>.
  // A sentence joined so would be longer than MAX_JOINED characters: the lines stay apart (a list
  // of lowercase lines is no sentence; the engine would cut it anywhere).
  const before = buf.join('');
  const softAt = new Set();
  const sentenceStartsWithin = (q) => {
    const from = Math.max(0, q - MAX_JOINED);
    for (let i = q - 1; i >= from; i--) {
      const c = before[i];
      if ((c === '\n' && !softAt.has(i)) || (/[.!?]/.test(c) && /\s/.test(before[i + 1]))) return true;
    }
    return from === 0;
  };
  for (const [q, brs] of linesEnd ? [] : breaks) {
    if (brs.length !== 1 || buf[q] !== '\n') continue;
    const line = before.slice(before.lastIndexOf('\n', q - 1) + 1, q);
    if (!/[\p{L}\p{N},;]$/u.test(line) || (line.match(/[\p{L}\p{N}]+/gu) || []).length < 2 || !/^\p{Ll}/u.test(before.slice(q + 1, q + 3))) continue;
    if (!sentenceStartsWithin(q)) continue;
    softAt.add(q);
    buf[q] = ' ';
    brs[0].soft = true;
    brs[0].breakRaw = wsRaw.get(q) || ''; // (written where the model's space was)
  }
  const text = buf.join('');
  // Records dropped with an empty parent may still sit in a parent's children list.
  const kept = new Set(elements);
  for (const r of elements) r.children = r.children.filter((c) => kept.has(c));
  return { text, charStack, wsRaw, elements, top: top.filter((r) => kept.has(r)), atomics, zeros };
}

/**
 * The value an <option> without a value attribute has (its text, whitespace collapsed), which its
 * translated text would change (the form would send "Roter Apfel" for "Red apple"): the caller sets
 * it as the attribute. null for any other element.
 */
export function optionValue(node, a) {
  if (!node || a.kind(node) !== 'element' || a.name(node) !== 'option' || a.attr(node, 'value') !== null) return null;
  return textContent(node, a).replace(/[ \t\n\f\r]+/g, ' ').trim();
}

/** The text of an element as the model should read it (skipped content left out). */
export function textContent(node, a) {
  let s = '';
  const todo = [...a.children(node)].reverse(); // nodes still to read, the next one last
  while (todo.length) {
    const c = todo.pop();
    const k = a.kind(c);
    if (k === 'text') s += a.text(c);
    else if (k === 'element') {
      const name = a.name(c);
      if (name === 'br') s += '\n';
      else if (!SKIP.has(name) && !RUBY_TEXT.has(name)) {
        const children = a.children(c);
        for (let i = children.length - 1; i >= 0; i--) todo.push(children[i]);
      }
    }
  }
  return s;
}

/**
 * The words placeSegment() put inside `node` (an inline element of the segment), as they read:
 * for an attribute that repeats the element's text (a segment's followers). '' when it was lost.
 */
export function placedText(pieces, node) {
  return pieces.filter((p) => p.text && p.stack && p.stack.some((r) => r.node === node || r.inner.includes(node))).map((p) => p.text).join('')
    .replace(/\s+/g, ' ').trim();
}

const commonPrefix = (x, y) => {
  let k = 0;
  while (k < x.length && k < y.length && x[k] === y[k]) k++;
  return k === x.length ? x : x.slice(0, k);
};

/**
 * Places a translated segment: `sentences` are the engine's Sentences of the segment's text, with
 * `sourceRange` local to it (their target text with alignments). Returns {pieces, lost, placed}:
 * pieces in output order, each {text} or {node} (an atomic, zero-width or lost element), with
 * `stack` (the inline element records it is inside, outermost first).
 */
export function placeSegment(seg, sentences, placement = 'span') {
  // 1. Source words: where they are, the stack they are in, the atomic element they belong to.
  const words = []; // target words, over the whole segment
  const atomicOf = []; // text position → the atomic element holding it
  for (const at of seg.atomics) for (let p = at.start; p < at.end; p++) atomicOf[p] = at;
  const sent = sentences.map((s, index) => {
    const off = s.sourceRange[0];
    const src = (s.sourceWords || []).map(([b, e]) => {
      const counts = new Map();
      let best = null;
      let bestN = 0;
      let atomic = null;
      for (let p = off + b; p < off + e; p++) {
        const st = seg.charStack[p] || [];
        const n = (counts.get(st) || 0) + 1;
        counts.set(st, n);
        if (n > bestN) {
          best = st;
          bestN = n;
        }
        if (!atomic) atomic = atomicOf[p] || null;
      }
      return { start: off + b, end: off + e, stack: best || [], atomic };
    });
    const first = words.length;
    const tw = s.targetWords || [];
    const hard = new Map();
    for (const al of s.wordAlignments || []) {
      const prev = hard.get(al.target);
      if (!prev || al.weight > prev.weight) hard.set(al.target, al);
    }
    tw.forEach((range, t) => {
      let sw = hard.has(t) ? hard.get(t).source : -1;
      if (sw < 0 && s.wordAttention && s.wordAttention[t]) {
        const row = s.wordAttention[t];
        let m = 0;
        for (let k = 1; k < row.length; k++) if (row[k] > row[m]) m = k;
        if (row.length && row[m] > 0) sw = m;
      }
      const w = src[sw] || null;
      words.push({ sentence: s, t, range, src: w, hard: hard.has(t), weight: hard.has(t) ? hard.get(t).weight : 0, owner: w ? w.stack : [], atomic: w ? w.atomic : null, stack: [] });
    });
    return { s, src, first, count: tw.length, index };
  });
  const sentenceOf = new Map(sent.map((si) => [si.s, si]));
  // the sentence whose source range holds `pos` (the first of two that meet there), or undefined
  const sentenceAt = (pos) => {
    let lo = 0;
    let hi = sent.length;
    while (lo < hi) { // the first sentence that starts after pos
      const mid = (lo + hi) >> 1;
      if (sent[mid].s.sourceRange[0] <= pos) lo = mid + 1;
      else hi = mid;
    }
    let k = lo - 1;
    if (k > 0 && sent[k - 1].s.sourceRange[1] >= pos) k -= 1;
    return k >= 0 && pos <= sent[k].s.sourceRange[1] ? sent[k] : undefined;
  };

  // Atomic elements: at the aligned target word that most surely says them (below). The element
  // keeps its own text, so another target word that translates it (hard-aligned to it: "Enter" -> "Eingabetaste") or repeats
  // it would say it twice: dropped, and counted as the first word where elements take their words
  // (a link around the element goes around it, wherever its words' attention went).
  const atomicAt = new Map(); // target word index → the atomic element written there
  const dropped = new Map(); // dropped target word index → the index its element is written at
  const wordsOfAtomic = new Map(); // atomic element → [[word, index]] of the target words aligned to it
  words.forEach((w, g) => {
    if (!w.atomic) return;
    if (!wordsOfAtomic.has(w.atomic)) wordsOfAtomic.set(w.atomic, []);
    wordsOfAtomic.get(w.atomic).push([w, g]);
  });
  for (const at of seg.atomics) {
    const ws = wordsOfAtomic.get(at) || [];
    if (!ws.length) continue;
    atomicAt.set(ws[0][1], at);
    const repeats = (w) => w.sentence.target.slice(...w.range).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
      .every((p) => at.words.has(p));
    // a mark alone goes where the element holds it ("(" of "require()") and when it is a quotation
    // mark (the „ “ the engine wrote for the element's ", or around its words), not a "#" after it
    const kept = seg.text.slice(at.start, at.end);
    const says = (w) => {
      const text = w.sentence.target.slice(...w.range);
      if (/[\p{L}\p{N}]/u.test(text)) return w.hard || repeats(w);
      return kept.includes(text) || [...text].every((c) => /["'„“”«»‹›‚‘’]/u.test(c));
    };
    // written at the word that most surely says it: one that repeats its words ("npm" of "npm
    // install"), else the most strongly hard-aligned one ("Eingabetaste" for "Enter", not the
    // article before it), else the first aligned word
    const wordy = (w) => /[\p{L}\p{N}]/u.test(w.sentence.target.slice(...w.range));
    const saying = ws.filter(([w]) => wordy(w) && says(w));
    const chosen = saying.find(([w]) => repeats(w))
      || saying.reduce((best, x) => (!best || x[0].weight > best[0].weight ? x : best), null) || ws[0];
    // (from the first of the aligned words right before it that say it too: the „ of „type“)
    let k = ws.indexOf(chosen);
    while (k > 0 && ws[k - 1][1] === ws[k][1] - 1 && ws[k - 1][0].sentence === ws[k][0].sentence && says(ws[k - 1][0])) k--;
    const anchor = ws[k];
    atomicAt.delete(ws[0][1]);
    atomicAt.set(anchor[1], at);
    for (const [w, g] of ws) if (g !== anchor[1] && says(w)) dropped.set(g, anchor[1]);
    anchor[0].keep = !says(anchor[0]);
  }

  // 2. Each element's own words: target words whose source word is inside it.
  const own = new Map(seg.elements.map((r) => [r, new Set()]));
  words.forEach((w, g) => {
    for (const r of w.owner) own.get(r).add(dropped.has(g) ? dropped.get(g) : g);
  });
  // An element with words but no hard-aligned target word takes its strongest soft-aligned one.
  for (const r of seg.elements) {
    if (own.get(r).size) continue;
    let best = -1;
    let bestW = 0;
    for (const si of sent) {
      si.src.forEach((sw, k) => {
        if (sw.end <= r.start || sw.start >= r.end || !sw.stack.includes(r)) return;
        const att = si.s.wordAttention || [];
        for (let t = 0; t < si.count; t++) {
          const v = att[t] && !dropped.has(si.first + t) ? att[t][k] : 0; // a dropped word is never written
          if (v > bestW) {
            bestW = v;
            best = si.first + t;
          }
        }
      });
    }
    if (best >= 0) for (let x = r; x; x = x.parent) own.get(x).add(best);
  }
  // An element around one atomic element and nothing else (a link on a code element) goes where
  // that element goes: on the words of its own it would take another code's place when the model
  // confuses two of them (two links swapped on a Node.js page).
  const atomicWord = new Map([...atomicAt].map(([g, at]) => [at, g]));
  const firstAtomicFrom = (pos) => { // (atomics are disjoint, in text order)
    let lo = 0;
    let hi = seg.atomics.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seg.atomics[mid].start < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  for (const r of seg.elements) {
    const from = firstAtomicFrom(r.start);
    const only = firstAtomicFrom(r.end) - from === 1 ? [seg.atomics[from]] : [];
    if (only.length !== 1 || /\S/.test(seg.text.slice(r.start, only[0].start) + seg.text.slice(only[0].end, r.end))) continue;
    const g = atomicWord.get(only[0]);
    own.set(r, new Set(g === undefined ? [] : [g]));
    if (g !== undefined) for (let x = r.parent; x; x = x.parent) own.get(x).add(g);
  }

  // Each element keeps the contiguous run of its words with the most attention on its source words:
  // a word counts for it by (its soft attention on the element's source words) - 1/2, and the run
  // of largest sum between its first and last hard-aligned words is kept (an article or auxiliary
  // whose attention mostly went to the next source word no longer stretches the element).
  if (placement === 'span') {
    for (const r of seg.elements) {
      const set = own.get(r);
      if (set.size < 2) continue;
      const lo = Math.min(...set);
      const hi = Math.max(...set);
      const mass = (g) => {
        const w = words[g];
        const si = sentenceOf.get(w.sentence);
        const row = (si.s.wordAttention || [])[w.t] || [];
        let m = 0;
        si.src.forEach((sw, k) => { if (sw.stack.includes(r) || (sw.atomic && r.start <= sw.start && sw.end <= r.end)) m += row[k] || 0; });
        return m;
      };
      let best = null;
      let cur = 0;
      let start = lo;
      for (let g = lo; g <= hi; g++) {
        const v = mass(g) - 0.5;
        if (cur <= 0) {
          cur = v;
          start = g;
        } else cur += v;
        if (!best || cur > best.sum) best = { sum: cur, b: start, e: g };
      }
      const kept = [...set].filter((g) => g >= best.b && g <= best.e);
      if (kept.length) own.set(r, new Set(kept));
    }
  }

  // An element's first or last word that is only marks its source text lacks stays outside it: the
  // "," the model wrote before "<q>I am tired</q>" ("sagte<q>, ich bin müde</q>"), the "." after
  // "<em>3:45 pm</em>." ("<em>15:45 Uhr.</em>").
  for (const r of seg.elements) {
    const set = [...own.get(r)].sort((x, y) => x - y);
    const inner = seg.text.slice(r.start, r.end);
    const foreign = (g) => {
      const w = words[g];
      const text = w.sentence.target.slice(...w.range);
      // (not the full stop of an abbreviation: "7:30 p.m." for "<em>19:30 Uhr</em>.")
      const before = g > 0 && words[g - 1].sentence === w.sentence && words[g - 1].range[1] === w.range[0]
        ? w.sentence.target.slice(...words[g - 1].range) : '';
      if (text === '.' && /^\p{L}$/u.test(before)) return false;
      return !/[\p{L}\p{N}]/u.test(text) && !inner.includes(text);
    };
    let b = 0;
    let e = set.length - 1;
    while (b < e && foreign(set[b])) b++;
    while (e > b && foreign(set[e])) e--;
    if (b > 0 || e < set.length - 1) own.set(r, new Set(set.slice(b, e + 1)));
  }

  // 3. Ranges, top down: inside the parent, siblings not overlapping.
  const range = new Map();
  function* resolve(records, lo, hi) { // (run by runFlat: `yield resolve(...)` is the recursive call)
    const live = [];
    for (const r of records) {
      const set = new Set([...own.get(r)].filter((g) => g >= lo && g <= hi));
      own.set(r, set);
      if (set.size) live.push(r);
    }
    const span = (r) => {
      const v = [...own.get(r)];
      return [Math.min(...v), Math.max(...v)];
    };
    for (let pass = 0; pass < 4; pass++) {
      live.sort((x, y) => span(x)[0] - span(y)[0]);
      let changed = false;
      for (let i = 0; i + 1 < live.length; i++) {
        const x = live[i];
        const y = live[i + 1];
        if (!own.get(x).size || !own.get(y).size) continue;
        if (span(y)[0] > span(x)[1]) continue;
        splitPair(x, y);
        changed = true;
      }
      if (!changed) break;
    }
    // the ranges of the siblings placed so far: disjoint, sorted by start (so by end too)
    const placed = [];
    const overlapsPlaced = (b, e) => {
      let lo = 0;
      let hi = placed.length;
      while (lo < hi) { // the first placed range that starts after e
        const mid = (lo + hi) >> 1;
        if (placed[mid][0] <= e) lo = mid + 1;
        else hi = mid;
      }
      return lo > 0 && placed[lo - 1][1] >= b;
    };
    for (const r of live) {
      if (!own.get(r).size) continue;
      const [b, e] = span(r);
      // Still overlapping an earlier sibling after the passes: lost.
      if (overlapsPlaced(b, e)) {
        own.set(r, new Set());
        continue;
      }
      range.set(r, [b, e]);
      let at = placed.length;
      while (at > 0 && placed[at - 1][0] > b) at--;
      placed.splice(at, 0, [b, e]);
      yield resolve(r.children, b, e);
    }
  }
  const splitPair = (x, y) => {
    const X = own.get(x);
    const Y = own.get(y);
    const all = [...X, ...Y];
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    let best = null;
    for (const [first, second] of [[x, y], [y, x]]) {
      const F = own.get(first);
      const S = own.get(second);
      for (let c = lo + 1; c <= hi; c++) {
        const f = [...F].filter((g) => g < c);
        const s = [...S].filter((g) => g >= c);
        if (!f.length || !s.length) continue;
        const score = f.length + s.length;
        if (!best || score > best.score) best = { score, first, second, f, s };
      }
    }
    if (!best) { // one of them cannot be placed beside the other: the one with fewer words goes
      if (X.size >= Y.size) own.set(y, new Set());
      else own.set(x, new Set());
      return;
    }
    own.set(best.first, new Set(best.f));
    own.set(best.second, new Set(best.s));
  };
  runFlat(resolve(seg.top, 0, words.length - 1));

  // 4.-6. as a function of the ranges, done again without the elements that came out with nothing
  // written (all their words left out as an atomic element's own, or their word's text replaced):
  // those are kept, empty, where their text began, and counted as lost; none may vanish.
  const unplaced = new Set();
  const place = () => {
    // 4. Each target word's final stack.
    // (siblings' ranges are disjoint: the one that holds a word is found by bisection)
    const ranged = new Map(); // a level (list of siblings) → its ranged records, by range start
    const holding = (level, g) => {
      if (!ranged.has(level)) ranged.set(level, level.filter((x) => range.has(x)).sort((x, y) => range.get(x)[0] - range.get(y)[0]));
      const list = ranged.get(level);
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (range.get(list[mid])[0] <= g) lo = mid + 1;
        else hi = mid;
      }
      return lo > 0 && g <= range.get(list[lo - 1])[1] ? list[lo - 1] : undefined;
    };
    words.forEach((w, g) => {
      const stack = [];
      let level = seg.top;
      for (;;) {
        const r = holding(level, g);
        if (!r) break;
        stack.push(r);
        level = r.children;
      }
      w.stack = stack;
    });

    // 5. Pieces in output order.
    let lost = seg.elements.filter((r) => !range.has(r) && !(r.parent && !range.has(r.parent)));
    // An element inside a word ("km<sup>2</sup>", "H<sub>2</sub>O") has no word of its own; where the
    // model wrote that word unchanged, the element goes back on the same letters.
    // (a word may hold several: "<b>x</b><i>y</i><u>z</u>", a span per letter)
    const holdersOf = new Map(); // source word → the target words that hold it once
    const partsEnd = new Map(); // target word index → where its last-ending part ends
    const inWord = new Map(); // target word index → [{rec, from, to, stack}] (offsets in the word's text), in order
    for (const r of lost) {
      if (r.children.length || unplaced.has(r)) continue;
      const si = sentenceAt(r.start);
      const sw = si && si.src.find((x) => x.start <= r.start && r.end <= x.end);
      if (!sw || (sw.start === r.start && sw.end === r.end)) continue;
      // the one target word aligned to it that holds it once ("km2"), else the one word of the
      // sentence that does ("CO2" in "CO2-Emissionen", aligned to "emissions")
      const source = seg.text.slice(sw.start, sw.end);
      const ofSentence = words.slice(si.first, si.first + si.count).map((w, t) => [w, si.first + t]);
      if (!holdersOf.has(sw)) { // (the same for every element in that word: a word of 10,000 spans)
        const holds = ([w]) => {
          const text = w.sentence.target.slice(...w.range);
          return text.indexOf(source) >= 0 && text.indexOf(source) === text.lastIndexOf(source);
        };
        const candidates = ofSentence.filter(holds);
        const aligned = candidates.filter(([w]) => w.src === sw);
        holdersOf.set(sw, aligned.length ? aligned : candidates);
      }
      let targets = holdersOf.get(sw);
      let from = (w) => w.sentence.target.slice(...w.range).indexOf(source) + r.start - sw.start;
      if (targets.length !== 1) {
        // else the element's own part of a hyphenated word, in the target word aligned to it that
        // holds that part once ("<a>ZSH</a>-like" -> "ZSH-artige")
        const part = seg.text.slice(r.start, r.end);
        const bounded = (text, at, length) => (at === 0 || text[at - 1] === '-') && (at + length === text.length || text[at + length] === '-');
        if ((part.match(/[\p{L}\p{N}]/gu) || []).length < 2 || !bounded(source, r.start - sw.start, part.length)) continue;
        targets = ofSentence.filter(([w]) => {
          const text = w.sentence.target.slice(...w.range);
          const at = text.indexOf(part);
          return w.src === sw && at >= 0 && at === text.lastIndexOf(part) && bounded(text, at, part.length);
        });
        if (targets.length !== 1) continue;
        from = (w) => w.sentence.target.slice(...w.range).indexOf(part);
      }
      const [w, g] = targets[0];
      const parentAt = r.parent ? w.stack.indexOf(r.parent) : -1;
      if (r.parent && parentAt < 0) continue;
      const at = from(w);
      const parts = inWord.get(g) || [];
      // (letters another holds; none where it starts after the end of every part: a word of spans)
      if (at < (partsEnd.get(g) || 0) && parts.some((x) => x.from < at + r.end - r.start && at < x.to)) continue;
      partsEnd.set(g, Math.max(partsEnd.get(g) || 0, at + r.end - r.start));
      parts.push({ rec: r, from: at, to: at + r.end - r.start, stack: [...w.stack.slice(0, parentAt + 1), r] });
      inWord.set(g, parts);
    }
    for (const parts of inWord.values()) parts.sort((x, y) => x.from - y.from);
    const placedInWords = new Set([...inWord.values()].flat().map((x) => x.rec));
    lost = lost.filter((r) => !placedInWords.has(r));
    const anchored = new Map(); // target word index (or `s:<k>` for a sentence's start) → items
    const gapItems = []; // items outside every sentence: {pos, item}
    const zeroInWord = new Map(); // target word index → [{at, item}]: items inside the word (offset in its text)
    const addAnchor = (pos, item) => {
      const si = sentenceAt(pos);
      if (!si || (pos === si.s.sourceRange[1] && pos === si.s.sourceRange[0])) {
        gapItems.push({ pos, item });
        return;
      }
      if (pos === si.s.sourceRange[1]) { // at the end of the sentence: after its last word
        const key = si.count ? si.first + si.count - 1 : `s${si.index}`;
        if (!anchored.has(key)) anchored.set(key, []);
        anchored.get(key).push(item);
        return;
      }
      // the target word most aligned to the source word k
      const saying = (k) => {
        let best = -1;
        let bestW = -1;
        for (let t = 0; t < si.count; t++) {
          const w = words[si.first + t];
          const v = w.src === si.src[k] ? 2 : ((si.s.wordAttention || [])[t] || [])[k] || 0;
          if (v > bestW) {
            bestW = v;
            best = si.first + t;
          }
        }
        return best;
      };
      // A <br> inside a sentence (buildSegment): before the target word that says the source word
      // after it, the line's first ("Bitte rufen Sie heute<br>unser Büro an", not "an<br>."), unless
      // that word begins the sentence.
      const next = item.soft ? si.src.findIndex((sw) => sw.start >= pos) : -1;
      const first = next >= 0 && si.count ? saying(next) : -1;
      if (first > si.first) {
        if (!anchored.has(first - 1)) anchored.set(first - 1, []);
        anchored.get(first - 1).push(item);
        return;
      }
      // Inside a source word ("beau<wbr>tiful", "super<wbr>cali<wbr>fragilistic"): in the target
      // word that says it, on the same letters where it is that word unchanged, else right after
      // it (before the word, where the word before would put it, it broke the line in the wrong place).
      const within = si.src.findIndex((sw) => sw.start < pos && pos < sw.end);
      const g = within >= 0 && si.count ? saying(within) : -1;
      if (g >= 0 && !dropped.has(g) && !atomicAt.has(g)) {
        const sw = si.src[within];
        const text = words[g].sentence.target.slice(...words[g].range);
        const source = seg.text.slice(sw.start, sw.end);
        const at = text.indexOf(source);
        if (at >= 0 && at === text.lastIndexOf(source)) {
          if (!zeroInWord.has(g)) zeroInWord.set(g, []);
          zeroInWord.get(g).push({ at: at + pos - sw.start, item });
          return;
        }
        if (!anchored.has(g)) anchored.set(g, []);
        anchored.get(g).push(item);
        return;
      }
      // After the target word most aligned to the source word before `pos` (and after the space
      // that follows it when the source had one there).
      let k = -1;
      si.src.forEach((sw, j) => { if (sw.end <= pos) k = j; });
      if (k >= 0 && /\s/.test(seg.text.slice(si.src[k].end, pos))) item = { ...item, afterSpace: true };
      let key = `s${si.index}`;
      if (k >= 0 && si.count) {
        const best = saying(k);
        if (best >= 0) key = best;
      }
      if (!anchored.has(key)) anchored.set(key, []);
      anchored.get(key).push(item);
    };
    for (const z of seg.zeros) addAnchor(z.pos, { node: z.node, spaceAfter: z.spaceAfter, rawAfter: z.rawAfter, home: z.stack, pos: z.pos, soft: z.soft, breakRaw: z.breakRaw, br: z.br });
    // A lost element: kept empty with the inline elements inside it, and the atomic elements inside
    // it that got no word either (`inside`: [{rec, node}], each in the innermost element holding it).
    const lostItems = lost.map((r) => ({ node: r.node, rec: r, empty: true, inside: [] }));
    const innermost = (rec, at) => {
      for (let child = rec; child; child = rec.children.find((c) => c.start <= at.start && at.end <= c.end)) rec = child;
      return rec;
    };
    // Atomic elements the model wrote no word for: where they stood, a word of their own ("zu
    // <code>x</code> verwenden"), or inside the lost element around them ("<a><code>System Error</code></a>").
    for (const at of seg.atomics) {
      if (words.some((w) => w.atomic === at)) continue;
      const holder = lostItems.find((x) => x.rec.start <= at.start && at.end <= x.rec.end);
      if (holder) holder.inside.push({ rec: innermost(holder.rec, at), node: at.node });
      else addAnchor(at.start, { node: at.node, spaceAfter: /\s/.test(seg.text[at.end] || '') });
    }
    for (const item of lostItems) {
      // holding an atomic element, it reads as a word: spaced as in the source
      if (item.inside.length) item.spaceAfter = /\s/.test(seg.text[item.rec.end] || '');
      addAnchor(item.rec.start, item);
    }

    const pieces = [];
    const pushText = (text, stack = null) => {
      if (text) pieces.push({ text, stack });
    };
    let deferred = []; // items to write after the text that follows the word they are anchored to
    let spaceNext = false; // an item the source spaced from what follows it: a space before the next word or item
    let breakBefore = null; // a <br> inside the sentence was just written: it stands for the space the model wrote next (the whitespace after it in the source)
    const spaced = () => {
      const last = pieces[pieces.length - 1];
      return !last || (last.text !== undefined && /\s$/.test(last.text));
    };
    const pushAnchored = (item) => { // ("<img> <img> word": each keeps the space after it)
      if (spaceNext && !spaced()) pieces.push({ text: ' ', stack: null });
      pieces.push({ ...item, stack: null });
      spaceNext = Boolean(item.spaceAfter);
      breakBefore = item.soft ? item.breakRaw : null;
    };
    const flushAnchors = (key) => {
      for (const item of anchored.get(key) || []) {
        if (item.afterSpace) deferred.push(item);
        else pushAnchored(item);
      }
    };
    const flushDeferred = () => {
      deferred.forEach((item, i) => {
        // (the source had a space before the first: kept where the model wrote none, as after a
        // sentence's last word; between the items, what pushAnchored keeps)
        if (i === 0 && item.afterSpace && !spaced()) pieces.push({ text: ' ', stack: null });
        pushAnchored(item);
      });
      deferred = [];
    };
    const spaceBeforeWord = (word) => { // never before punctuation: "<code>x</code>, das"
      if (spaceNext && !spaced() && !/^[\p{Pe}\p{Pf}.,;:!?%]/u.test(word)) pieces.push({ text: ' ', stack: null });
      spaceNext = false;
    };
    const gapAt = new Map(); // position → the items outside every sentence there, in order
    for (const x of gapItems) {
      if (!gapAt.has(x.pos)) gapAt.set(x.pos, []);
      gapAt.get(x.pos).push(x.item);
    }
    const sourceGap = (from, to) => {
      for (let p = from; p <= to; p++) {
        for (const item of gapAt.get(p) || []) {
          pieces.push({ ...item, stack: null });
          pushText(item.rawAfter || ''); // outside a sentence its own whitespace follows it
        }
        gapAt.delete(p); // (once)
        if (p < to) pushText(seg.wsRaw.has(p) ? seg.wsRaw.get(p) : seg.text[p]);
      }
    };
    let pos = 0;
    sent.forEach((si, k) => {
      const s = si.s;
      sourceGap(pos, s.sourceRange[0]);
      pos = s.sourceRange[1];
      flushAnchors(`s${k}`);
      let cursor = 0;
      for (let t = 0; t < si.count; t++) {
        const g = si.first + t;
        const w = words[g];
        if (dropped.has(g)) { // the atomic element's own words: left out with the space before them
          cursor = w.range[1];
          flushAnchors(g);
          continue;
        }
        let gap = s.target.slice(cursor, w.range[0]).replace(/ {2,}/g, ' '); // (" ⁇ " comes with spaces of its own)
        // a no-break space the source had between the two words these say ("10&nbsp;km", "Mr.&nbsp;Smith"),
        // which the engine writes as a space: kept, so the words still stay on one line (where one of
        // them is its source word as written: not between the words of a glossary's own term)
        const prev = t > 0 ? words[g - 1] : null;
        const kept = (x) => x.sentence.target.slice(...x.range) === seg.text.slice(x.src.start, x.src.end);
        if (gap === ' ' && prev && prev.src && w.src && /^[^\s\p{L}\p{N}]*\u00a0[^\s\p{L}\p{N}]*$/u.test(seg.text.slice(prev.src.end, w.src.start))
          && (kept(prev) || kept(w))) gap = '\u00a0';
        pushText(breakBefore === null ? gap : gap.replace(/^ /, breakBefore));
        breakBefore = null;
        flushDeferred();
        spaceBeforeWord(s.target.slice(...w.range));
        if (atomicAt.has(g)) {
          const at = atomicAt.get(g);
          // marks the model glued to the word before ("Doppelkolon::") stand apart, as the element did
          const glued = w.range[0] > 0 && /[\p{L}\p{N}]/u.test(s.target[w.range[0] - 1]) && !/[\p{L}\p{N}]/u.test(s.target.slice(...w.range));
          if (glued && /\s/.test(seg.text[at.start - 1] || '')) pushText(' ');
          pieces.push({ node: at.node, stack: w.stack });
          if (w.keep) pushText(` ${s.target.slice(...w.range)}`, w.stack);
        } else {
          // A word the model could only write as its unknown-piece mark (" ⁇ ": a symbol or script
          // its vocabulary lacks) is written as the source word it is aligned to.
          let wt = s.target.slice(...w.range);
          if (wt === '\u2047' && w.src) wt = seg.text.slice(w.src.start, w.src.end);
          const parts = inWord.get(g);
          const zs = (zeroInWord.get(g) || []).sort((x, y) => x.at - y.at);
          let zi = 0;
          const pushWord = (from, to, stack) => { // (with the items inside the word between its letters)
            for (; zi < zs.length && zs[zi].at < to; zi++) {
              const at = Math.max(from, zs[zi].at);
              pushText(wt.slice(from, at), stack);
              from = at;
              pieces.push({ ...zs[zi].item, stack: null });
            }
            pushText(wt.slice(from, to), stack);
          };
          if (parts) {
            // an element of the word's that a part closed is not opened again after it (it would be
            // written twice: "<b>x</b><i>y</i><b>z</b>")
            let open = w.stack;
            let at = 0;
            for (const part of parts) {
              pushWord(at, part.from, open);
              pushWord(part.from, part.to, part.stack);
              open = commonPrefix(open, part.stack);
              at = part.to;
            }
            pushWord(at, wt.length, open);
          } else pushWord(0, wt.length, w.stack);
          for (; zi < zs.length; zi++) pieces.push({ ...zs[zi].item, stack: null });
        }
        cursor = w.range[1];
        flushAnchors(g);
      }
      pushText(s.target.slice(cursor));
      flushDeferred();
      spaceNext = false; // nothing of this sentence follows
    });
    sourceGap(pos, seg.text.length);

    // 6. An image, input or comment stays inside the elements it was in that are open on either side
    // of it ("<label>Name <input></label>" keeps the input in the label); then text between words goes
    // inside what both sides are inside.
    const around = (i) => {
      let prev = [];
      let next = [];
      for (let j = i - 1; j >= 0; j--) if (pieces[j].stack) { prev = pieces[j].stack; break; }
      for (let j = i + 1; j < pieces.length; j++) if (pieces[j].stack) { next = pieces[j].stack; break; }
      return [prev, next];
    };
    // One whose neighbours' words moved away from its element ("<a><img> Home page</a>", the words
    // reordered) goes to that element's first word (it stood at the element's start) or its last.
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i];
      // (not a <br>: it breaks the line where it stands, between two sentences or where its line
      // begins, and moved away it had glued the words on both sides, "deltaeta")
      const r = !p.stack && p.home && !p.moved && !p.br ? p.home.filter((x) => range.has(x)).pop() : null;
      if (!r) continue;
      const [prev, next] = around(i);
      if (prev.includes(r) || next.includes(r) || !pieces.some((q) => q.stack && q.stack.includes(r))) continue;
      const atStart = !/\S/.test(seg.text.slice(r.start, p.pos));
      pieces.splice(i, 1);
      // the space it leaves at the start, or beside another space, goes too
      if (pieces[i] && /^\s+$/.test(pieces[i].text || '') && (i === 0 || /\s$/.test(pieces[i - 1].text || ''))) pieces.splice(i, 1);
      const inside = pieces.map((q, j) => (q.stack && q.stack.includes(r) ? j : -1)).filter((j) => j >= 0);
      const space = { text: ' ', stack: null };
      p.moved = true;
      if (atStart) pieces.splice(inside[0], 0, p, ...(p.spaceAfter || /\s/.test(seg.text[p.pos] || '') ? [space] : []));
      else pieces.splice(inside[inside.length - 1] + 1, 0, ...(/\s/.test(seg.text[p.pos - 1] || '') ? [space] : []), p);
      i = -1; // indices moved: look again
    }
    const homes = pieces.map((p, i) => {
      if (p.stack || !p.home || !p.home.length) return null;
      const [prev, next] = around(i);
      const withPrev = commonPrefix(p.home, prev);
      const withNext = commonPrefix(p.home, next);
      return withPrev.length >= withNext.length ? withPrev : withNext;
    });
    homes.forEach((h, i) => { if (h) pieces[i].stack = h; });
    for (let i = 0; i < pieces.length; i++) {
      if (pieces[i].stack) continue;
      const [prev, next] = around(i);
      pieces[i].stack = commonPrefix(prev, next);
    }
    // A piece without words (an image, a comment, a <br>, spaces) goes inside the elements open on
    // both sides of it: closed there, an element would be written twice ("<b>Welt</b> <!-- c
    // --><b><br></b>" for a <b> that held the word and the <br> with the comment before them).
    // (its neighbours: the nearest pieces that are not spaces nor, without words, as shallow as it)
    const wordless = (p) => p.text === undefined || !/\S/.test(p.text);
    const isPrefix = (x, y) => commonPrefix(x, y).length === x.length;
    const sameStack = (x, y) => x.length === y.length && isPrefix(x, y);
    for (let changed = true; changed;) {
      changed = false;
      for (let i = 0; i < pieces.length; i++) {
        if (!wordless(pieces[i])) continue;
        const own = pieces[i].stack;
        // the run of pieces without words in the same elements from here has the same neighbours
        // (and each gets what the first gets): done at once, else a run of n costs n x n
        let end = i + 1;
        while (end < pieces.length && wordless(pieces[end]) && sameStack(pieces[end].stack, own)) end++;
        const passed = (p) => (p.text !== undefined && !/\S/.test(p.text)) || (wordless(p) && isPrefix(p.stack, own));
        let l = i - 1;
        while (l >= 0 && passed(pieces[l])) l--;
        let r = end;
        while (r < pieces.length && passed(pieces[r])) r++;
        const first = i;
        i = end - 1;
        if (l < 0 || r >= pieces.length) continue;
        const both = commonPrefix(pieces[l].stack, pieces[r].stack);
        if (both.length > own.length && isPrefix(own, both)) {
          for (let k = first; k < end; k++) pieces[k].stack = both;
          changed = true;
        }
      }
    }
    for (const p of pieces) {
      delete p.home;
      delete p.pos;
      delete p.moved;
      delete p.rawAfter;
      delete p.breakRaw;
      delete p.soft;
      delete p.br;
    }
    // (one that holds an atomic element is not lost: it stands where it stood, as that element does)
    return { pieces, lost: lostItems.filter((x) => !x.inside.length), inWord };
  };
  let out = place();
  for (let pass = 0; pass < 4; pass++) {
    const shown = new Set();
    for (const p of out.pieces) {
      for (const r of p.stack || []) shown.add(r);
      if (p.rec) shown.add(p.rec);
    }
    const missing = [...range.keys(), ...[...out.inWord.values()].flat().map((x) => x.rec)].filter((r) => !shown.has(r));
    if (!missing.length) break;
    for (const r of missing) {
      range.delete(r);
      unplaced.add(r);
    }
    out = place();
  }
  return { pieces: out.pieces, lost: out.lost.length, placed: range.size + [...out.inWord.values()].flat().length };
}

/**
 * Translates units (from collectUnits) with `translator.translate` in batches of about
 * `batchChars` characters, one engine request each, and calls onBatch(units, results) as each is
 * done, where results[i] is {sentences} of units[i] (sentence ranges local to the unit's text).
 */
export async function translateUnits(translator, units, options, onBatch) {
  const { batchChars = Infinity, signal, ...decoding } = options;
  const total = units.reduce((n, u) => n + unitText(u).length, 0);
  let done = 0;
  for (let i = 0; i < units.length;) {
    let j = i;
    let size = 0;
    while (j < units.length && (j === i || size + unitText(units[j]).length <= batchChars)) size += unitText(units[j++]).length + 2;
    const batch = units.slice(i, j);
    const texts = batch.map(unitText);
    const joined = texts.join('\n\n');
    const r = await translator.translate(joined, { ...decoding, signal, alignments: true, html: false });
    const results = batch.map(() => ({ sentences: [] }));
    const offsets = [];
    let off = 0;
    for (const t of texts) {
      offsets.push(off);
      off += t.length + 2;
    }
    for (const s of r.sentences) {
      let k = offsets.length - 1;
      while (k > 0 && offsets[k] > s.sourceRange[0]) k--;
      const o = offsets[k];
      results[k].sentences.push({ ...s, sourceRange: [s.sourceRange[0] - o, s.sourceRange[1] - o] });
    }
    done += texts.reduce((n, t) => n + t.length, 0);
    await onBatch(batch, results, { done, total, result: r });
    i = j;
  }
}

export const unitText = (u) => (u.type === 'segment' ? u.seg.text : u.value);

/** A plain-text unit's translation: its sentences' targets with the source's whitespace between them. */
export function joinPlain(text, sentences) {
  let out = '';
  let pos = 0;
  for (const s of sentences) {
    out += text.slice(pos, s.sourceRange[0]) + s.target;
    pos = s.sourceRange[1];
  }
  return out + text.slice(pos);
}
