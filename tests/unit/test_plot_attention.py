"""Attention heatmaps and the positional-encoding figure: files written, Chinese glyphs found."""

import os
import warnings

import matplotlib
import pytest
import torch
from PIL import Image

from fanyi import plot_attention as plots
from fanyi.decode.translation import AttentionMaps


@pytest.fixture(autouse=True)
def restore_rc():
    with matplotlib.rc_context():
        yield


def maps(layers: int = 2, heads: int = 3) -> AttentionMaps:
    source = ["<2en>", "▁我", "很", "好", "。", "</s>"]
    target = ["▁I", "'", "m", "▁fine", ".", "</s>"]
    weights = torch.rand(layers, heads, len(target), len(source)).softmax(-1)
    return AttentionMaps(source, target, weights)


def test_one_panel_per_layer_and_head(tmp_path):
    small = plots.plot_attention(maps(1, 1), tmp_path / "small.png")
    large = plots.plot_attention(maps(2, 3), tmp_path / "large.png", title="我很好。")
    (w1, h1), (w2, h2) = Image.open(small).size, Image.open(large).size
    assert w2 > 2.5 * w1 and h2 > 1.8 * h1


@pytest.mark.skipif(  # CI installs one (.ci/apt-packages): there it must run
    plots.find_cjk_font() is None and not os.environ.get("CI"),
    reason="no CJK font installed: sudo apt-get install fonts-wqy-microhei (CI: required)",
)
def test_chinese_glyphs_are_found(tmp_path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plots.plot_attention(maps(), tmp_path / "attention.png", title="我很好。")
    assert not [w for w in caught if "missing from" in str(w.message)]


def test_without_a_cjk_font_a_clear_warning(monkeypatch):
    monkeypatch.delenv(plots.FONT_ENV, raising=False)
    monkeypatch.setattr(plots, "CJK_FONTS", ())
    with pytest.warns(UserWarning, match="no CJK font found"):
        assert plots.use_cjk_font() is None


def test_the_font_can_be_chosen(monkeypatch, tmp_path):
    chosen = tmp_path / "chosen.ttf"
    monkeypatch.setenv(plots.FONT_ENV, str(chosen))
    assert plots.find_cjk_font() is None  # named but absent: no silent substitute
    chosen.write_bytes(b"")
    assert plots.find_cjk_font() == chosen


def test_positional_encoding_figure(tmp_path):
    out = plots.plot_positional(tmp_path / "pe.png", max_len=50, d_model=32, dims=(0, 1, 8))
    assert Image.open(out).size[0] > 1000
    with pytest.raises(ValueError, match="must lie in"):
        plots.plot_positional(tmp_path / "bad.png", d_model=16, dims=(16,))


def test_plot_positional_command(tmp_path, capsys):
    from fanyi.cli import main

    out = tmp_path / "pe.png"
    assert main(["plot", "positional", "--d-model", "32", "--dims", "0", "1", "-o", str(out)]) == 0
    assert out.is_file() and str(out) in capsys.readouterr().out


def test_without_a_cjk_font_one_warning_not_one_per_glyph(monkeypatch, tmp_path):
    monkeypatch.delenv(plots.FONT_ENV, raising=False)
    monkeypatch.setattr(plots, "CJK_FONTS", ())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plots.plot_attention(maps(), tmp_path / "attention.png", title="我很好。")
    assert [str(w.message)[:17] for w in caught] == ["no CJK font found"]


def test_one_colour_bar_for_every_panel(monkeypatch, tmp_path):
    bars = []
    real = matplotlib.figure.Figure.colorbar
    monkeypatch.setattr(
        matplotlib.figure.Figure,
        "colorbar",
        lambda fig, *a, **k: bars.append(k) or real(fig, *a, **k),
    )
    plots.plot_attention(maps(2, 3), tmp_path / "attention.png")
    assert [bar["label"] for bar in bars] == ["attention weight"]
