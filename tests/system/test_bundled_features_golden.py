"""The bundled model's translations with each text feature and per-call option, on and off,
equal the stored ones (tests/system/golden/features.tsv): a change in the text pipeline, the
options or the search that alters a translation shows up here. Regenerate with
``scripts/update_golden.py`` when the model or a feature's behaviour changes on purpose."""

import importlib.util
import json
from pathlib import Path

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "update_golden.py"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]


def load_script():
    """scripts/update_golden.py as a module: the cases and settings live there only."""
    spec = importlib.util.spec_from_file_location("update_golden", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_feature_translations_are_unchanged():
    script = load_script()
    rows = [line.split("\t") for line in script.FEATURES.read_text(encoding="utf-8").splitlines()]
    assert [(json.loads(o), s) for o, s, _ in rows] == script.FEATURE_CASES
    translations = script.translate_features(Translator.load(dtype="fp32"))
    assert translations == [translation for _, _, translation in rows]
