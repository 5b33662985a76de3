#!/usr/bin/env bash
# The CUDA tier in one command on a GPU machine (docs/gpu.md): install the wheels a
# bare image lacks (carried in .whl/), run the device tier's tests on CUDA, translate and evaluate
# the bundled model on CUDA, and measure training (fanyi against a torch.nn.Transformer loop and
# MarianMTModel training) and decoding (against Hugging Face generate). Results go to $OUT
# (default gpu-check-out/): summary.txt, tests.log, translate.txt, evaluate.json, gpu.jsonl,
# gpu_decode.jsonl, levers.jsonl, shapes.jsonl, compiled.jsonl.
# Under six minutes on an H100/H200 without the last stage, compiled decoding (unmeasured: it
# comes last, so a call cut short keeps the rest); each stage has its own time limit and a failing
# stage does not stop the next. The exit status is the number of stages that failed.
# STAGES="tests translate ..." runs only the stages named (the others are reported as skipped).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
OUT=${OUT:-gpu-check-out}
PYTHON=${PYTHON:-python3}
mkdir -p "$OUT"
failed=0

stage() { # NAME SECONDS COMMAND...: run one stage under a time limit, say how it ended
  local name=$1 seconds=$2 start=$SECONDS status
  shift 2
  if [ -n "${STAGES:-}" ] && [[ " $STAGES " != *" $name "* ]]; then
    echo "$name skipped" | tee -a "$OUT/summary.txt"
    return
  fi
  timeout "$seconds" "$@"
  status=$?
  printf '%-10s rc %d in %d s\n' "$name" "$status" $((SECONDS - start)) | tee -a "$OUT/summary.txt"
  [ "$status" -eq 0 ] || failed=$((failed + 1))
}

if compgen -G ".whl/*.whl" >/dev/null; then # sentencepiece 0.2.3, opencc, fastapi, uvicorn, ...
  "$PYTHON" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
export FANYI_TEST_DEVICE=cuda FANYI_CACHE=/tmp/fanyi-cache

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader |
  tee -a "$OUT/summary.txt"
"$PYTHON" -c 'import sentencepiece, torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "bf16",
      torch.cuda.is_bf16_supported(), "sentencepiece", sentencepiece.__version__)' |
  tee -a "$OUT/summary.txt"

# -o addopts: one process, without pyproject's `-n 2` (a bare image has no pytest-xdist)
stage tests 180 "$PYTHON" -m pytest -q -p no:cacheprovider -o addopts="-ra --strict-markers" \
  --device cuda \
  tests/integration/test_on_device.py tests/integration/test_translator.py \
  tests/integration/test_server.py tests/integration/test_train_cuda.py \
  tests/unit/decode/test_tensor_devices.py tests/unit/train/test_checkpoint_devices.py \
  tests/unit/test_device.py tests/integration/test_evaluate.py \
  tests/unit/model/test_compiled.py >"$OUT/tests.log" 2>&1
tail -n 3 "$OUT/tests.log" | tee -a "$OUT/summary.txt"

printf '你叫什么名字？\n这本书很有意思。\nWhere is the train station?\nThe weather is nice today.\n' \
  >/tmp/lines.txt
stage translate 45 "$PYTHON" -m fanyi translate --device cuda -i /tmp/lines.txt \
  >"$OUT/translate.txt" 2>&1
cat "$OUT/translate.txt" >>"$OUT/summary.txt" 2>/dev/null

pairs=tests/fixtures/data/tatoeba-cmn-eng/bundled-test.txt
head -n 300 "$pairs" | cut -f2 >/tmp/test.zh
head -n 300 "$pairs" | cut -f1 >/tmp/test.en
stage evaluate 60 "$PYTHON" -m fanyi evaluate --device cuda --src /tmp/test.zh \
  --ref /tmp/test.en --to en --json >"$OUT/evaluate.json" 2>&1
cat "$OUT/evaluate.json" >>"$OUT/summary.txt" 2>/dev/null

stage benchmark 120 "$PYTHON" benchmarks/gpu.py --device cuda --steps 20 \
  --tokens 4096,32768,65536 >"$OUT/gpu.jsonl" 2>&1
tail -n 1 "$OUT/gpu.jsonl" >>"$OUT/summary.txt" 2>/dev/null

stage decode 100 "$PYTHON" benchmarks/gpu_decode.py --device cuda >"$OUT/gpu_decode.jsonl" 2>&1
tail -n 1 "$OUT/gpu_decode.jsonl" >>"$OUT/summary.txt" 2>/dev/null

# the training levers, each against plain fanyi in the same run: fused Adam (fanyi-unfused: the
# foreach one), torch.compile of the model, the loss read on the host after every step
stage levers 120 bash -c '"$0" benchmarks/gpu.py --device cuda --steps 20 --sizes base \
  --tokens 32768 --systems fanyi,fanyi-unfused,fanyi-compile &&
  "$0" benchmarks/gpu.py --device cuda --steps 20 --sizes base --tokens 32768 \
  --systems fanyi --read-each-step' "$PYTHON" >"$OUT/levers.jsonl" 2>&1
grep -h '"system"' "$OUT/levers.jsonl" | grep -v results >>"$OUT/summary.txt" 2>/dev/null

# a new batch shape at every step, as in a real run's first epoch (which ran 3-4x slower than the
# next ones on an H100, docs/gpu.md): the caching allocator as it is, then with expandable segments
stage shapes 90 bash -c 'for conf in "" expandable_segments:True; do
  PYTORCH_CUDA_ALLOC_CONF=$conf "$0" benchmarks/gpu.py --device cuda --steps 60 --sizes bundled \
    --tokens 32768 --systems fanyi --varied | tail -n 1 | sed "s/^/${conf:-default} /"; done' \
  "$PYTHON" >"$OUT/shapes.jsonl" 2>&1
cut -c1-240 "$OUT/shapes.jsonl" >>"$OUT/summary.txt" 2>/dev/null

# the decoder's steps compiled (compile: true; Triton kernels, one compile per search in the
# warm-up), beside eager fanyi and HF generate at the target's setting (base, batch 64, beam 4)
stage compiled 150 "$PYTHON" benchmarks/gpu_decode.py --device cuda --sizes base --batches 64 \
  --systems fanyi,fanyi-compiled,hf >"$OUT/compiled.jsonl" 2>&1
grep -h '"batch"' "$OUT/compiled.jsonl" | cut -c1-240 >>"$OUT/summary.txt" 2>/dev/null

echo "stages failed: $failed" | tee -a "$OUT/summary.txt"
exit "$failed"
