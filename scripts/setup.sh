#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for building and testing (run as root, as CI does).
# Quiet and quick when everything is already there.
set -euo pipefail
packages=(cmake g++ emscripten libxsimd-dev nlohmann-json3-dev doctest-dev sentencepiece chromium nodejs npm)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [ ! -d node_modules/playwright-core ]; then
  echo "setup: npm install"
  npm install --no-audit --no-fund
fi
