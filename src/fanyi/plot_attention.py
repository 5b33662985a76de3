"""Figures of what the model does: cross-attention heatmaps and the positional encoding (§3.5).

Chinese labels need a CJK font. Matplotlib's font cache does not see fonts installed after it was
built, so the font *file* is registered directly (``fontManager.addfont``): ``$FANYI_CJK_FONT``,
else the first of :data:`CJK_FONTS` that exists (Debian ``fonts-wqy-microhei``,
``fonts-noto-cjk``). Without one, a warning says so and Han characters render as boxes.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import matplotlib
import numpy as np

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt
from matplotlib import font_manager

from .model.embedding import sinusoid_table
from .translate.translation import AttentionMaps

FONT_ENV = "FANYI_CJK_FONT"
CJK_FONTS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)


def find_cjk_font() -> Path | None:
    """The CJK font file to use: ``$FANYI_CJK_FONT``, else the first known one present."""
    candidates = [os.environ[FONT_ENV]] if os.environ.get(FONT_ENV) else list(CJK_FONTS)
    return next((Path(p) for p in candidates if Path(p).is_file()), None)


def use_cjk_font() -> str | None:
    """Register a CJK font with matplotlib as a fallback after DejaVu Sans; its family name, or
    None (with a warning) when there is none."""
    path = find_cjk_font()
    if path is None:
        warnings.warn(
            "no CJK font found (install fonts-wqy-microhei or fonts-noto-cjk, or set "
            f"{FONT_ENV}=/path/to/font): Chinese characters will be drawn as boxes",
            stacklevel=2,
        )
        return None
    font_manager.fontManager.addfont(str(path))
    name = font_manager.FontProperties(fname=str(path)).get_name()
    plt.rcParams["font.family"] = ["DejaVu Sans", name]  # per-glyph fallback (matplotlib ≥ 3.6)
    return name


def _label(piece: str) -> str:
    """A SentencePiece piece for display: the word-start mark ▁ dropped unless alone."""
    return piece.replace("\u2581", "") or "\u2581"


def plot_attention(maps: AttentionMaps, out: str | Path, title: str | None = None) -> Path:
    """One heatmap per decoder layer (rows) and head (columns): target pieces × source pieces,
    on one colour scale (its bar beside them)."""
    with warnings.catch_warnings():
        if use_cjk_font() is None:  # said once: not once more per missing glyph
            warnings.filterwarnings("ignore", message="Glyph .* missing from")
        return _draw_attention(maps, Path(out), title)


def _draw_attention(maps: AttentionMaps, out: Path, title: str | None) -> Path:
    layers, heads, rows, cols = maps.weights.shape
    top = float(maps.weights.max())  # one colour scale for every panel, so they compare
    cell = 0.32  # inches per token
    fig, axes = plt.subplots(
        layers,
        heads,
        figsize=(heads * (cols * cell + 1.2), layers * (rows * cell + 1.2)),
        squeeze=False,
        constrained_layout=True,
    )
    for layer in range(layers):
        for head in range(heads):
            ax = axes[layer][head]
            image = ax.imshow(maps.weights[layer, head].numpy(), cmap="Blues", vmin=0.0, vmax=top)
            ax.set_xticks(range(cols), [_label(p) for p in maps.source_tokens], rotation=90)
            ax.set_yticks(range(rows), [_label(p) for p in maps.target_tokens])
            ax.set_title(f"layer {layer + 1}, head {head + 1}", fontsize=9)
    fig.colorbar(image, ax=axes, shrink=0.8, label="attention weight")
    if title:
        fig.suptitle(title)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out


def plot_positional(
    out: str | Path,
    max_len: int = 100,
    d_model: int = 128,
    dims: tuple[int, ...] = (0, 1, 16, 32, 64),
) -> Path:
    """The sinusoid table of §3.5 as a heatmap, and a few dimensions as curves over the position.

    The heatmap shows the even (sine) dimensions, then the odd (cosine) ones: interleaved, as
    the table is stored, neighbouring rows alternate and the picture is all stripes.
    """
    if not all(0 <= d < d_model for d in dims):
        raise ValueError(f"dimensions {dims} must lie in [0, d_model={d_model})")
    table = sinusoid_table(max_len, d_model).numpy()
    fig, (heat, curves) = plt.subplots(1, 2, figsize=(14, 4.5), constrained_layout=True)
    grouped = np.concatenate([table[:, 0::2], table[:, 1::2]], axis=1).T
    image = heat.imshow(grouped, aspect="auto", cmap="RdBu", vmin=-1, vmax=1, origin="lower")
    heat.axhline(d_model / 2 - 0.5, color="black", linewidth=0.8)
    heat.set(
        title=f"PE(pos, i), d_model = {d_model}: sin (even i) below, cos (odd i) above",
        xlabel="position",
        ylabel="i // 2 (sin), d_model/2 + i // 2 (cos)",
    )
    fig.colorbar(image, ax=heat)
    for dim in dims:
        curves.plot(table[:, dim], label=f"i = {dim} ({'sin' if dim % 2 == 0 else 'cos'})")
    curves.set(title="PE(pos, i) for a few dimensions i", xlabel="position", ylabel="PE")
    curves.legend(loc="lower left")
    curves.grid(alpha=0.3)
    out = Path(out)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
