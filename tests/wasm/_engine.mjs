// The WASM engine module (build-wasm/engine.js) loaded in Node, for the tests in this folder that
// call its bindings directly, and the fixture model they load.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ENGINE = path.join(ROOT, 'build-wasm/engine.js');
export const FIXTURE = path.join(ROOT, 'tests/fixtures/tiny.nmt');
export const skip = !existsSync(ENGINE) && process.env.NMT_REQUIRE_ENGINE !== '1' && 'build-wasm/engine.js is missing: run scripts/build.sh';

export async function engineModule() {
  // Emscripten 3.1.6's ES module needs these in Node (engine/BUILDING.md).
  globalThis.require = createRequire(import.meta.url);
  globalThis.__dirname = path.join(ROOT, 'build-wasm');
  const { default: createEngine } = await import(pathToFileURL(ENGINE).href);
  return createEngine({ wasmBinary: readFileSync(path.join(ROOT, 'build-wasm/engine.wasm')) });
}
