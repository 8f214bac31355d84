/**
 * Markdown's indented code blocks on the page's side (web/protocol.js): found by the engine's rule
 * (engine/text/verbatim.h, indented_code_blocks; these are the cases of tests/engine/test_verbatim.cpp)
 * and left out of the chunks, as fenced blocks are. Inside a chunk cut into sentence groups, a group
 * that started inside a block sent "b = 2\n    c = 3" to the engine, which no longer reads it as code.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { indentedCodeBlocks, planChunks, sentenceGroups } from '../../web/protocol.js';

const blocks = (text) => indentedCodeBlocks(text).map(([b, e]) => text.slice(b, e));

test('indentedCodeBlocks: CommonMark\'s indented blocks that read as code, as the engine finds them', () => {
  assert.deepEqual(blocks('Run the tests:\n\n    npm test\n    npm run lint\n\nThen push.'), ['    npm test\n    npm run lint']);
  assert.deepEqual(blocks('Build it:\r\n\r\n\tmake install\r\n'), ['\tmake install\r']);
  assert.deepEqual(blocks('Example\n\n    def greet(name):\n        """Say hello."""\n\n    greet("World")\nDone.'),
    ['    def greet(name):\n        """Say hello."""\n\n    greet("World")']);
  assert.deepEqual(blocks('# Usage\n    $ tool --verbose'), ['    $ tool --verbose']);
  assert.deepEqual(blocks('Dear John,\n\n    Thank you for your letter. I was glad.\n    We will visit you.'), []);
  assert.deepEqual(blocks('The poem reads:\n\n    The woods are lovely, dark and deep,\n    But I have promises to keep,'), []);
  assert.deepEqual(blocks('She wrote:\n\n    "I will come tomorrow," she said.'), []);
  assert.deepEqual(blocks('\tLiebe Kolleg(inn)en,\n\n\tdas Treffen ist morgen.'), []);
  assert.equal(blocks('Then:\n\n    thanks for the update, see you').length, 1);
  assert.deepEqual(blocks('Install it with\n\n    npm install'), []);
  assert.deepEqual(blocks('Run this:\n    npm test'), []);
  assert.deepEqual(blocks('- Install:\n\n    npm install --save\n\n- Test:\n\n      npm test --watch'), ['      npm test --watch']);
  assert.deepEqual(blocks('1. Open it:\n\n    open(file)\n\nAfter the list:\n\n    close(file)'), ['    close(file)']);
  assert.deepEqual(blocks('```\n\n    f(x)\n```'), []);
  assert.deepEqual(blocks(''), []);
  assert.deepEqual(blocks('    '), []);
});

test('planChunks leaves an indented code block out of every chunk, so no sentence group starts inside it', () => {
  const code = '    a = 1\n    b = 2\n    c = 3\n    d = 4';
  const text = `Set them:\n\n${code}\n\nThen run it. It works.`;
  const chunks = planChunks(text, 1000).map(([b, e]) => text.slice(b, e));
  assert.deepEqual(chunks, ['Set them:', 'Then run it. It works.']);
  for (const max of [5, 20, 1000]) {
    for (const [b, e] of planChunks(text, max)) assert.ok(e <= text.indexOf(code) || b >= text.indexOf(code) + code.length);
  }
  // (before: one chunk, whose groups of sentences began at "b = 2" and "d = 4", without their indentation)
  const lines = text.split('\n');
  let at = 0;
  const sentences = [];
  for (const line of lines) {
    const b = at + line.length - line.trimStart().length;
    if (line.trim()) sentences.push([b, at + line.length]);
    at += line.length + 1;
  }
  const groups = sentenceGroups(sentences, [0, text.length]).map(([b, e]) => text.slice(b, e));
  assert.ok(groups.some((g) => g.startsWith('b = 2')), 'the case that broke');
});
