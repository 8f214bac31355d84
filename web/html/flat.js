/**
 * Runs a recursive tree walk on a stack of its own instead of the JavaScript call stack, so that
 * markup nested any depth (100,000 elements inside each other) is walked without "Maximum call
 * stack size exceeded". A walk is written as generator functions: where a recursive function would
 * call itself, `yield f(x)` calls f (a generator function) and gives back what it returns:
 *
 *   function* depth(node) {
 *     let d = 0;
 *     for (const c of node.children) d = Math.max(d, yield depth(c));
 *     return d + 1;
 *   }
 *   runFlat(depth(root));
 *
 * The order of everything is that of the plain recursion; an exception propagates out of runFlat.
 */

/** Runs `root` (a started generator, as from calling a generator function) to its return value. */
export function runFlat(root) {
  const stack = [root];
  let value;
  while (stack.length) {
    const step = stack[stack.length - 1].next(value);
    value = undefined;
    if (step.done) {
      stack.pop();
      value = step.value;
    } else stack.push(step.value);
  }
  return value;
}
