/**
 * web/async-iterable.js: a ReadableStream without its own async iterator (Safari's) becomes one
 * that a `for await` loop reads to the end, and leaving the loop early cancels the stream, as the
 * built-in iterator does. Node's streams have the built-in one: it is hidden here.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { asyncIterable } from '../../web/async-iterable.js';

/** A stream of `items` whose own async iterator is missing; `log.cancelled` says whether it was cancelled. */
function safariStream(items, log) {
  const stream = new ReadableStream({
    start(controller) { for (const item of items) controller.enqueue(item); controller.close(); },
    cancel(reason) { log.cancelled = reason ?? true; },
  });
  Object.defineProperty(stream, Symbol.asyncIterator, { value: undefined, writable: true, configurable: true });
  return stream;
}

test('a stream without an async iterator is read to its end by for await', async () => {
  const log = {};
  const stream = asyncIterable(safariStream(['a', 'b', 'c'], log));
  const got = [];
  for await (const item of stream) got.push(item);
  assert.deepEqual(got, ['a', 'b', 'c']);
  assert.equal(log.cancelled, undefined, 'read to the end: not cancelled');
  assert.equal(stream.locked, false, 'the reader is released');
});

test('leaving the loop early cancels the stream and releases it', async () => {
  const log = {};
  const stream = asyncIterable(safariStream(['a', 'b', 'c'], log));
  for await (const item of stream) { if (item === 'a') break; }
  assert.ok(log.cancelled, 'cancelled');
  assert.equal(stream.locked, false);
});

test('a stream with its own iterator keeps it', () => {
  const stream = new ReadableStream();
  const own = stream[Symbol.asyncIterator];
  assert.equal(asyncIterable(stream)[Symbol.asyncIterator], own);
});
