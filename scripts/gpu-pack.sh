#!/usr/bin/env bash
# Make a pack for scripts/gpu-train.sh (docs/gpu.md): the wheels a bare GPU image lacks for
# training (opencc, sentencepiece 0.2.3, from $WHEELS, default .whl/) and each prepared data
# directory without its text training files, the token shards xz-compressed.
#   bash scripts/gpu-pack.sh PACK data/NAME [data/NAME ...]
set -euo pipefail
cd "$(dirname "$0")/.."
pack=$1
shift
mkdir -p "$pack"
wheels=${WHEELS:-.whl}
cp "$wheels"/opencc-*.whl "$wheels"/sentencepiece-*.whl "$pack/" 2>/dev/null ||
  echo "no opencc or sentencepiece wheel in $wheels/ (docs/gpu.md): the pack holds data only" >&2
for data in "$@"; do
  into="$pack/data/$(basename "$data")"
  mkdir -p "$into"
  for file in "$data"/*; do
    case $(basename "$file") in
      train.src | train.tgt) ;; # training reads the shards
      train.*.npy) xz -6 -T2 -c "$file" >"$into/$(basename "$file").xz" ;;
      *) cp "$file" "$into/" ;;
    esac
  done
done
du -sh "$pack"
