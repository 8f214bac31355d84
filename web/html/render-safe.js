/**
 * Draws HTML into a page without running or loading anything from it: the markup is read by this
 * project's tokenizer (never by innerHTML or DOMParser) and only an allow-list of text-level and
 * structural elements is built, with createElement and Text nodes. No attribute that can load or
 * run anything is ever set: no src, href, style, srcset, action, on…; a link keeps its text and
 * shows its address in a tooltip, an image becomes a labelled placeholder with its alt text, and
 * script, style, iframe, object, embed, form controls, svg and math are left out (their text too).
 * Used by the demo's HTML mode to show a translation.
 */
import { parseHtml, decodeEntities } from './tokenize.js';
import { runFlat } from './flat.js';

const ALLOWED = new Set(['p', 'div', 'span', 'b', 'strong', 'i', 'em', 'u', 's', 'small', 'mark', 'sub', 'sup', 'code',
  'kbd', 'samp', 'var', 'pre', 'blockquote', 'q', 'cite', 'abbr', 'dfn', 'time', 'data', 'del', 'ins', 'bdi', 'bdo',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tfoot', 'tr',
  'td', 'th', 'caption', 'br', 'hr', 'figure', 'figcaption', 'section', 'article', 'header', 'footer', 'nav', 'main',
  'aside', 'address', 'details', 'summary', 'label', 'center', 'font', 'big', 'tt', 'strike', 'nobr', 'wbr', 'ruby',
  'rt', 'rp', 'rb', 'rtc']);
/** Left out with their content. */
const DROPPED = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed', 'video', 'audio',
  'canvas', 'svg', 'math', 'select', 'textarea', 'input', 'button', 'title', 'head', 'meta', 'link', 'base', 'xmp',
  'noembed', 'noframes', 'plaintext', 'frame', 'frameset', 'applet', 'param', 'source', 'track', 'map', 'area',
  'picture', 'portal', 'dialog']);
const SAFE_ATTRIBUTES = new Set(['title', 'lang', 'dir', 'colspan', 'rowspan', 'datetime', 'translate']);

/**
 * @param {string} html
 * @param {Document} doc
 * @returns {DocumentFragment}
 */
export function renderSafe(html, doc = document) {
  const frag = doc.createDocumentFragment();
  function* build(node, into) { // (run by runFlat: `yield build(...)` is the recursive call, so any depth is drawn)
    for (const c of node.children || []) {
      if (c.type === 'text') {
        into.appendChild(doc.createTextNode(decodeEntities(html.slice(c.start, c.end))));
        continue;
      }
      if (c.type !== 'element' || DROPPED.has(c.name)) continue;
      if (c.name === 'img') {
        const alt = (c.attrs.find((a) => a.name === 'alt') || {}).value;
        const ph = doc.createElement('span');
        ph.className = 'safe-img';
        ph.textContent = alt ? `[image: ${alt}]` : '[image]';
        into.appendChild(ph);
        continue;
      }
      if (c.name === 'a') {
        const a = doc.createElement('span');
        a.className = 'safe-link';
        const href = (c.attrs.find((x) => x.name === 'href') || {}).value;
        const title = (c.attrs.find((x) => x.name === 'title') || {}).value;
        a.title = [title, href ? `link: ${href}` : ''].filter(Boolean).join(' · ');
        into.appendChild(a);
        yield build(c, a);
        continue;
      }
      if (!ALLOWED.has(c.name)) { // unknown or structural (html, body, form, …): its content only
        yield build(c, into);
        continue;
      }
      const e = doc.createElement(c.name);
      for (const at of c.attrs) if (SAFE_ATTRIBUTES.has(at.name)) e.setAttribute(at.name, at.value);
      into.appendChild(e);
      yield build(c, e);
    }
  }
  runFlat(build(parseHtml(html), frag));
  return frag;
}
