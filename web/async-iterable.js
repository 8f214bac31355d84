/**
 * ReadableStreams that a `for await` loop reads in every browser. Safari's streams are not
 * async-iterable yet: a stream without [Symbol.asyncIterator] gets one that reads it through a
 * reader, and leaving the loop early cancels the stream, as the built-in iterator does. Both
 * translateStreaming()s (translator.js, polyfill.js) return their streams through it.
 */

/** `stream`, async-iterable. */
export function asyncIterable(stream) {
  if (typeof stream[Symbol.asyncIterator] !== 'function') stream[Symbol.asyncIterator] = readerIterator;
  return stream;
}

function readerIterator() {
  const reader = this.getReader();
  return {
    async next() {
      const result = await reader.read();
      if (result.done) reader.releaseLock(); // (as the built-in iterator does at the end)
      return result;
    },
    async return(value) {
      try {
        await reader.cancel();
      } catch {
        // (already errored: nothing to cancel)
      }
      reader.releaseLock();
      return { value, done: true };
    },
    [Symbol.asyncIterator]() { return this; },
  };
}
