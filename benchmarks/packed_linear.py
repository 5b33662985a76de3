"""Linear maps of a decoding step: ``F.linear`` against ``PackedLinear`` (the weight kept in
oneDNN's packed layout), on the tiny model's shapes (d_model 256, d_ff 1024, 8,000 pieces) at
16 and 32 rows; then whole searches of that model (``decode.py``'s random tiny model: 32
sources, 30 steps, greedy and beam 4) with its maps packed against plain, after checking both
give the same tokens. Interleaved rounds, one thread, tcmalloc where installed; in float32, and
in bf16 where oneDNN has bf16 kernels (AVX-512 or AMX). Ends with one JSON line.

    python benchmarks/packed_linear.py            # about 2 minutes
    python benchmarks/packed_linear.py --quick    # one shape, greedy searches, one round
"""

from __future__ import annotations

import argparse
import sys

import torch
import torch.nn.functional as F

from common import emit, interleaved, machine, with_allocator
from decode_peers import SIZES, random_model, sources, timed_searches
from fanyi.decode import DecodeConfig
from fanyi.model.inference import PackedLinear, packed_float32, to_bfloat16
from fanyi.model.inference.packed import packs

SHAPES = [(8000, 256), (768, 256), (256, 256), (1024, 256), (256, 1024)]  # out, in features
ROWS = (16, 32)


def measure(
    dtype: torch.dtype, out_features: int, in_features: int, rows: int, rounds: int, calls: int
) -> dict:
    """Microseconds a call of each way, and F.linear's time over PackedLinear's."""
    torch.manual_seed(0)
    linear = torch.nn.Linear(in_features, out_features).to(dtype)
    packed, x = PackedLinear(linear), torch.randn(rows, in_features).to(dtype)
    expected = F.linear(x.float(), linear.weight.float(), linear.bias.float())
    torch.testing.assert_close(packed(x).float(), expected, atol=0.1, rtol=0.02)

    def repeat(fn):
        return lambda: [fn() for _ in range(calls)]

    ways = {"F.linear": repeat(lambda: F.linear(x, linear.weight, linear.bias))}
    ways["PackedLinear"] = repeat(lambda: packed(x))
    seconds = interleaved(ways, rounds)
    micro = {key: round(value / calls * 1e6, 1) for key, value in seconds.items()}
    return {"dtype": str(dtype).removeprefix("torch."), "shape": [out_features, in_features],
            "rows": rows, "microseconds": micro,
            "speedup": round(seconds["F.linear"] / seconds["PackedLinear"], 2)}  # fmt: skip


def measure_searches(dtype: torch.dtype, beams: tuple[int, ...], rounds: int) -> list[dict]:
    """Tokens/s of whole searches with the tiny model's maps plain and packed, and the ratio;
    the two must give the same tokens in float32 (bf16: the share of sources that agree)."""
    model, src = random_model(SIZES["tiny"]), sources(SIZES["tiny"]["vocab"], 32)
    if dtype == torch.float32:
        ways = {"plain": model, "PackedLinear": packed_float32(model)}
    else:
        ways = {"plain": to_bfloat16(model, pack=False), "PackedLinear": to_bfloat16(model)}
    results = []
    for beam in beams:
        config = DecodeConfig(beam=beam, max_len_a=0.0, max_len_b=29, min_len=29)
        found, seconds = timed_searches(ways, src, config, rounds)
        agree = sum(a == b for a, b in zip(*found.values(), strict=True)) / len(src)
        assert agree == 1.0 or dtype != torch.float32, "packed fp32 changed the tokens"
        tokens_per_s = {k: round(len(src) * 30 / t) for k, t in seconds.items()}
        results.append({"dtype": str(dtype).removeprefix("torch."), "beam": beam,
                        "tokens_per_s": tokens_per_s, "same_tokens": agree,
                        "speedup": round(seconds["plain"] / seconds["PackedLinear"], 2)})  # fmt: skip
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one shape, few calls")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--malloc", choices=["tcmalloc", "glibc"], default="tcmalloc")
    args = parser.parse_args()
    malloc = with_allocator(args.malloc)
    dtypes = [d for d in (torch.float32, torch.bfloat16) if packs(torch.device("cpu"), d)]
    if not dtypes:
        sys.exit("this torch has no oneDNN: nothing to compare")
    torch.set_num_threads(1)
    cases, calls = (
        ([(SHAPES[0], 32)], 20) if args.quick else ([(s, r) for s in SHAPES for r in ROWS], 200)
    )
    results = [
        measure(d, *shape, rows, args.rounds, calls) for d in dtypes for shape, rows in cases
    ]
    for r in results:
        m = r["microseconds"]
        print(f"{r['dtype']:>8} {r['shape'][0]:>5} x {r['shape'][1]:>4}, {r['rows']} rows: "
              f"F.linear {m['F.linear']:>6.1f} µs  PackedLinear {m['PackedLinear']:>6.1f} µs"
              f"  = {r['speedup']:.2f}x")  # fmt: skip
    beams, search_rounds = ((1,), 1) if args.quick else ((1, 4), 3)
    searches = [s for d in dtypes for s in measure_searches(d, beams, search_rounds)]
    for r in searches:
        t = r["tokens_per_s"]
        print(
            f"{r['dtype']:>8} search, beam {r['beam']}: plain {t['plain']:,} tokens/s  "
            f"PackedLinear {t['PackedLinear']:,} tokens/s  = {r['speedup']:.2f}x"
        )
    emit({"benchmark": "packed_linear", "machine": machine(), "malloc": malloc,
          "results": results, "searches": searches})  # fmt: skip


if __name__ == "__main__":
    main()
