#!/usr/bin/env bash
# Builds the engine natively (build/: library, `nmt` CLI, tests, benchmarks) and as WebAssembly
# (build-wasm/engine.js + engine.wasm, and the test suite compiled to wasm).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=${JOBS:-2}
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
# emcc needs acorn from Debian's node modules (see engine/BUILDING.md)
export NODE_PATH=/usr/share/nodejs
emcmake cmake -S . -B build-wasm -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node;--no-experimental-fetch" >/dev/null
cmake --build build-wasm -j"$jobs"
