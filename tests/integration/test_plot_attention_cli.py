"""``fanyi plot attention`` without -m draws the bundled model's first member (the bundled model
is an ensemble, which has no single attention map: it refused)."""

import pytest
from PIL import Image

from fanyi.cli import main
from fanyi.translate.translator import BUNDLED

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")


def test_the_default_model_is_the_first_member(tmp_path, capsys):
    out = tmp_path / "attention.png"
    args = ["plot", "attention", "--text", "我很好。", "-o", str(out), "--threads", "1"]
    assert main([*args, "--beam", "1"]) == 0
    assert "first member" in capsys.readouterr().err
    assert Image.open(out).size[0] > 500
