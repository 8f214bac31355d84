#!/usr/bin/env bash
# The GPU plan, one command's worth: at most 9 minutes of work, then the state and what is ready go
# to $OUT. Run it again (device tool `run`, carry ["gpu-carry"]) until it prints "plan: done";
# gpu_round.py's docstring has the whole plan, README.md "Reproduce the models" the commands around it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader 2>/dev/null || true
exec python3 weights/recipe/gpu_round.py step --out "${OUT:-gpu-out}" "$@"
