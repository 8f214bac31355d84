#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for building and testing (run as root, as CI does).
# Quiet and quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
# clang-19 + lld-19 build the relaxed-SIMD GEMM module (build-wasm/relaxed_gemm.wasm, CMakeLists.txt).
packages=(cmake g++ emscripten libxsimd-dev nlohmann-json3-dev doctest-dev sentencepiece chromium python3 clang-19 lld-19)
# `setup.sh --tests` (scripts/test.sh) also installs what only the tests need: PyTorch for the
# recipe's tests (training schedule, grown models, cached decoding, the GPU plan on CPU), the Python
# SentencePiece the GPU machine uses (tested against Debian's tools), the
# TypeScript compiler that type-checks web/translator.d.ts, and clang with its sanitizer and
# libFuzzer runtimes (build-asan/: scripts/build-sanitize.sh, scripts/fuzz.sh), and Firefox ESR
# for the end-to-end tests' second browser (driven by npm puppeteer-core, which downloads nothing).
if [ "${1:-}" = "--tests" ]; then
  packages+=(python3-torch python3-sentencepiece node-typescript clang libclang-rt-14-dev firefox-esr)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# Node may come from elsewhere (e.g. a nodesource build that bundles npm): only add Debian's if absent.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ! -d node_modules/playwright-core ] || [ ! -d node_modules/puppeteer-core ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
