#!/usr/bin/env bash
# Builds build-asan/: the engine with clang, AddressSanitizer + UBSan (-fno-sanitize-recover=all:
# any report fails) and libFuzzer's coverage instrumentation; the doctest suite (engine_tests, run
# by `ctest --test-dir build-asan`; its own code is compiled plain, the engine it calls instrumented)
# and the libFuzzer harnesses (fuzz_*, run by scripts/fuzz.sh).
# -O2 -g1 without NDEBUG: the engine's asserts are on, and reports name file and line.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
cmake -S . -B build-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1" -DNMT_FUZZ=ON >/dev/null
cmake --build build-asan -j"$jobs" --target engine_tests fuzz_text fuzz_tokenizer fuzz_model fuzz_translate
