/**
 * A small HTML tokenizer and tree builder for the translator's HTML path. It runs wherever the
 * module runs (page, Web Worker, Node), so it uses no DOMParser and never creates live DOM: it only
 * reads the string. It follows the HTML standard's tokenizer where it matters for translation:
 * start and end tags with double-, single- and un-quoted attributes (first of a duplicated name
 * wins), comments (`<!-- -->`, `<!-->`, bogus `<!…>`, `<?…>`, `</ …>`), the doctype, raw-text
 * elements (script, style, xmp, iframe, noembed, noframes, noscript: content up to their end tag),
 * RCDATA elements (title, textarea: no tags, entities decoded), plaintext (the rest), and character
 * references (numeric, and the named ones listed below; others stay as they are). The tree builder
 * keeps the document's structure without the standard's full insertion modes: void elements have no
 * children, an end tag closes the nearest open element of its name (and those inside it; a formatting
 * element's as the standard's adoption agency does, see parseHtml), a stray end tag is dropped, p/li/dt/dd/tr/td/th/option/heading/a are closed implicitly as browsers do, and the
 * end of input closes what is open. Serializing the tree therefore always gives balanced markup.
 */

/** Elements that never have content. */
export const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'keygen', 'link', 'meta',
  'param', 'source', 'track', 'wbr']);
/** Elements whose content is text up to their end tag (no tags, no character references). */
export const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
/** Elements whose content is text up to their end tag, with character references. */
export const RCDATA = new Set(['title', 'textarea']);

// Named character references: the ones HTML allows without a semicolon (the Latin-1 set and
// amp/lt/gt/quot), and common typographic ones. Others (of the standard's 2,231) are left as text.
const LEGACY = {
  amp: '&', lt: '<', gt: '>', quot: '"', nbsp: '\u00a0', iexcl: '¡', cent: '¢', pound: '£', curren: '¤', yen: '¥',
  brvbar: '¦', sect: '§', uml: '¨', copy: '©', ordf: 'ª', laquo: '«', not: '¬', shy: '\u00ad', reg: '®', macr: '¯',
  deg: '°', plusmn: '±', sup2: '²', sup3: '³', acute: '´', micro: 'µ', para: '¶', middot: '·', cedil: '¸', sup1: '¹',
  ordm: 'º', raquo: '»', frac14: '¼', frac12: '½', frac34: '¾', iquest: '¿', times: '×', divide: '÷',
  Agrave: 'À', Aacute: 'Á', Acirc: 'Â', Atilde: 'Ã', Auml: 'Ä', Aring: 'Å', AElig: 'Æ', Ccedil: 'Ç', Egrave: 'È',
  Eacute: 'É', Ecirc: 'Ê', Euml: 'Ë', Igrave: 'Ì', Iacute: 'Í', Icirc: 'Î', Iuml: 'Ï', ETH: 'Ð', Ntilde: 'Ñ',
  Ograve: 'Ò', Oacute: 'Ó', Ocirc: 'Ô', Otilde: 'Õ', Ouml: 'Ö', Oslash: 'Ø', Ugrave: 'Ù', Uacute: 'Ú', Ucirc: 'Û',
  Uuml: 'Ü', Yacute: 'Ý', THORN: 'Þ', szlig: 'ß', agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä',
  aring: 'å', aelig: 'æ', ccedil: 'ç', egrave: 'è', eacute: 'é', ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í',
  icirc: 'î', iuml: 'ï', eth: 'ð', ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô', otilde: 'õ', ouml: 'ö',
  oslash: 'ø', ugrave: 'ù', uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', thorn: 'þ', yuml: 'ÿ',
};
const NAMED = {
  ...LEGACY, apos: "'", ndash: '–', mdash: '—', lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”',
  bdquo: '„', hellip: '…', bull: '•', euro: '€', trade: '™', dagger: '†', Dagger: '‡', permil: '‰', lsaquo: '‹',
  rsaquo: '›', prime: '′', Prime: '″', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', zwj: '\u200d',
  zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f', larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', rArr: '⇒',
  lArr: '⇐', hArr: '⇔', minus: '−', le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', check: '✓', hearts: '♥',
  OElig: 'Œ', oelig: 'œ', Scaron: 'Š', scaron: 'š', Yuml: 'Ÿ', fnof: 'ƒ', circ: 'ˆ', tilde: '˜', NewLine: '\n',
  Tab: '\t', colon: ':', lpar: '(', rpar: ')', sol: '/', bsol: '\\', period: '.', comma: ',', excl: '!', quest: '?',
  num: '#', dollar: '$', percnt: '%', ast: '*', plus: '+', equals: '=', lowbar: '_', verbar: '|', semi: ';',
};
// Numeric references to C1 controls mean the windows-1252 characters (HTML standard).
const C1 = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021, 0x88: 0x02c6,
  0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018, 0x92: 0x2019, 0x93: 0x201c,
  0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc, 0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a,
  0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};
const ENTITY = /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([A-Za-z][A-Za-z0-9]*)(;?))/g;

function fromCodePoint(n) {
  if (n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(C1[n] || n);
}

/**
 * Decodes character references in `text`. In attribute values (`inAttribute`) a legacy reference
 * without its semicolon followed by a letter, digit or '=' is left alone, as browsers do.
 */
export function decodeEntities(text, inAttribute = false) {
  if (text.indexOf('&') < 0) return text;
  return text.replace(ENTITY, (all, hex, dec, name, semi, offset) => {
    if (hex !== undefined) return fromCodePoint(parseInt(hex.slice(0, 8), 16) > 0x10ffff ? 0x110000 : parseInt(hex, 16));
    if (dec !== undefined) return fromCodePoint(dec.length > 8 ? 0x110000 : parseInt(dec, 10));
    if (semi && Object.prototype.hasOwnProperty.call(NAMED, name)) return NAMED[name];
    // Without a semicolon: the longest legacy name that starts the run of letters.
    for (let n = name.length; n >= 2; n--) {
      const head = name.slice(0, n);
      if (!Object.prototype.hasOwnProperty.call(LEGACY, head)) continue;
      const rest = name.slice(n) + semi;
      const next = rest ? rest[0] : text[offset + all.length];
      if (inAttribute && next !== undefined && /[A-Za-z0-9=]/.test(next)) return all;
      return LEGACY[head] + rest;
    }
    return all;
  });
}

/** Escapes text for an HTML text node: & < > and no-break spaces (as &nbsp;, to stay visible in the source). */
export function escapeText(text) {
  return text.replace(/[&<>\u00a0]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&nbsp;'));
}

/**
 * Escapes text for a double-quoted attribute value: & " and no-break spaces, and < > too, so that
 * no tag-like text stands in the output (a sanitizer or a parser that reads it as markup sees none).
 */
export function escapeAttribute(text) {
  return text.replace(/[&"<>\u00a0]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] || '&nbsp;');
}

const isSpace = (c) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
const isAlpha = (c) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

/**
 * Splits `html` into tokens, each with its [start, end) in `html`:
 * - {type: 'text', start, end} (character references not decoded; see decodeEntities)
 * - {type: 'start', name, attrs: [{name, value, raw}], selfClosing, start, end}; `value` is decoded,
 *   `raw` is the value as written (without its quotes), null for an attribute without a value
 * - {type: 'end', name, start, end}
 * - {type: 'comment', start, end, closer} (also bogus comments, `<?…>` and CDATA sections; `closer`:
 *   what one cut off by the end of input lacks, "-->" or ">")
 * - {type: 'doctype', start, end}
 * - {type: 'rawtext', start, end} (the content of a raw-text or RCDATA element; `rcdata: true` for the latter)
 * A tag cut off by the end of input is dropped, as browsers do.
 */
export function tokenize(html) {
  const tokens = [];
  const n = html.length;
  let i = 0;
  let textStart = 0;
  const flushText = (end) => {
    if (end > textStart) tokens.push({ type: 'text', start: textStart, end });
  };
  const lower = html.toLowerCase();
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) break;
    const c = html[lt + 1];
    if (c === undefined) break;
    let tok = null;
    if (isAlpha(c)) {
      tok = readTag(html, lt, false);
    } else if (c === '/') {
      const d = html[lt + 2];
      if (d !== undefined && isAlpha(d)) tok = readTag(html, lt, true);
      else if (d === '>') tok = { type: 'skip', start: lt, end: lt + 3 };
      else if (d !== undefined) tok = bogusComment(html, lt);
      else tok = { type: 'skip', start: lt, end: n }; // "</" at the end: dropped
    } else if (c === '!') {
      if (html.startsWith('--', lt + 2)) tok = comment(html, lt);
      else if (lower.startsWith('doctype', lt + 2)) {
        const gt = html.indexOf('>', lt);
        tok = { type: 'doctype', start: lt, end: gt < 0 ? n : gt + 1 };
      } else tok = bogusComment(html, lt);
    } else if (c === '?') {
      tok = bogusComment(html, lt);
    }
    if (!tok) { // a '<' that starts no tag is text
      i = lt + 1;
      continue;
    }
    flushText(lt);
    if (tok.type === 'eof') { // a tag cut off by the end of input
      textStart = n;
      i = n;
      break;
    }
    if (tok.type !== 'skip') tokens.push(tok);
    i = tok.end;
    textStart = i;
    if (tok.type === 'start' && (RAW_TEXT.has(tok.name) || RCDATA.has(tok.name) || tok.name === 'plaintext')) {
      let close = n;
      let closeEnd = n;
      if (tok.name !== 'plaintext') {
        const re = new RegExp(`</${tok.name}(?=[\\s/>])`, 'g');
        re.lastIndex = i;
        const m = re.exec(lower);
        if (m) {
          close = m.index;
          const gt = html.indexOf('>', close);
          closeEnd = gt < 0 ? n : gt + 1;
        }
      }
      if (close > i) tokens.push({ type: 'rawtext', start: i, end: close, rcdata: RCDATA.has(tok.name) });
      if (close < n) tokens.push({ type: 'end', name: tok.name, start: close, end: closeEnd });
      i = closeEnd;
      textStart = i;
    }
  }
  flushText(n);
  return tokens;
}

function comment(html, lt) {
  // "<!-->" and "<!--->" end at once; otherwise at "-->" or "--!>", or at the end of input.
  if (html.startsWith('>', lt + 4)) return { type: 'comment', start: lt, end: lt + 5 };
  if (html.startsWith('->', lt + 4)) return { type: 'comment', start: lt, end: lt + 6 };
  const a = html.indexOf('-->', lt + 4);
  const b = html.indexOf('--!>', lt + 4);
  // (cut off by the end of input: `closer` ends it when it is written out, so that the end tags
  // written after it are not read as more of the comment)
  if (a < 0 && b < 0) return { type: 'comment', start: lt, end: html.length, closer: '-->' };
  return { type: 'comment', start: lt, end: b < 0 || (a >= 0 && a < b) ? a + 3 : b + 4 };
}

function bogusComment(html, lt) {
  const gt = html.indexOf('>', lt);
  return gt < 0 ? { type: 'comment', start: lt, end: html.length, closer: '>' } : { type: 'comment', start: lt, end: gt + 1 };
}

function readTag(html, lt, isEnd) {
  const n = html.length;
  let i = lt + (isEnd ? 2 : 1);
  let name = '';
  while (i < n && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') name += html[i++];
  name = name.toLowerCase().replace(/\0/g, '\ufffd');
  const attrs = [];
  const seen = new Set();
  let selfClosing = false;
  for (;;) {
    while (i < n && (isSpace(html[i]) || html[i] === '/')) {
      selfClosing = html[i] === '/' && html[i + 1] === '>';
      i++;
    }
    if (i >= n) return { type: 'eof', start: lt, end: n };
    if (html[i] === '>') {
      i++;
      break;
    }
    selfClosing = false;
    let attrName = html[i++]; // (a first '=' is part of the name)
    while (i < n && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') attrName += html[i++];
    attrName = attrName.toLowerCase();
    let j = i;
    while (j < n && isSpace(html[j])) j++;
    let raw = null;
    if (html[j] === '=') {
      i = j + 1;
      while (i < n && isSpace(html[i])) i++;
      if (i >= n) return { type: 'eof', start: lt, end: n };
      const q = html[i];
      if (q === '"' || q === "'") {
        const close = html.indexOf(q, i + 1);
        if (close < 0) return { type: 'eof', start: lt, end: n };
        raw = html.slice(i + 1, close);
        i = close + 1;
      } else if (q === '>') {
        raw = ''; // "a=>" : an empty value, and the tag ends
      } else {
        const s = i;
        while (i < n && !isSpace(html[i]) && html[i] !== '>') i++;
        raw = html.slice(s, i);
      }
    }
    if (!isEnd && !seen.has(attrName)) {
      seen.add(attrName);
      attrs.push({ name: attrName, value: raw === null ? '' : decodeEntities(raw, true), raw });
    }
  }
  if (isEnd) return { type: 'end', name, start: lt, end: i };
  return { type: 'start', name, attrs, selfClosing, start: lt, end: i };
}

// ---------------------------------------------------------------------------------------------
// The tree.

const CLOSES_P = new Set(['address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div',
  'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'listing', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'ul', 'li', 'dd', 'dt',
  'plaintext', 'xmp']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
// Elements an implied end tag does not look past.
const SCOPE = new Set(['html', 'body', 'table', 'td', 'th', 'caption', 'template', 'button', 'object', 'marquee',
  'applet', 'svg', 'math', 'foreignobject']);
/** The standard's formatting elements: misnested, they are closed and opened again as browsers do. */
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
/** Elements that put a marker on the list of formatting elements: what is open outside them is not reopened inside. */
const MARKS = new Set(['td', 'th', 'caption', 'applet', 'object', 'marquee', 'template']);
/** The standard's special elements: where a misnested formatting element ends, the first of them inside it ("furthest block"). */
const SPECIAL = new Set(['address', 'applet', 'area', 'article', 'aside', 'base', 'basefont', 'bgsound', 'blockquote',
  'body', 'br', 'button', 'caption', 'center', 'col', 'colgroup', 'dd', 'details', 'dir', 'div', 'dl', 'dt', 'embed',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'frame', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head',
  'header', 'hgroup', 'hr', 'html', 'iframe', 'img', 'input', 'keygen', 'li', 'link', 'listing', 'main', 'marquee',
  'menu', 'meta', 'nav', 'noembed', 'noframes', 'noscript', 'object', 'ol', 'p', 'param', 'plaintext', 'pre', 'script',
  'search', 'section', 'select', 'source', 'style', 'summary', 'table', 'tbody', 'td', 'template', 'textarea', 'tfoot',
  'th', 'thead', 'title', 'tr', 'track', 'ul', 'wbr', 'xmp']);
/** Start tags before which the formatting elements closed too early are not opened again (blocks, head and table parts). */
const NO_REOPEN = new Set([...CLOSES_P, 'script', 'style', 'title', 'base', 'basefont', 'bgsound', 'link', 'meta',
  'noframes', 'template', 'textarea', 'iframe', 'noembed', 'rb', 'rtc', 'rp', 'rt', 'caption', 'col', 'colgroup', 'frame',
  'head', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'html', 'body', 'frameset']);
NO_REOPEN.delete('xmp');
const TABLE_PARTS = new Set(['table', 'tbody', 'thead', 'tfoot', 'tr']);

/**
 * Builds a tree from `html`: {type: 'root', children}; nodes are
 * {type: 'element', name, attrs, selfClosing, foreign, children, start, end} (start/end: the start
 * tag's extent; `synthetic` for a <br> made from a stray </br>; `reopened` for a formatting element
 * opened again, see below), {type: 'text', start, end}, {type: 'rawtext', start, end, rcdata},
 * {type: 'comment'|'doctype', start, end, closer}, each node with `parent`.
 *
 * Misnested formatting elements (b, i, a, em, strong, …: "<b>one <i>two</b> three</i>", "<p><b>x</p>
 * <p>y") are read as the standard's parser reads them (its list of active formatting elements and
 * adoption agency): closed where they must be and opened again, as copies with the same start tag,
 * where the text goes on ("<b>one <i>two</i></b><i> three</i>"), so the output, balanced, shows
 * the text as a browser showed the input. (Not done: tables' foster parenting.)
 */
export function parseHtml(html) {
  const root = { type: 'root', children: [], parent: null };
  const stack = [root];
  // Where each name is open (stack indices, innermost last) and how many foreign elements are, so
  // that no step scans the stack: markup nested 100,000 deep parses in linear time.
  const openAt = new Map();
  let foreignOpen = 0;
  const top = () => stack[stack.length - 1];
  const append = (node) => {
    node.parent = top();
    top().children.push(node);
  };
  // The list of active formatting elements (null: a marker), each element `open` while on the stack.
  const active = [];
  const push = (el) => {
    stack.push(el);
    el.open = true;
    if (!openAt.has(el.name)) openAt.set(el.name, []);
    openAt.get(el.name).push(stack.length - 1);
    if (el.foreign) foreignOpen += 1;
  };
  const pop = () => {
    const el = stack.pop();
    el.open = false;
    openAt.get(el.name).pop();
    if (el.foreign) foreignOpen -= 1;
    else if (el.marked) { // (its formatting elements are done with it)
      while (active.length && active[active.length - 1] !== null) active.pop();
      active.pop();
    }
  };
  const reindex = () => { // (after the stack changed in its middle)
    openAt.clear();
    foreignOpen = 0;
    stack.forEach((el, k) => {
      if (k === 0) return;
      if (!openAt.has(el.name)) openAt.set(el.name, []);
      openAt.get(el.name).push(k);
      if (el.foreign) foreignOpen += 1;
    });
  };
  const copyOf = (el) => ({ type: 'element', name: el.name, attrs: el.attrs, selfClosing: false, foreign: false, children: [], start: el.start, end: el.end, reopened: true });
  const detach = (node) => {
    if (!node.parent) return; // (a copy not placed yet)
    const siblings = node.parent.children;
    siblings.splice(siblings.lastIndexOf(node), 1);
  };
  const appendTo = (parent, node) => {
    node.parent = parent;
    parent.children.push(node);
  };
  // Formatting elements closed before their end tag, opened again where text or inline content goes on.
  const reopen = () => {
    let k = active.length - 1;
    if (k < 0 || active[k] === null || active[k].open || foreignOpen > 0 || TABLE_PARTS.has(top().name)) return;
    while (k > 0 && active[k - 1] !== null && !active[k - 1].open) k--;
    for (; k < active.length; k++) {
      const el = copyOf(active[k]);
      append(el);
      push(el);
      active[k] = el;
    }
  };
  const startTagKey = (el) => [el.name, ...el.attrs.map((at) => `${at.name}=${at.value}`).sort()].join('\u0000');
  const keys = new Map(); // start tag → startTagKey
  const keyOf = (el) => {
    if (!keys.has(el.start)) keys.set(el.start, startTagKey(el));
    return keys.get(el.start);
  };
  const addFormatting = (el) => {
    // (at most three alike since the last marker: the earliest goes; looked for only so far back)
    let alike = 0;
    for (let k = active.length - 1, seen = 0; k >= 0 && active[k] !== null && seen < 100; k--, seen++) {
      if (keyOf(active[k]) !== keyOf(el) || ++alike < 3) continue;
      active.splice(k, 1);
      break;
    }
    active.push(el);
  };
  // The end tag of a formatting element (the standard's adoption agency): false where none of
  // that name is on the list (then it is read as any other end tag).
  const endFormatting = (name) => {
    for (let round = 0; round < 8; round++) {
      let f = active.length - 1;
      while (f >= 0 && active[f] !== null && active[f].name !== name) f--;
      if (f < 0 || active[f] === null) return round > 0;
      const fe = active[f];
      if (!fe.open) {
        active.splice(f, 1);
        return true;
      }
      const at = openAt.get(name).findLast((k) => stack[k] === fe);
      for (const n of SCOPE) if (lastOpen(n) > at) return true; // (not in scope: ignored)
      let fb = at + 1;
      while (fb < stack.length && !(SPECIAL.has(stack[fb].name) && !stack[fb].foreign)) fb++;
      if (fb >= stack.length || stack.length > 2000) { // no block inside it (or too deep to rebuild): closed here
        closeTo(at); // (no marker above it: a marker's element would be in scope, see above)
        active.splice(f, 1);
        return true;
      }
      // A block inside it: the block and what follows it leave it, inside a copy of it (and of the
      // formatting elements between them).
      const ancestor = stack[at - 1];
      const furthest = stack[fb];
      let bookmark = f;
      let lastNode = furthest;
      let k = fb;
      for (let inner = 1; ; inner++) {
        k -= 1;
        const node = stack[k];
        if (node === fe) break;
        let ai = active.indexOf(node);
        if (inner > 3 && ai >= 0) {
          active.splice(ai, 1);
          if (ai < bookmark) bookmark -= 1;
          ai = -1;
        }
        if (ai < 0) {
          stack.splice(k, 1);
          node.open = false;
          continue;
        }
        const copy = copyOf(node);
        active[ai] = copy;
        stack[k] = copy;
        node.open = false;
        copy.open = true;
        if (lastNode === furthest) bookmark = ai + 1;
        detach(lastNode);
        appendTo(copy, lastNode);
        lastNode = copy;
      }
      detach(lastNode);
      appendTo(ancestor, lastNode);
      const copy = copyOf(fe);
      for (const c of furthest.children) c.parent = copy;
      copy.children = furthest.children;
      furthest.children = [];
      appendTo(furthest, copy);
      const fi = active.indexOf(fe);
      active.splice(fi, 1);
      if (fi < bookmark) bookmark -= 1;
      active.splice(bookmark, 0, copy);
      stack.splice(stack.indexOf(fe), 1);
      fe.open = false;
      stack.splice(stack.indexOf(furthest) + 1, 0, copy);
      copy.open = true;
      reindex();
    }
    return true;
  };
  const lastOpen = (name) => {
    const at = openAt.get(name);
    return at && at.length ? at[at.length - 1] : -1;
  };
  // The innermost open element named in `names`, unless an element of `stopAt` is open inside it.
  const openIndex = (names, stopAt = SCOPE) => {
    let k = -1;
    for (const name of names) k = Math.max(k, lastOpen(name));
    if (k <= 0) return -1;
    for (const name of stopAt) if (lastOpen(name) > k) return -1;
    return k;
  };
  const closeTo = (k) => {
    while (k > 0 && stack.length > k) pop();
  };
  const inForeign = () => foreignOpen > 0;
  for (const tok of tokenize(html)) {
    if (tok.type === 'start') {
      const foreign = tok.name === 'svg' || tok.name === 'math' || inForeign();
      if (!foreign) {
        if (CLOSES_P.has(tok.name)) closeTo(openIndex(new Set(['p'])));
        if (tok.name === 'li') closeTo(openIndex(new Set(['li']), new Set([...SCOPE, 'ul', 'ol'])));
        if (tok.name === 'dd' || tok.name === 'dt') closeTo(openIndex(new Set(['dd', 'dt']), new Set([...SCOPE, 'dl'])));
        if (HEADINGS.has(tok.name) && HEADINGS.has(top().name)) pop();
        if (tok.name === 'a') { // (a link inside a link: the first ends here)
          let f = active.length - 1;
          while (f >= 0 && active[f] !== null && active[f].name !== 'a') f--;
          if (f >= 0 && active[f] !== null) {
            const old = active[f];
            endFormatting('a');
            if (active.includes(old)) active.splice(active.indexOf(old), 1);
            if (old.open) closeTo(openAt.get('a').findLast((k) => stack[k] === old));
          }
        }
        if (tok.name === 'option' || tok.name === 'optgroup') closeTo(openIndex(new Set(tok.name === 'option' ? ['option'] : ['option', 'optgroup']), new Set([...SCOPE, 'select'])));
        if (tok.name === 'td' || tok.name === 'th') closeTo(openIndex(new Set(['td', 'th']), new Set(['table', 'tr', 'template'])));
        const inTable = new Set(['table', 'template']);
        if (tok.name === 'tr') closeTo(openIndex(new Set(['tr']), inTable));
        if (tok.name === 'thead' || tok.name === 'tbody' || tok.name === 'tfoot') {
          const k = openIndex(new Set(['thead', 'tbody', 'tfoot']), inTable);
          closeTo(k > 0 ? k : openIndex(new Set(['tr']), inTable));
        }
      }
      if (!foreign && !NO_REOPEN.has(tok.name)) reopen();
      const el = {
        type: 'element', name: tok.name, attrs: tok.attrs, selfClosing: tok.selfClosing, foreign, children: [],
        start: tok.start, end: tok.end,
      };
      append(el);
      if (!VOID.has(tok.name) && !(foreign && tok.selfClosing)) push(el);
      if (!foreign && FORMATTING.has(tok.name)) addFormatting(el);
      if (!foreign && MARKS.has(tok.name) && el.open) {
        active.push(null);
        el.marked = true;
      }
    } else if (tok.type === 'end') {
      if (!inForeign() && FORMATTING.has(tok.name) && endFormatting(tok.name)) continue;
      const k = lastOpen(tok.name);
      if (k > 0) closeTo(k);
      else if (tok.name === 'br') append({ type: 'element', name: 'br', attrs: [], selfClosing: false, foreign: false, children: [], start: tok.start, end: tok.end, synthetic: true });
      // (other stray end tags are dropped)
    } else {
      if (tok.type === 'text') reopen();
      append({ type: tok.type, start: tok.start, end: tok.end, rcdata: tok.rcdata, closer: tok.closer });
    }
  }
  return root;
}
