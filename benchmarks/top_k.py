"""The k best tokens of each row of vocabulary scores: fanyi's blocked ``top_k`` against torch's
``topk`` (and ``argmax`` for k = 1), on the shapes a decoding step has (batch 32, 8k and 16k
vocabularies; greedy, beam 4's 2k = 8 per row, beam 5's 10), interleaved rounds, one thread.

    python benchmarks/top_k.py            # about 20 seconds
    python benchmarks/top_k.py --quick    # one shape
"""

from __future__ import annotations

import argparse
import functools

import torch

from common import emit, interleaved, machine
from fanyi.decode.top_k import top_k

SHAPES = [(32, 8000, 1), (128, 8000, 8), (160, 8000, 10), (160, 16000, 10)]  # rows, V, k


def measure(rows: int, vocab: int, k: int, rounds: int, calls: int) -> dict:
    """Microseconds a call of each way, and torch's time over fanyi's."""
    scores = torch.randn(rows, vocab, generator=torch.Generator().manual_seed(0)).log_softmax(-1)
    fanyi_way = functools.partial(top_k, scores, k)
    torch_way = (
        functools.partial(scores.argmax, -1) if k == 1 else functools.partial(scores.topk, k)
    )
    assert torch.equal(fanyi_way()[1], scores.topk(k, dim=-1).indices)

    def repeat(fn):
        return lambda: [fn() for _ in range(calls)]

    name = "argmax" if k == 1 else "topk"
    seconds = interleaved({"fanyi": repeat(fanyi_way), name: repeat(torch_way)}, rounds)
    micro = {key: round(value / calls * 1e6, 1) for key, value in seconds.items()}
    return {"rows": rows, "vocab": vocab, "k": k, "microseconds": micro,
            "speedup": round(seconds[name] / seconds["fanyi"], 2)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one shape, few calls")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    torch.set_num_threads(1)
    shapes, calls = (SHAPES[:1], 20) if args.quick else (SHAPES, 200)
    results = [measure(*shape, args.rounds, calls) for shape in shapes]
    for r in results:
        peer = "argmax" if r["k"] == 1 else "topk"
        print(f"{r['rows']:>4} x {r['vocab']:>5}, k {r['k']:>2}: fanyi {r['microseconds']['fanyi']:>7.1f} µs"
              f"  torch {peer} {r['microseconds'][peer]:>7.1f} µs  = {r['speedup']:.2f}x")  # fmt: skip
    emit({"benchmark": "top_k", "machine": machine(), "results": results})


if __name__ == "__main__":
    main()
