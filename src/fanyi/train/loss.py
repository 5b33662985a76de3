"""Label-smoothed cross-entropy (§5.4, ε_ls = 0.1), padding excluded."""

from __future__ import annotations

from torch import Tensor, nn


class LabelSmoothingLoss(nn.Module):
    """KL-equivalent loss against the smoothed target q = (1 − ε)·onehot(y) + ε·u.

    u is uniform over the vocabulary without the padding token, so the loss is
    (1 − ε)·NLL(y) + ε·mean_k(−log p_k). Padding positions contribute nothing. Returns the sum
    over real target tokens; divide by their number for a per-token loss.
    """

    def __init__(self, smoothing: float, pad_id: int) -> None:
        super().__init__()
        if not 0.0 <= smoothing < 1.0:
            raise ValueError(f"label smoothing must be in [0, 1), not {smoothing}")
        self.smoothing = smoothing
        self.pad_id = pad_id

    def forward(self, log_probs: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
        """log_probs: … x V, target: … → (smoothed loss sum, NLL sum), both over non-pad tokens."""
        log_probs = log_probs.reshape(-1, log_probs.size(-1)).float()  # n x V
        target = target.reshape(-1)
        keep = target != self.pad_id  # masking, not indexing: no copy of the n x V matrix
        nll = -log_probs.gather(1, target[:, None]).squeeze(1)
        vocab_size = log_probs.size(-1)
        mean_over_vocab = -(log_probs.sum(-1) - log_probs[:, self.pad_id]) / (vocab_size - 1)
        loss = (1.0 - self.smoothing) * nll + self.smoothing * mean_over_vocab
        return loss.masked_fill(~keep, 0.0).sum(), nll.masked_fill(~keep, 0.0).sum()
