"""Where a model directory is: a path, or the name of a bundled model."""

from __future__ import annotations

from pathlib import Path

BUNDLED_MODELS = Path(__file__).resolve().parents[1] / "bundled"
BUNDLED = BUNDLED_MODELS / "zh-en-general"  # the default: documentation, news and everyday text
TATOEBA = BUNDLED_MODELS / "zh-en"  # the Tatoeba ensemble: two small models of everyday sentences


def resolve_model_dir(model_dir: str | Path | None) -> Path:
    """``model_dir``; a bundled model's name (``zh-en``, ``zh-en-general``) where no such
    directory exists; the default bundled model when it is None (a clear error if none)."""
    if model_dir is not None:
        path, named = Path(model_dir), BUNDLED_MODELS / str(model_dir)
        if not path.exists() and path.name == str(model_dir) and named.is_dir():
            return named
        return path
    if not BUNDLED.is_dir():
        raise FileNotFoundError(f"no bundled model (looked in {BUNDLED}); pass -m DIR")
    return BUNDLED
