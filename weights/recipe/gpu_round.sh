#!/usr/bin/env bash
# One call of the one-slice teacher plan on the GPU machine (device tool `run`, carry ["gpu-carry"]):
#   bash weights/recipe/gpu_round.sh train     # call 1, timeout_s 560: both teachers, int8 copies to $OUT
#   bash weights/recipe/gpu_round.sh distill; bash weights/recipe/gpu_round.sh students
#       # call 2 at once, timeout_s 520: the distilled text, then the students trained on it, to $OUT
# teacher_plan.py's docstring has the whole plan; weights/README.md "Reproduce" the commands around it.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv,noheader 2>/dev/null || true
call="${1:?usage: gpu_round.sh train|distill|students [teacher_plan.py options]}"
shift
exec python3 weights/recipe/teacher_plan.py "$call" --out "${OUT:-gpu-out}" "$@"
