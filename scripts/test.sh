#!/usr/bin/env bash
# The project's test command (README: `npm test`; CI: .ci/run). Installs what is missing, builds
# the engine natively and as WebAssembly, then runs every test:
#   1. engine tests (doctest via ctest), native, under ASan+UBSan (build-asan/, with a 30 s smoke run
#      of each libFuzzer harness in tests/fuzz/; in the background from the start, beside the builds
#      and 2 and 3), and compiled to wasm (run in node)
#   2. the WASM module in node vs the native CLI (tests/wasm)
#   3. the JS module in node and the demo page in Debian's Chromium and Firefox ESR (tests/web)
#   4. Python: the CLI, the shipped models' quality regression, the card, the recipe (tests/engine,
#      tests/weights; in the background once the native build is there, beside 1's sanitizer run),
#      then the totals: how many ran and skipped; an unlisted skip fails
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
mkdir -p build/test-results
export NMT_REQUIRE_ENGINE=1  # tests fail, not skip, when the engine or a model is missing
# The times show where CI's minutes go; "idle" is the share of the CPUs nothing used since the
# last line (on 2 cores the run is bound by CPU: an idle share is time to fill).
cpu_ticks() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8, $5+$6}' /proc/stat; }
read -r last_total last_idle < <(cpu_ticks)
phase() {
  local total idle
  read -r total idle < <(cpu_ticks)
  echo "== $1 [${SECONDS} s since the start; CPU idle $(( (idle - last_idle) * 100 / (total - last_total + 1) ))% since the last line]"
  last_total=$total last_idle=$idle
}

# The sanitizer run and the Python tests go in the background, at the lowest priority, from the
# start, as two chains side by side: (a) the ASan+UBSan build, its engine tests and the fuzz smoke
# runs; (b) the Python tests, once the native build they call is there. They take the CPU the
# foreground leaves (the builds' links and configure steps, the browsers' page loads and waits):
# one after the other the phases took ~19 of CI's minutes, and with (b) after (a) the background
# ended last (the Python tests' slowest files run ~3 minutes each). Their logs are printed whole
# at the end; a failure there fails the run (after the node tests have run and reported, so one
# failure hides no other). The background runs in its own process group, so an early exit (a
# failed build) ends all of it, its compilers too.
background_log=build/test-results/background.log
python_log=build/test-results/python-tests.log
builds_done=build/test-results/builds-done
rm -f "$builds_done"
phase "in the background: engine tests under ASan+UBSan (clang, build-asan/) and a short smoke run of each libFuzzer harness; beside them the Python tests (the CLI, the shipped models' quality, the card, the recipe)"
set -m  # (the background job gets a process group of its own)
( set +m
  stamp() { echo "== $1 [${SECONDS} s since the start]"; }
  ( while [ ! -e "$builds_done" ]; do sleep 2; done
    stamp "python tests (the native build is there)"
    nice -n 19 /usr/bin/python3 tests/run_python_tests.py && stamp "python tests done"
  ) >"$python_log" 2>&1 &
  python_pid=$!
  status=0
  { stamp "ASan+UBSan build" && nice -n 19 bash scripts/build-sanitize.sh &&
    stamp "ASan+UBSan engine tests" && nice -n 19 ctest --test-dir build-asan --output-on-failure &&
    stamp "fuzz smoke runs" &&
    FUZZ_BUILD=0 FUZZ_JOBS=2 nice -n 19 bash scripts/fuzz.sh all "${NMT_FUZZ_SECONDS:-30}"  # longer: bash scripts/fuzz.sh <harness> <seconds>
  } || status=$?
  stamp "ASan+UBSan and fuzz done (exit $status); waiting for the python tests"
  wait "$python_pid" || status=$?
  stamp "background done (exit $status)"
  exit "$status"
) </dev/null >"$background_log" 2>&1 &
background_pid=$!
set +m
trap 'kill -- -"$background_pid" 2>/dev/null || true' EXIT

phase "builds: native (build/) and WebAssembly (build-wasm/)"
bash scripts/build.sh
touch "$builds_done"
phase "engine tests (native)"
ctest --test-dir build --output-on-failure
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
cat "$background_log" "$python_log"
[ "$node_status" = 0 ] || { echo "the node/browser tests FAILED (exit $node_status; TAP: build/test-results/node.tap)"; exit 1; }
[ "$background_status" = 0 ] || { echo "the ASan+UBSan tests, a fuzz run or the Python tests FAILED (exit $background_status; logs: $background_log, $python_log)"; exit 1; }
phase "totals (a skip not listed in tests/allowed_skips.txt fails the run)"
/usr/bin/python3 tests/check_skips.py
echo "all tests passed in ${SECONDS} s"
