"""``fanyi info``: a model's languages, architecture, size, dtypes, scores, data and licence, read
from its config.yaml and its weights' header without torch."""

import subprocess
import sys

import pytest

from fanyi.cli import main
from fanyi.translate.model_names import BUNDLED, TATOEBA

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def test_info_of_the_default_model(capsys):
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"zh-en-general: {BUNDLED}")
    assert "languages: zh⇄en, both ways" in out
    assert "d_model 512, d_ff 2048, h 8, 6 encoder and 3 decoder layers, pre-norm" in out
    assert "39.7M parameters, 40 MB on disk (matrices as int8 rows" in out
    assert "dtypes: fp32, bf16, int8" in out and "length_penalty 3.0" in out
    assert "| en→zh | Tatoeba test (all 1,000 each way) |" in out and "41.90" in out
    assert "CC-CEDICT" in out and "CC-BY 2.0 (France)" in out and "unknown" not in out


def test_info_of_an_ensemble_sums_its_members(capsys):
    if not TATOEBA.is_dir():
        pytest.skip(f"no bundled ensemble at {TATOEBA}")
    assert main(["info", "-m", "zh-en"]) == 0
    out = capsys.readouterr().out
    assert "an ensemble of 2 models, each a Transformer" in out and "15.2M parameters" in out


def test_info_imports_no_torch():
    probe = (
        "import contextlib, io, sys\nfrom fanyi.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n    main(['info'])\n"
        "print('torch' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
