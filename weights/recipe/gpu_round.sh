#!/usr/bin/env bash
# One step of a one-slice distillation plan on the GPU machine (device tool `run`, carry ["gpu-carry"]).
# The next slice's plan, `compare` (`teacher_plan.py budget` prints the calls and checks them):
#   bash weights/recipe/gpu_round.sh train --minutes 3.5 --self-distill             # call 1, timeout_s 410
#   bash weights/recipe/gpu_round.sh distill --teachers grown,shipped --minutes 2; \
#     bash weights/recipe/gpu_round.sh students --arms grown,shipped,mix --minutes 4  # call 2 at once, timeout_s 600
# teacher_plan.py's docstring has the whole plan; weights/README.md "Reproduce" the commands around it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader 2>/dev/null || true
step="${1:?usage: gpu_round.sh train|distill|students [teacher_plan.py options]}"
shift
exec python3 weights/recipe/teacher_plan.py "$step" --out "${OUT:-gpu-out}" "$@"
