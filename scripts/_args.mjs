// The benchmark scripts' command line: `--name value` options and bare `--name` flags, read from
// process.argv. Each script lists its own options in its header comment; this file only reads them.
import path from 'node:path';

const args = process.argv.slice(2);

/**
 * The value after `--name`, or `fallback` when `--name` is not given. A `--name` with nothing after
 * it stops the script with a one-line error, so that a cut-off command line does not run with
 * `undefined` (NaN as a number).
 */
export function value(name, fallback) {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  if (i + 1 >= args.length) {
    console.error(`${path.basename(process.argv[1], '.mjs')}: --${name} needs a value`);
    process.exit(2);
  }
  return args[i + 1];
}

/** Whether the bare flag `--name` is given. */
export function flag(name) {
  return args.includes(`--${name}`);
}
