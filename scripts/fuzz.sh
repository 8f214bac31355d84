#!/usr/bin/env bash
# Runs the libFuzzer harnesses (tests/fuzz/README.md) built in build-asan/ (scripts/build-sanitize.sh).
#   bash scripts/fuzz.sh <harness|all> [seconds per harness, default 60] [extra libFuzzer flags...]
#     harness: text, tokenizer, model, translate (or fuzz_text, ...)
# The repo's seed corpus (tests/fuzz/corpus/<harness>/) is read, never written: new inputs go to
# build-asan/fuzz-corpus/<harness>/ (kept between runs), crashes to build-asan/fuzz-crashes/<harness>/.
# A crash fails the run and prints how to reproduce it; after fixing the bug, copy the input into
# tests/fuzz/corpus/<harness>/ (named crash-<what>) so every later run replays it.
# FUZZ_BUILD=0 skips the build step (scripts/test.sh builds first); FUZZ_JOBS=N runs N harnesses at once.
set -euo pipefail
cd "$(dirname "$0")/.."
which=${1:?usage: scripts/fuzz.sh <text|tokenizer|model|translate|all> [seconds] [libFuzzer flags]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : 1 ))
harnesses=(text tokenizer model translate)
[ "$which" = all ] || harnesses=("${which#fuzz_}")
[ "${FUZZ_BUILD:-1}" = 0 ] || bash scripts/build-sanitize.sh
# One harness: its summary line, or the log's tail and how to reproduce; exit status 1 on a crash.
fuzz_one() {
  local h=$1; shift
  local bin=build-asan/fuzz_$h work=build-asan/fuzz-corpus/$h crashes=build-asan/fuzz-crashes/$h
  local log=build-asan/fuzz-$h.log maxlen=4096
  [ "$h" = model ] && maxlen=16384
  mkdir -p "$work" "$crashes"
  echo "== fuzz $h for ${seconds}s"
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1 \
     "$bin" -max_total_time="$seconds" -max_len="$maxlen" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
       -artifact_prefix="$crashes/" "$@" "$work" "tests/fuzz/corpus/$h" >"$log" 2>&1; then
    grep -aE '^stat::(number_of_executed_units|peak_rss_mb)' "$log" | tr '\n' ' '; echo
  else
    tail -n 60 "$log"
    echo "fuzz $h FAILED (log: $log); reproduce: $bin $crashes/<crash file>"
    return 1
  fi
}

for h in "${harnesses[@]}"; do
  [ -x "build-asan/fuzz_$h" ] || { echo "fuzz: no build-asan/fuzz_$h (harnesses: text tokenizer model translate)"; exit 2; }
done
# FUZZ_JOBS harnesses at a time (libFuzzer uses one core each); each one's report is printed whole
jobs=${FUZZ_JOBS:-1}
status=0
for ((i = 0; i < ${#harnesses[@]}; i += jobs)); do
  pids=() reports=()
  for h in "${harnesses[@]:i:jobs}"; do
    reports+=("build-asan/fuzz-$h.report")
    fuzz_one "$h" "$@" >"build-asan/fuzz-$h.report" 2>&1 &
    pids+=($!)
  done
  for k in "${!pids[@]}"; do
    wait "${pids[$k]}" || status=1
    cat "${reports[$k]}"
  done
done
exit $status
