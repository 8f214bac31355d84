/**
 * Tokens as words, for people who never heard of word pieces: the heatmap's rows and columns are
 * the sentence's words, not its SentencePiece pieces ("▁Hal", "lo"), and special tokens are named
 * ("</s>" is "end of sentence"). `tokenWords` groups a sentence's tokens by the words they fall in
 * (a piece that spans two words, such as "s." over "s" and ".", joins them into one label);
 * `mergeAttention` turns a [targetTokens][sourceTokens] matrix into [targetGroups][sourceGroups]:
 * a target word's row is the mean of its pieces' rows (so it still sums to 1), a source word's
 * column the sum of its pieces' columns (the attention the word got in all). Nothing here touches
 * the DOM.
 */

/** The special tokens' names in words. */
export const SPECIAL_NAMES = { '</s>': 'end of sentence', '<s>': 'start of sentence', '<unk>': 'unknown character', '<pad>': 'padding' };

/**
 * Groups `tokens` ({piece, range}) of sentence `text` by the word ranges `words` ([b, e] each):
 * returns [{label, tokens: [token indices], special}], in token order, covering every token once.
 * A token outside every word (a lone "▁") joins the next group, or the last one at the end.
 */
export function tokenWords(text, tokens, words) {
  const groups = [];
  let pending = [];
  const ws = words || [];
  tokens.forEach((t, i) => {
    const [b, e] = t.range || [0, 0];
    if (t.piece === '<unk>' && e > b && text.slice(b, e).trim()) {
      // an unknown piece the engine replaced by the source's text (an emoji, another script): that text
      groups.push({ label: text.slice(b, e).trim(), tokens: [...pending, i], special: false });
      pending = [];
      return;
    }
    if (Object.hasOwn(SPECIAL_NAMES, t.piece)) {
      groups.push({ label: SPECIAL_NAMES[t.piece], tokens: [...pending, i], special: true });
      pending = [];
      return;
    }
    let first = -1;
    let last = -1;
    if (e > b) {
      ws.forEach(([wb, we], j) => {
        if (b < we && e > wb) {
          if (first < 0) first = j;
          last = j;
        }
      });
    }
    if (first < 0) {
      pending.push(i);
      return;
    }
    const prev = groups[groups.length - 1];
    if (prev && !prev.special && first <= prev.w1) {
      prev.w1 = Math.max(prev.w1, last);
      prev.tokens.push(...pending, i);
    } else {
      groups.push({ w0: first, w1: last, tokens: [...pending, i], special: false });
    }
    pending = [];
  });
  if (pending.length) {
    if (groups.length) groups[groups.length - 1].tokens.push(...pending);
    else groups.push({ label: pending.map((i) => tokens[i].piece.replace(/▁/g, ' ')).join('').trim() || 'space', tokens: pending, special: false });
  }
  for (const g of groups) {
    if (g.label === undefined) g.label = text.slice(ws[g.w0][0], ws[g.w1][1]);
    delete g.w0;
    delete g.w1;
  }
  return groups;
}

/** [targetTokens][sourceTokens] `m` → [rowGroups][colGroups]: rows averaged, columns summed. */
export function mergeAttention(m, rowGroups, colGroups) {
  return rowGroups.map((rg) => colGroups.map((cg) => {
    let sum = 0;
    for (const i of rg.tokens) for (const j of cg.tokens) sum += (m[i] && m[i][j]) || 0;
    return sum / rg.tokens.length;
  }));
}
