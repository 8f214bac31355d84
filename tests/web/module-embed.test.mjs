/**
 * What a site that embeds the module meets, in Node: the argument errors of the module functions
 * (code 'bad-request', as every other bad argument).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateElement, TranslatorError } from '../../web/translator.js';

/** A stand-in element: translateElement() checks its arguments before it reads one. */
const element = { nodeType: 1, localName: 'div', childNodes: [], textContent: '', ownerDocument: null, getAttribute: () => null, setAttribute() {} };

test('translateElement() without a translator, or with no element, rejects with code bad-request as the other argument errors do', async () => {
  for (const options of [{}, { translator: null }, { translator: {} }, { translator: 'de' }, undefined]) {
    await assert.rejects(translateElement(element, options), (e) => {
      assert.ok(e instanceof TranslatorError, `a TranslatorError, got ${e && e.name}: ${e && e.message}`);
      assert.equal(e.code, 'bad-request');
      assert.equal(e.message, 'translateElement(element, { translator }): a Translator is needed.');
      return true;
    }, JSON.stringify(options));
  }
  const translator = { translate: () => assert.fail('no request for a call that is refused') };
  for (const notAnElement of [null, undefined, 'p', { nodeType: 3 }]) {
    await assert.rejects(translateElement(notAnElement, { translator }),
      { name: 'TranslatorError', code: 'bad-request', message: 'translateElement(element): element must be a DOM Element.' }, String(notAnElement));
  }
});
