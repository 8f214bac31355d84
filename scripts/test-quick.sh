#!/usr/bin/env bash
# The quick test tier (`npm run test:quick`) for a contributor between edits: minutes, not the full
# run's quarter hour. It builds the engine natively only (build/: the `nmt` CLI and the doctest
# unit tests; no WebAssembly, no sanitizer build, no fuzzing), runs the engine's unit tests, then a
# few JS module tests in Node that need no browser: the public API over the fake engine, the .d.ts
# against the module, the option table, the HTML pass, the page's pure helpers, the docs' links and
# the README's samples. The tests that need the WASM engine (build-wasm/, built by `npm run build`
# or `npm test`) use it when it is there and skip otherwise. `npm test` stays the full run (every
# browser test, ASan+UBSan, fuzz, Python).
# BUILD_DIR=folder builds and tests the native engine in another folder than build/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=${BUILD_DIR:-build}
phase() { echo "== $1 [${SECONDS} s]"; }

phase "native build ($build/: nmt, engine_tests)"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target nmt engine_tests

phase "engine unit tests (doctest)"
(cd "$build" && ctest --output-on-failure)

phase "JS module tests in node (no browser)"
[ -f build-wasm/engine.js ] || echo "(build-wasm/engine.js is missing: the tests that need the WASM engine skip; npm run build makes it)"
node --test --test-concurrency=2 \
  tests/web/module-api.test.mjs tests/web/typecheck.test.mjs tests/web/html.test.mjs \
  tests/web/newcomer-unit.test.mjs tests/web/docs-links.test.mjs tests/wasm/options.test.mjs
echo "quick tests passed in ${SECONDS} s (the full run: npm test)"
