"""The softmax over the pieces a translation may hold (``SearchOptions.allowed_softmax``).

Into English ``target_script_only`` suppresses every piece holding a Han character: 5,172 of
the Tatoeba model's 8,000. By default they are suppressed after the softmax (§3.4), so the
output projection and the softmax still compute all V pieces at every step, and a path the
model wanted to leave English on loses that probability. With ``allowed_softmax`` the
projection computes only the rows of the allowed pieces (the suppressed ones, and padding,
left out) and the softmax normalises over them, as CTranslate2's suppressed sequences and
Marian's shortlists do: the scores change (each step renormalised), and into English two
thirds of the projection are skipped (``benchmarks/fast_paths.py allowed-softmax``).

The search still sees V-wide log-probabilities, -inf off the allowed pieces, so nothing after
the step changes. Each restricted projection is built once per output layer and allowed set,
in the layer's own form (float32 or bf16 weights, oneDNN-packed or int8); the latest few are
kept while the layer lives.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import NamedTuple, cast

import torch
from torch import Tensor, nn

from ..model.decoding import OutputLayer
from ..model.inference import PackedLinear
from ..model.inference.int8 import Int8Linear
from ..model.inference.split_attention import linear_from
from ..model.transformer import Generator
from .ensemble import MixtureGenerator


class AllowedOutput(NamedTuple):
    """The pieces a translation may hold and the output layer onto them."""

    ids: Tensor  # A target ids, ascending, on the search's device
    layer: OutputLayer  # decoder outputs (b x d) → logits of those pieces (b x A)
    vocab_size: int  # V


KEPT = 4  # restricted layers kept per output layer: the latest allowed sets (target prefixes
# each make one of their own, and a server sees many)
_BUILT: weakref.WeakKeyDictionary[nn.Module, OrderedDict[tuple[int, ...], OutputLayer]] = (
    weakref.WeakKeyDictionary()
)


def allowed_output(generator: OutputLayer, refused: Tensor, vocab_size: int) -> AllowedOutput:
    """The output layer of ``generator`` (a ``Generator`` or an ensemble's ``MixtureGenerator``)
    onto every piece but ``refused`` (suppressed ids and padding, on the search's device)."""
    keep = torch.ones(vocab_size, dtype=torch.bool, device=refused.device)
    keep[refused] = False
    ids = keep.nonzero()[:, 0]
    built = _BUILT.setdefault(generator, OrderedDict())  # type: ignore[arg-type]
    key = tuple(ids.tolist())
    if key not in built:
        built[key] = restricted(generator, ids)
        if len(built) > KEPT:
            built.popitem(last=False)
    built.move_to_end(key)
    return AllowedOutput(ids, built[key], vocab_size)


def log_probs_over(allowed: AllowedOutput, hidden: Tensor) -> Tensor:
    """log-softmax over the allowed pieces of decoder outputs ``hidden`` (b x d), scattered into
    the whole vocabulary: b x V, float32, -inf off the allowed pieces."""
    logits = allowed.layer.logits(hidden).float()
    out = logits.new_full((logits.size(0), allowed.vocab_size), float("-inf"))
    return out.index_copy_(1, allowed.ids, logits.log_softmax(dim=-1))


def restricted(generator: OutputLayer, ids: Tensor) -> OutputLayer:
    """``generator`` computing only the logits of ``ids``; an ensemble's members each
    normalised over them before they are mixed."""
    if isinstance(generator, MixtureGenerator):
        members = [restricted(cast(OutputLayer, g), ids) for g in generator.generators]
        return MixtureGenerator(cast(list[nn.Module], members), generator.widths).eval()
    if not isinstance(generator, Generator):
        raise TypeError(f"allowed_softmax cannot restrict a {type(generator).__name__}")
    return Generator(rows(generator.proj, ids)).eval()


def rows(linear: nn.Module, ids: Tensor) -> nn.Module:
    """The rows ``ids`` of a linear map, as the same kind of map (weights copied exactly)."""
    if isinstance(linear, PackedLinear):
        return PackedLinear(cast(nn.Linear, rows(linear.unpacked(), ids)))
    if isinstance(linear, Int8Linear):
        return linear.rows(ids)
    if isinstance(linear, nn.Linear):
        bias = None if linear.bias is None else linear.bias.detach()[ids]
        return linear_from(linear.weight.detach()[ids], bias).eval()
    raise TypeError(f"allowed_softmax cannot restrict a {type(linear).__name__}")
