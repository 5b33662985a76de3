"""One rule for a user's options, whatever the door: the same override gives the same effective
SearchOptions and TextOptions through the command line's flags, an HTTP request's fields and the
Python API; and an α, λ or β given alone applies into every language."""

import argparse

import pytest

from fanyi import Translator
from fanyi.cli.translate import add_model_arguments, load_translator
from fanyi.serve import schemas
from fanyi.translate.config import DecodeConfig
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")

CHANGES = {"length_penalty": 1.0, "beam": 3, "keep_numbers": False, "chinese_script": "tw"}
FLAGS = ["--length-penalty", "1.0", "--beam", "3", "--keep-numbers", "false"]
FLAGS += ["--chinese-script", "tw", "--dtype", "fp32"]


@pytest.fixture(scope="module")
def model_default():
    return Translator.load(dtype="fp32")


def test_the_cli_http_and_api_agree(model_default):
    parser = argparse.ArgumentParser()
    add_model_arguments(parser)
    cli = load_translator(parser.parse_args(FLAGS))
    http = model_default.chosen(None, schemas.TranslateRequest(text=["x"], **CHANGES).options())
    api = model_default.chosen(None, CHANGES)
    loaded = Translator.load(dtype="fp32", **CHANGES)
    assert (cli.options, cli.text_options) == http == api == (loaded.options, loaded.text_options)
    search, text = api
    assert search.length_penalty == 1.0 and search.length_penalty_by_target == {}
    assert text.keep_numbers is False and text.chinese_script == "tw"


def test_an_alpha_lambda_or_beta_alone_applies_into_every_language():
    config = DecodeConfig(
        length_penalty_by_target={"zh": 2.0},
        rerank_backward_by_target={"zh": 1.0},
        script_penalty_by_target={"zh": 0.5},
    )
    alone = config.override({"length_penalty": 1.0, "rerank_backward": 0.5, "script_penalty": 1.0})
    assert alone.search.length_penalty_by_target == {}
    assert alone.search.rerank_backward_by_target == {}
    assert alone.search.script_penalty_by_target == {}
    both = config.override({"length_penalty": 1.0, "length_penalty_by_target": {"en": 0.2}})
    assert both.search.length_penalty_by_target == {"en": 0.2}
    assert both.search.rerank_backward_by_target == {"zh": 1.0}


def test_the_three_halves_round_trip_a_decode_section():
    config = DecodeConfig(dtype="int8", workers=2, beam=4, hold_dates=False)
    assert DecodeConfig(**config.to_dict()) == config
    assert (config.load.dtype, config.search.beam, config.text.hold_dates) == ("int8", 4, False)
    with pytest.raises(ValueError, match="unknown DecodeConfig key"):
        DecodeConfig(beams=4)


def test_a_load_key_per_call_is_refused(model_default):
    with pytest.raises(ValueError, match="fixed when the model is loaded"):
        model_default.translate(["你好。"], dtype="int8")
