"""What loading a model and reading a sentence cost: a model whose weights are loaded next draws
no random numbers, a checkpoint's shapes are checked without importing torch's compiler, the
bundled model's stored int8 rows become its int8 maps as they are (never dequantised and
quantised again), a sentence that can hold no name does not load jieba's tagger, and one that
can loads jieba's dictionary from fanyi's sorted table, not as jieba builds it."""

import os
import subprocess
import sys

import pytest
from torch import nn

from fanyi.decode.options import LoadOptions, SearchOptions
from fanyi.engines.native import NativeEngine
from fanyi.model.config import ModelConfig
from fanyi.model.inference.int8 import Int8Linear
from fanyi.model.transformer import build_model
from fanyi.translate.translator import BUNDLED

TINY = ModelConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=16, d_ff=32, h=2, N_enc=1, N_dec=1)


def modules_after(code: str, env: dict[str, str] | None = None) -> set[str]:
    """What a fresh interpreter prints after running ``code``: the words ``code`` prints, then
    the modules it has imported."""
    command = [sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sys.modules))"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return set(done.stdout.split())


def test_a_model_built_for_loading_leaves_the_initialisers_as_they_were():
    before = {name: getattr(nn.init, name) for name in ("normal_", "uniform_", "xavier_uniform_")}
    model = build_model(TINY, initialise=False)
    assert {name: getattr(nn.init, name) for name in before} == before
    assert model.src_embed.positional.table.abs().sum() > 0  # the sinusoids are computed
    initialised = build_model(TINY).encoder.layers[0].feed_forward.w_1.weight
    assert initialised.std() > 0.01  # the initialisers work again


@pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
def test_loading_the_bundled_model_does_not_import_the_compiler():
    code = "from fanyi.model_dir import load_model\nfrom fanyi.translate.translator import BUNDLED"
    assert "torch._dynamo" not in modules_after(f"{code}\nload_model(BUNDLED)")


def test_a_sentence_without_a_name_does_not_load_the_tagger():
    code = "from fanyi.text.names import chinese_names\nassert chinese_names('{}') == []"
    assert "jieba" not in modules_after(code.format("我很好，你呢？"))
    assert "jieba" in modules_after(code.format("王小明是我的朋友。").replace("== []", "!= []"))


@pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
def test_the_bundled_models_int8_rows_are_not_quantised_again(monkeypatch):
    def quantising(*args: object) -> None:
        raise AssertionError("a stored int8 row was dequantised and quantised again")

    monkeypatch.setattr(Int8Linear, "__init__", quantising)
    engine = NativeEngine.load(BUNDLED, LoadOptions(dtype="int8"), SearchOptions())
    assert isinstance(engine.model.generator.proj, Int8Linear)
    code = (
        "from fanyi.engines.native import NativeEngine\nfrom fanyi.decode.options import "
        "LoadOptions, SearchOptions\nfrom fanyi.translate.translator import BUNDLED\n"
        "NativeEngine.load(BUNDLED, LoadOptions(dtype='int8'), SearchOptions())"
    )
    assert "torch._dynamo" not in modules_after(code)


def test_a_name_is_tagged_with_jiebas_dictionary_from_the_sorted_table(tmp_path):
    code = (
        "import jieba\nfrom fanyi.text.names import chinese_names\n"
        "assert chinese_names('王小明是我的朋友。')\nimport jieba.posseg\n"
        "print(type(jieba.dt.FREQ).__name__, type(jieba.posseg.dt.word_tag_tab).__name__)"
    )
    env = {**os.environ, "FANYI_CACHE": str(tmp_path)}
    for _ in range(2):  # the table written, then read
        assert {"PrefixCounts", "WordTags"} <= modules_after(code, env)
