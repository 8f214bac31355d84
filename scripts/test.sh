#!/usr/bin/env bash
# The project's test command (README: `npm test`; CI: .ci/run). Installs what is missing, builds
# the engine natively and as WebAssembly, then runs every test:
#   1. engine tests (doctest via ctest), native and compiled to wasm (run in node)
#   2. the WASM module in node vs the native CLI (tests/wasm)
#   3. the JS module in node and the demo page in Debian Chromium (tests/web)
#   4. the shipped models' quality regression (tests/weights)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
export NMT_REQUIRE_ENGINE=1  # tests fail, not skip, when the engine or a model is missing

echo "== engine tests (native)"
ctest --test-dir build --output-on-failure
echo "== engine tests (wasm, in node)"
ctest --test-dir build-wasm --output-on-failure
echo "== wasm module and web tests (node, chromium)"
node --test --test-concurrency=1 tests/wasm/ tests/web/
echo "== shipped model quality"
/usr/bin/python3 tests/weights/test_metrics.py
/usr/bin/python3 tests/engine/test_cli.py  # the nmt command-line tool
/usr/bin/python3 tests/weights/test_quality.py
/usr/bin/python3 tests/weights/test_card.py  # the model card describes the shipped models
/usr/bin/python3 tests/weights/test_grow.py  # recipe; skips without PyTorch
/usr/bin/python3 tests/weights/test_cached_decoding.py  # recipe; skips without PyTorch
/usr/bin/python3 tests/weights/test_schedule.py  # recipe; skips without PyTorch
/usr/bin/python3 tests/weights/test_mix.py  # recipe: the data mix
