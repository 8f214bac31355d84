// planChunks on a long hard-wrapped paragraph (an e-mail or article pasted with a line break every
// ~60 characters): the engine reads a line break inside a sentence as a space (docs/text-rules.md),
// so a chunk must not end at a line break in the middle of a sentence when one after a sentence's
// end is there to cut at.
import test from 'node:test';
import assert from 'node:assert/strict';
import { planChunks } from '../../web/protocol.js';

/** `sentences` joined by spaces, then wrapped at `width` columns (breaks where the spaces were). */
function wrap(sentences, width) {
  const lines = [];
  let line = '';
  for (const word of sentences.join(' ').split(' ')) {
    if (line && line.length + 1 + word.length > width) { lines.push(line); line = word; }
    else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join('\n');
}

test('planChunks cuts a long hard-wrapped paragraph after a sentence, not inside one', () => {
  const sentences = [];
  for (let i = 0; i < 120; i++) {
    sentences.push(`The ${i}th visitor of the old town walked along the river and looked at the boats for a while before going home.`);
  }
  const text = wrap(sentences, 62);
  assert.ok(text.length > 3 * 1000, 'longer than one paragraph chunk may be');
  const chunks = planChunks(text, 1000);
  assert.ok(chunks.length > 5);
  let covered = '';
  for (const [b, e] of chunks) {
    assert.ok(e - b <= 3 * 1000);
    assert.match(text.slice(b, e), /\.$/, `chunk [${b}, ${e}) ends inside a sentence: ...${JSON.stringify(text.slice(e - 30, e))}`);
    covered += text.slice(b, e).replace(/\s+/g, '');
  }
  assert.equal(covered, text.replace(/\s+/g, ''));
});

test('planChunks still cuts a long list of lines with no sentence ends at its line breaks', () => {
  const text = Array.from({ length: 400 }, (_, i) => `item number ${i} of the list`).join('\n');
  const chunks = planChunks(text, 1000);
  assert.ok(chunks.length > 3);
  for (const [b, e] of chunks) {
    assert.ok(e - b <= 1000);
    assert.ok(b === 0 || text[b - 1] === '\n', 'starts at a line');
    assert.ok(e === text.length || text[e] === '\n', 'ends at a line');
  }
});
