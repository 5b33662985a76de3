"""Whole searches with the encoder skipping the padding in its position-wise parts
(``model/unpadded.py``, as fanyi decodes on a CPU) against the encoder computing every
position, padding included (as before that change).

``decode.py``'s random tiny model, 32 sources, 30 steps, float32, one thread; greedy and beam 4;
on ``decode.py``'s sources (20-30 tokens, padded to 30: a sixth of the positions are padding)
and on ragged ones (5-60 tokens, padded to 60: about half are padding). Both ways must give the
same tokens. Interleaved rounds in one process, tcmalloc where installed. Ends with one JSON
line.

    python benchmarks/encoder_padding.py           # about 2 minutes
    python benchmarks/encoder_padding.py --quick   # 5-60 tokens, greedy, one round
"""

from __future__ import annotations

import argparse
import types

import torch
from torch import Tensor

from common import emit, machine, with_allocator
from decode_peers import SIZES, random_model, sources, timed_searches
from fanyi.decode import DecodeConfig
from fanyi.engines.dtype import prepare_model
from fanyi.model.transformer import Encoder, Transformer

SOURCES = {  # decode.py's, and ragged ones
    "20-30 tokens": sources,
    "5-60 tokens": lambda vocab, rows: sources(vocab, rows, lengths=(5, 60)),
}


def every_position(encoder: Encoder, x: Tensor, src_mask: Tensor | None) -> Tensor:
    """The encoder as before the change: every layer on every position, padding included."""
    for layer in encoder.layers:
        x = layer(x, src_mask)
    return encoder.norm(x)


def padded_copy(prepared: Transformer) -> Transformer:
    """A fresh prepared copy whose encoder computes every position."""
    model = prepare_model(prepared, DecodeConfig(dtype="fp32"))
    model.encoder.forward = types.MethodType(every_position, model.encoder)
    return model


def measure(kind: str, beam: int, rounds: int) -> dict:
    """Tokens/s each way on sources of ``kind``, and the speed of skipping over computing."""
    model, src = random_model(SIZES["tiny"]), SOURCES[kind](SIZES["tiny"]["vocab"], 32)
    config = DecodeConfig(beam=beam, max_len_a=0.0, max_len_b=29, min_len=29, dtype="fp32")
    prepared = prepare_model(model, config)
    models = {"skips padding": prepared, "every position": padded_copy(prepared)}
    found, seconds = timed_searches(models, src, config, rounds)
    assert found["skips padding"] == found["every position"], "skipping changed the tokens"
    padding = (src == 0).float().mean().item()
    return {"sources": kind, "padding": round(padding, 3), "beam": beam,
            "tokens_per_s": {k: round(len(src) * 30 / s) for k, s in seconds.items()},
            "speedup": round(seconds["every position"] / seconds["skips padding"], 3)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5-60 tokens, greedy, one round")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--malloc", choices=["tcmalloc", "glibc"], default="tcmalloc")
    args = parser.parse_args()
    malloc = with_allocator(args.malloc)
    torch.set_num_threads(1)
    kinds, beams, rounds = list(SOURCES), (1, 4), args.rounds
    if args.quick:
        kinds, beams, rounds = kinds[1:], (1,), 1
    results = [measure(kind, beam, rounds) for kind in kinds for beam in beams]
    for r in results:
        t = r["tokens_per_s"]
        print(f"{r['sources']} ({r['padding']:.0%} padding), beam {r['beam']}: skips padding "
              f"{t['skips padding']:,} tokens/s, every position {t['every position']:,} tokens/s"
              f" = {r['speedup']:.2f}x")  # fmt: skip
    emit({"benchmark": "encoder_padding", "machine": machine(), "malloc": malloc,
          "results": results})  # fmt: skip


if __name__ == "__main__":
    main()
