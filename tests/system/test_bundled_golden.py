"""The bundled model's translations of 20 fixed sentences (10 Chinese, 10 English, none from
Tatoeba) equal the stored ones: a silent change in the model, decoding or text handling shows
up here. Regenerate with ``scripts/update_golden.py`` when the model is replaced on purpose.

This is where the model's words are pinned, with the features' golden file that the same script
writes (test_bundled_features_golden.py). Every other bundled-model test compares the model with
its own output (a feature on and off, a line alone and in a paragraph) or holds it to a floor
(BLEU, everyday phrases missed), so a retrained model passes them as long as the features work
and it is no worse."""

import importlib.util
from pathlib import Path

import pytest

from fanyi import Translator
from fanyi.translate.translator import BUNDLED

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "update_golden.py"

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def load_script():
    """scripts/update_golden.py as a module: the sentences and settings live there only."""
    spec = importlib.util.spec_from_file_location("update_golden", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bundled_translations_are_unchanged():
    script = load_script()
    assert script.GOLDEN.is_file(), f"{script.GOLDEN} missing: run {SCRIPT} and commit it"
    rows = [line.split("\t") for line in script.GOLDEN.read_text(encoding="utf-8").splitlines()]
    assert [source for source, _ in rows] == script.SENTENCES
    translations = script.translate_all(Translator.load(dtype="fp32"))
    assert translations == [translation for _, translation in rows]
