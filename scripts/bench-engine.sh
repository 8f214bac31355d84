#!/usr/bin/env bash
# Engine benchmarks (numbers, never pass/fail): kernel throughput vs the scalar references, then
# translation throughput natively and in WASM for the fixture model and the shipped models.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/bench_kernels ] || bash scripts/build.sh
echo "== kernels"; build/bench_kernels
for m in tests/fixtures/tiny.nmt weights/en-de/model.nmt weights/de-en/model.nmt; do
  [ -f "$m" ] || continue
  for beam in 1 4; do echo "== $m, beam $beam"; node scripts/bench-engine.mjs --model "$m" --beam $beam; done
done
