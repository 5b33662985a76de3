"""Search over the decoder's incremental state: greedy decoding."""

from __future__ import annotations

import torch
from torch import Tensor

from ..model import Transformer


@torch.no_grad()
def greedy_search(
    model: Transformer, src: Tensor, bos_id: int, eos_id: int, max_len: int
) -> list[list[int]]:
    """Pick the most probable next token at each step, for a batch of sources (b x s).

    Each step feeds only the newest token through the decoder (its key/value cache holds the
    rest). Returns, per source, the generated ids without BOS and EOS.
    """
    state = model.start_decoding(src)
    tokens = torch.full((src.size(0), 1), bos_id, dtype=torch.long, device=src.device)
    finished = torch.zeros(src.size(0), dtype=torch.bool, device=src.device)
    outputs: list[Tensor] = []
    for _ in range(max_len):
        hidden, _ = model.decode_step(tokens, state)
        tokens = model.generator.logits(hidden[:, -1]).argmax(-1, keepdim=True)  # b x 1
        tokens = tokens.masked_fill(finished[:, None], eos_id)
        outputs.append(tokens)
        finished |= tokens[:, 0] == eos_id
        if bool(finished.all()):
            break
    result = []
    for row in torch.cat(outputs, dim=1).tolist():
        result.append(row[: row.index(eos_id)] if eos_id in row else row)
    return result
