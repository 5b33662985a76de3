"""Greedy search over the cache equals the Annotated Transformer's re-run-everything greedy."""

import torch

from fanyi.decode import greedy_search
from tiny_model import tiny_model


def naive_greedy(model, src, bos, eos, max_len):
    """One sentence at a time, re-running the whole decoder on the prefix at each step (padding,
    id 0, is never a translation's token)."""
    out = []
    for row in src:
        row = row[row != 0][None]
        memory = model.encode(row)
        ys = torch.tensor([[bos]])
        for _ in range(max_len):
            hidden, _ = model.decode(ys, memory, None)
            next_id = model.generator(hidden[:, -1])[:, 1:].argmax(-1) + 1
            ys = torch.cat([ys, next_id[:, None]], dim=1)
            if next_id.item() == eos:
                break
        ids = ys[0, 1:].tolist()
        out.append(ids[: ids.index(eos)] if eos in ids else ids)
    return out


def test_cached_batched_greedy_equals_naive_greedy():
    model = tiny_model(0, vocab=12)
    src = torch.randint(3, 12, (6, 8))
    src[1, 5:] = 0
    src[4, 2:] = 0
    with torch.no_grad():
        expected = naive_greedy(model, src, bos=1, eos=2, max_len=12)
    assert greedy_search(model, src, bos_id=1, eos_id=2, max_len=12) == expected
