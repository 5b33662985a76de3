"""Attention heatmaps and the positional-encoding figure: each panel shows the matrix it names
(the attention of its layer and head; the sinusoids of §3.5), Chinese glyphs are found."""

import os
import warnings

import matplotlib
import numpy as np
import pytest
import torch
from PIL import Image

from fanyi import plot_attention as plots
from fanyi.translate.translation import AttentionMaps


@pytest.fixture(autouse=True)
def restore_rc():
    with matplotlib.rc_context():
        yield


@pytest.fixture
def drawn(monkeypatch):
    """The figures that plots draw, kept open to be read (closed afterwards)."""
    figures, close = [], plots.plt.close
    monkeypatch.setattr(plots.plt, "close", figures.append)
    yield figures
    for figure in figures:
        close(figure)


def maps(layers: int = 2, heads: int = 3) -> AttentionMaps:
    source = ["<2en>", "▁我", "很", "好", "。", "</s>"]
    target = ["▁I", "'", "m", "▁fine", ".", "</s>"]
    weights = torch.rand(layers, heads, len(target), len(source)).softmax(-1)
    return AttentionMaps(source, target, weights)


def test_each_panel_shows_the_attention_of_its_layer_and_head(tmp_path, drawn):
    shown = maps(2, 3)
    out = plots.plot_attention(shown, tmp_path / "attention.png", title="我很好。")
    assert Image.open(out).format == "PNG"
    (figure,) = drawn
    panels = [ax for ax in figure.axes if ax.images]  # the colour bar's axes hold no image
    assert len(panels) == 2 * 3 and figure.get_suptitle() == "我很好。"
    for index, ax in enumerate(panels):  # row by row: layers down, heads across
        layer, head = divmod(index, 3)
        image = ax.images[0]
        np.testing.assert_array_equal(image.get_array(), shown.weights[layer, head].numpy())
        assert image.get_clim() == (0.0, float(shown.weights.max()))  # one scale for all
        assert ax.get_title() == f"layer {layer + 1}, head {head + 1}"
        columns = [label.get_text() for label in ax.get_xticklabels()]
        rows = [label.get_text() for label in ax.get_yticklabels()]
        assert columns == ["<2en>", "我", "很", "好", "。", "</s>"]  # ▁ dropped
        assert rows == ["I", "'", "m", "fine", ".", "</s>"]


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


def test_positional_encoding_figure_shows_the_sinusoids_of_section_3_5(tmp_path, drawn):
    out = plots.plot_positional(tmp_path / "pe.png", max_len=50, d_model=32, dims=(0, 1, 8))
    assert Image.open(out).format == "PNG"
    pos, i = np.arange(50)[:, None], np.arange(16)[None, :]
    angle = pos / 10000 ** (2 * i / 32)  # PE(pos, 2i) = sin(angle), PE(pos, 2i + 1) = cos(angle)
    (figure,) = drawn
    heat, curves = figure.axes[:2]
    expected = np.concatenate([np.sin(angle), np.cos(angle)], axis=1).T  # sines below cosines
    np.testing.assert_allclose(heat.images[0].get_array(), expected, atol=1e-5)
    dims = [np.sin(angle[:, 0]), np.cos(angle[:, 0]), np.sin(angle[:, 4])]  # i = 0, 1, 8
    for line, formula in zip(curves.get_lines(), dims, strict=True):
        np.testing.assert_allclose(line.get_ydata(), formula, atol=1e-5)
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
