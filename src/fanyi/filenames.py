"""The names of the files fanyi reads and writes: its own (model, run and export directories,
caches) and those of the formats it converts to and from (Hugging Face MarianMT, Marian,
CTranslate2). One constant per file; every module that opens one imports its name from here.
"""

from __future__ import annotations

# --- a fanyi model directory (model_dir.py) ---
MODEL_FILE = "model.safetensors"  # the weights, each shared tensor once
CONFIG_FILE = "config.yaml"  # sections model, data, train, vocab, checkpoint, decode (or ensemble)
STATE_TENSORS = "training_state.safetensors"  # a checkpoint's resume state (train/state.py)
STATE_JSON = "training_state.json"
TRUECASE_FILE = "truecase.txt"  # the words written in lower case inside a sentence (recase.py)

# --- a run directory (train/) ---
INDEX_FILE = "checkpoints.json"  # the run's last, best and kept checkpoints
LOG_FILE = "log.jsonl"  # one record per logged window and per validation
TRAIN_CONFIG_FILE = "train.yaml"  # a recipe's merged training config
AVERAGED_DIR = "averaged"  # default output of `fanyi average RUN`

# --- every folder a command writes whole (outputs.py) ---
OUTPUT_MARKER = ".fanyi-output.json"  # the files fanyi wrote there: what --overwrite may replace

# --- this host's cache (engines/dtype.py) ---
DTYPE_CACHE_FILE = "dtype.json"  # the dtype `auto` chose per model, CPU, torch and threads

# --- an export's model card (interop/model_card.py) ---
MODEL_CARD_FILE = "README.md"
PREPROCESS_FILE = "preprocess.py"  # fanyi's normalisation, shipped beside the model

# --- Hugging Face MarianMT (interop/convert.py in, interop/export_hf.py out) ---
HF_CONFIG_FILE = "config.json"  # MarianConfig
HF_GENERATION_CONFIG_FILE = "generation_config.json"  # generate's beam, limits
HF_TOKENIZER_CONFIG_FILE = "tokenizer_config.json"  # languages, separate_vocabs
HF_WEIGHTS_FILE = "model.safetensors"
HF_TORCH_WEIGHTS_FILE = "pytorch_model.bin"  # older MarianMT checkpoints: a torch.save pickle
SOURCE_SPM, TARGET_SPM = "source.spm", "target.spm"  # MarianTokenizer's SentencePiece models
VOCAB_JSON = "vocab.json"  # the one piece → id table of both
MARIAN_VOCAB_FILES = (SOURCE_SPM, TARGET_SPM, VOCAB_JSON)

# --- a Marian release (interop/marian_npz.py) ---
MARIAN_DECODER_FILE = "decoder.yml"  # its beam-size

# --- CTranslate2 (interop/export_ct2.py, interop/ct2_native.py, engines/ctranslate2.py) ---
CT2_MODEL_FILE = "model.bin"  # weights and variables, one binary file
CT2_CONFIG_FILE = "config.json"  # CTranslate2's own: special tokens, not MarianConfig
