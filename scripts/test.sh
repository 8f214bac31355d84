#!/usr/bin/env bash
# The project's test command (README: `npm test`; CI: .ci/run). Installs what is missing, builds
# the engine natively and as WebAssembly, then runs every test:
#   1. engine tests (doctest via ctest), native, under ASan+UBSan (build-asan/, with a 30 s smoke run
#      of each libFuzzer harness in tests/fuzz/; in the background beside 2 and 3), and compiled to
#      wasm (run in node)
#   2. the WASM module in node vs the native CLI (tests/wasm)
#   3. the JS module in node and the demo page in Debian's Chromium and Firefox ESR (tests/web)
#   4. Python: the CLI, the shipped models' quality regression, the card, the recipe (tests/engine,
#      tests/weights; in the background after 1's sanitizer run), then the totals: how many ran and
#      skipped; an unlisted skip fails
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

# The sanitizer run and then the Python tests go in the background, at the lowest priority, while
# the node/Chromium/Firefox tests (which leave much of the CPU idle: page loads, waits) run in the
# foreground: they take what the browsers leave, and both cores once those end. One after the other
# the three phases took ~19 of CI's minutes. The log is printed whole when it ends; a failure there
# fails the run (after the node tests have run and reported, so one failure hides no other).
phase "in the background: engine tests under ASan+UBSan (clang, build-asan/), a short smoke run of each libFuzzer harness, then the Python tests (the CLI, the shipped models' quality, the card, the recipe)"
background_log=build/test-results/background.log
( set -e
  stamp() { echo "== $1 [${SECONDS} s since the start]"; }
  stamp "ASan+UBSan build"
  nice -n 19 bash scripts/build-sanitize.sh
  stamp "ASan+UBSan engine tests"
  nice -n 19 ctest --test-dir build-asan --output-on-failure
  stamp "fuzz smoke runs"
  FUZZ_BUILD=0 FUZZ_JOBS=2 nice -n 19 bash scripts/fuzz.sh all "${NMT_FUZZ_SECONDS:-30}"  # longer: bash scripts/fuzz.sh <harness> <seconds>
  stamp "python tests"
  nice -n 19 /usr/bin/python3 tests/run_python_tests.py
  stamp "background done"
) >"$background_log" 2>&1 &
background_pid=$!
trap 'kill "$background_pid" 2>/dev/null || true' EXIT
phase "engine tests (wasm, in node)"
ctest --test-dir build-wasm --output-on-failure
phase "wasm module and web tests (node, chromium, firefox)"
node_status=0
node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination=build/test-results/node.tap tests/wasm/ tests/web/ \
  || node_status=$?
phase "waiting for the background run (ASan+UBSan, fuzz, Python)"
background_status=0
wait "$background_pid" || background_status=$?
trap - EXIT
cat "$background_log"
[ "$node_status" = 0 ] || { echo "the node/browser tests FAILED (exit $node_status; TAP: build/test-results/node.tap)"; exit 1; }
[ "$background_status" = 0 ] || { echo "the ASan+UBSan tests, a fuzz run or the Python tests FAILED (exit $background_status; log: $background_log)"; exit 1; }
phase "totals (a skip not listed in tests/allowed_skips.txt fails the run)"
/usr/bin/python3 tests/check_skips.py
echo "all tests passed in ${SECONDS} s"
