#!/usr/bin/env bash
# One training stage on a GPU machine from a carried pack (docs/gpu.md, "Training data to a
# card"): install the pack's wheels, unpack its data directories, train, average the last
# checkpoints into int8 rows and leave the model in $OUT in parts under 16 MiB.
#   OUT=$OUT bash scripts/gpu-train.sh PACK CONFIG [fanyi train flags...]
# PACK holds *.whl and data/NAME/ (files ending in .xz are decompressed) and is made here by
#   bash scripts/gpu-pack.sh PACK data/NAME [...]
# Back here: cat OUT/model.safetensors.part-* > DIR/model.safetensors beside OUT's config.yaml
# and spm.model. The run's optimizer state stays on the card; continue with --init-from.
# AVERAGE (default 3) sets how many of the last kept checkpoints are averaged; DEVICE (default
# cuda) where it trains (DEVICE=cpu tries the script on a machine without a card); DATA_ROOT
# (default data) where the pack's data directories are unpacked.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
pack=$1 config=$2
shift 2
OUT=${OUT:-gpu-train-out} PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"

if compgen -G "$pack/*.whl" >/dev/null; then
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site "$pack"/*.whl || exit 1
fi
export PYTHONPATH="$PWD/src:/tmp/site" PYTHONUNBUFFERED=1
root=${DATA_ROOT:-data}
for dir in "$pack"/data/*/; do
  into="$root/$(basename "$dir")"
  mkdir -p "$into" && cp "$dir"* "$into/" && { xz -d -T0 -f "$into/"*.xz 2>/dev/null || true; }
done

sampler=
if command -v nvidia-smi >/dev/null; then # the card, and its busy share every 2 s
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/card.txt"
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -l 2 >"$OUT/busy.txt" &
  sampler=$!
fi
"$PYTHON" -m fanyi train --config "$config" --device "${DEVICE:-cuda}" "$@" 2>&1 | tee "$OUT/train.log"
trained=${PIPESTATUS[0]}
[ -z "$sampler" ] || kill "$sampler"
[ "$trained" -eq 0 ] || exit "$trained"

run=$(tail -n 1 "$OUT/train.log") # fanyi train ends by printing its run directory
[ -d "$run" ] || { echo "gpu-train.sh: no run directory at the end of $OUT/train.log" >&2; exit 1; }
"$PYTHON" -m fanyi average "$run" --last "${AVERAGE:-3}" --dtype int8 -o "$run/avg-int8" |
  tee -a "$OUT/train.log" || exit 1
cp "$run/avg-int8/config.yaml" "$run/avg-int8/spm.model" "$OUT/"
split -b 15M "$run/avg-int8/model.safetensors" "$OUT/model.safetensors.part-"
ls -la "$OUT"
