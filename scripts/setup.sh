#!/usr/bin/env bash
# Create (or update) the virtual environment .venv with fanyi installed in it.
#   scripts/setup.sh          runtime only
#   scripts/setup.sh --dev    plus the test tools
# PyTorch is installed first, as $FANYI_TORCH (default torch==2.13.0, the CPU build this project is
# tested with). Elsewhere pick your build, e.g. FANYI_TORCH="torch --index-url
# https://download.pytorch.org/whl/cu124" for CUDA 12.4; see README "Installing PyTorch".
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
[ -x .venv/bin/python ] || "$python" -m venv .venv
pip() { .venv/bin/python -m pip --disable-pip-version-check -q "$@"; }
# shellcheck disable=SC2086  # FANYI_TORCH may carry pip options
pip install ${FANYI_TORCH:-torch==2.13.0}
extras=""
[ "${1:-}" = "--dev" ] && extras="[dev]"
pip install -c requirements/constraints.txt -e ".${extras}"
