"""What loading a model and reading a sentence cost: a model whose weights are loaded next draws
no random numbers, a checkpoint's shapes are checked without importing torch's compiler, and a
sentence that can hold no name does not load jieba's tagger."""

import subprocess
import sys

import pytest
from torch import nn

from fanyi.model.config import ModelConfig
from fanyi.model.transformer import build_model
from fanyi.translate.translator import BUNDLED

TINY = ModelConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=16, d_ff=32, h=2, N_enc=1, N_dec=1)


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter has imported after running ``code``."""
    command = [sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sys.modules))"]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
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
