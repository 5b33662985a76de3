"""A batch's tokens without their padding, for the position-wise parts of the encoder.

Sources of different lengths are padded to the longest, and every padding position costs the
linear maps, the feed-forward network and the layer norms (§3.1, §3.3) as much as a token does,
for an output nobody reads: encoder-decoder attention masks it. ``Unpadded`` gathers the n
tokens of a b x s batch into n rows for those position-wise parts, and scatters them back into
the padded layout for attention (eq. 1), which needs each sentence's tokens side by side. The
idea is CTranslate2's (its ``Padder``).
"""

from __future__ import annotations

from torch import Tensor


class Unpadded:
    """Where the tokens of a padded batch are: ``mask`` (b x 1 x 1 x s, ``True`` on tokens, as
    ``masks.padding_mask``) holds n of them. Reads the mask once (one host sync)."""

    def __init__(self, mask: Tensor) -> None:
        self.batch, self.length = mask.size(0), mask.size(-1)
        self.index = mask.flatten().nonzero()[:, 0]  # n: positions in the flattened b·s

    def unpad(self, x: Tensor) -> Tensor:
        """b x s x d → n x d: the tokens' rows, in batch order."""
        return x.flatten(0, 1).index_select(0, self.index)

    def pad(self, x: Tensor) -> Tensor:
        """n x d → b x s x d, zeros at the padding positions."""
        padded = x.new_zeros(self.batch * self.length, x.size(-1))
        return padded.index_copy_(0, self.index, x).unflatten(0, (self.batch, self.length))
