"""Export a fanyi model directory as a CTranslate2 model (``fanyi translate --engine ctranslate2``).

``ct2_spec.py`` describes the model to CTranslate2 weight by weight and copies fanyi's text
files beside it; a README.md model card (``model_card.py``) says how to use the model without
fanyi.
"""

from __future__ import annotations

from pathlib import Path

from ..atomic import staged_dir
from ..outputs import claim_dir, publish_dir
from .ct2_spec import QUANTIZATIONS, write_ctranslate2
from .model_card import write_model_card

__all__ = ["QUANTIZATIONS", "export_ctranslate2"]


def export_ctranslate2(
    model_dir: str | Path, out: str | Path, quantization: str = "float32", overwrite: bool = False
) -> Path:
    """Write the CTranslate2 directory ``out`` (weights in ``quantization``) for ``model_dir``;
    over an export fanyi wrote only with ``overwrite`` (``outputs.claim_dir``)."""
    if quantization not in QUANTIZATIONS:
        raise ValueError(f"quantization must be one of {', '.join(QUANTIZATIONS)}")
    out = claim_dir(out, overwrite)
    with staged_dir(out) as tmp:  # written whole under a temporary name, then renamed
        checkpoint, parameters = write_ctranslate2(model_dir, tmp, quantization)
        write_model_card(checkpoint, tmp, "ctranslate2", parameters, out)
        publish_dir(tmp, out)
    return out
