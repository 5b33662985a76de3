"""Lines longer than the model reads, on every engine: each piece fits the model, in the search
and in the backward scores, and the others are translated."""

import pytest

from fanyi.cli import main
from fanyi.translate.translator import Translator
from tiny_translator import MAX_LEN, tiny_model_dir

TEXTS = ["我很好。", "我很好" * 50, "Thank you.", "谢谢。"]  # the second: 102 tokens, one sentence


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("ct2") / "model"
    assert (
        main(
            ["export", str(tiny_model_dir(tmp_path_factory)), "--to", "ctranslate2", "-o", str(out)]
        )
        == 0
    )
    return out


def test_the_ctranslate2_engine_cuts_long_lines_and_caps_outputs(exported):
    longest = {"min_len": MAX_LEN - 1, "max_len_a": 100}  # outputs up to the model's positions
    translator = Translator.load(
        exported, engine="ctranslate2", beam=2, rerank_backward=0.5, **longest
    )
    results = translator.translate(TEXTS)
    assert [r.error for r in results] == [None] * len(TEXTS)
    assert all(len(r.candidates[0].tokens) > 1 for r in results)
