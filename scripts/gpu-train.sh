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
# (default data) where the pack's data directories are unpacked. SOUP_WITH (a model directory)
# also writes the soup of it and the stage (their mean, int8 rows) to OUT/soup/; DEV (a prepared
# data directory with a dev split, e.g. one in the pack) scores the stage, and SOUP_WITH and the
# soup if given, on it into OUT/dev.tsv (model, target language, fanyi evaluate's JSON), into each
# language of DEV_TO (default "en zh").
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
parts() { # model directory $1 into $2: config.yaml, spm.model, weights in parts under 16 MiB
  mkdir -p "$2" && cp "$1/config.yaml" "$1/spm.model" "$2/" &&
    split -b 15M "$1/model.safetensors" "$2/model.safetensors.part-"
}
parts "$run/avg-int8" "$OUT" || exit 1
models=("$run/avg-int8")
if [ -n "${SOUP_WITH:-}" ]; then
  "$PYTHON" -m fanyi average --models "$SOUP_WITH" "$run/avg-int8" --dtype int8 \
    -o "$run/soup-int8" | tee -a "$OUT/train.log" || exit 1
  parts "$run/soup-int8" "$OUT/soup" || exit 1
  models+=("$SOUP_WITH" "$run/soup-int8")
fi
for model in "${models[@]}"; do
  [ -n "${DEV:-}" ] || break
  for to in ${DEV_TO:-en zh}; do
    score=$("$PYTHON" -m fanyi evaluate -m "$model" --data "$DEV" --split dev --to "$to" \
      --device "${DEVICE:-cuda}" --json) || exit 1
    printf '%s\t%s\t%s\n' "$model" "$to" "$score" | tee -a "$OUT/dev.tsv"
  done
done
ls -la "$OUT"
