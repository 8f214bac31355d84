#!/usr/bin/env bash
# The project's test command (README: `npm test`; CI: .ci/run). Installs what is missing, builds
# the engine natively and as WebAssembly, then runs every test:
#   1. engine tests (doctest via ctest), native, under ASan+UBSan (build-asan/, with a 20 s smoke run
#      of each libFuzzer harness in tests/fuzz/; in the background beside 2 and 3), and compiled to
#      wasm (run in node)
#   2. the WASM module in node vs the native CLI (tests/wasm)
#   3. the JS module in node and the demo page in Debian's Chromium and Firefox ESR (tests/web)
#   4. Python: the CLI, the shipped models' quality regression, the card, the recipe (tests/engine,
#      tests/weights), then the totals: how many ran and skipped; an unlisted skip fails
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
bash scripts/build.sh
echo "setup and builds: ${SECONDS} s"
mkdir -p build/test-results
export NMT_REQUIRE_ENGINE=1  # tests fail, not skip, when the engine or a model is missing
phase() { echo "== $1 [${SECONDS} s since the start]"; }  # the times show where CI's minutes go

phase "engine tests (native)"
ctest --test-dir build --output-on-failure

# The sanitizer run goes in the background, at the lowest priority, while the node/Chromium tests
# (which leave much of the CPU idle) run in the foreground: it takes what they leave, and both cores
# once they end. One after the other they took ~12 of CI's minutes. Its log is printed whole when
# it ends; a failure there fails the run.
phase "engine tests under ASan+UBSan (clang, build-asan/), then each libFuzzer harness for a short smoke run: started in the background"
asan_log=build/test-results/asan.log
( nice -n 19 bash scripts/build-sanitize.sh
  nice -n 19 ctest --test-dir build-asan --output-on-failure
  FUZZ_BUILD=0 FUZZ_JOBS=2 nice -n 19 bash scripts/fuzz.sh all "${NMT_FUZZ_SECONDS:-30}"  # longer: bash scripts/fuzz.sh <harness> <seconds>
) >"$asan_log" 2>&1 &
asan_pid=$!
trap 'kill "$asan_pid" 2>/dev/null || true' EXIT
phase "engine tests (wasm, in node)"
ctest --test-dir build-wasm --output-on-failure
phase "wasm module and web tests (node, chromium, firefox)"
node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination=build/test-results/node.tap tests/wasm/ tests/web/
phase "waiting for the ASan+UBSan tests and fuzz runs"
asan_status=0
wait "$asan_pid" || asan_status=$?
trap - EXIT
cat "$asan_log"
[ "$asan_status" = 0 ] || { echo "the ASan+UBSan tests or a fuzz run FAILED (exit $asan_status; log: $asan_log)"; exit 1; }
phase "python: the CLI, the shipped models' quality, the card, the recipe"
/usr/bin/python3 tests/run_python_tests.py
phase "totals (a skip not listed in tests/allowed_skips.txt fails the run)"
/usr/bin/python3 tests/check_skips.py
echo "all tests passed in ${SECONDS} s"
