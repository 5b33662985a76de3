"""Does each fast path of the search pay for itself, and keep its output? Each measure times one
path against the plain way it replaces, interleaved rounds in one process, one thread, tcmalloc
where installed (``--malloc glibc`` for glibc's), after checking both give the same result. Ends
with one JSON line.

    python benchmarks/fast_paths.py top-k [--quick]              # about 20 seconds
    python benchmarks/fast_paths.py packed-linear [--quick]      # about 2 minutes
    python benchmarks/fast_paths.py encoder-padding [--quick]    # about 2 minutes
    python benchmarks/fast_paths.py allowed-softmax [MODEL] [--part dev|test] [--to en|zh]
        [--src FILE [--ref FILE]] [--limit 1000] [--rerank-backward 0]

- ``top-k``: the k best tokens of each row of vocabulary scores, fanyi's blocked ``top_k``
  against torch's ``topk`` (``argmax`` for k = 1), on a decoding step's shapes (batch 32, 8k and
  16k vocabularies; greedy, beam 4's 2k = 8 per row, beam 5's 10).
- ``packed-linear``: a decoding step's linear maps, ``F.linear`` against ``PackedLinear`` (the
  weight kept in oneDNN's packed layout), on the tiny model's shapes (d_model 256, d_ff 1024,
  8,000 pieces) at 16 and 32 rows; then whole searches (``decode.py``'s random tiny model: 32
  sources, 30 steps, greedy and beam 4) packed against plain; in float32, and in bf16 where
  oneDNN has bf16 kernels (AVX-512 or AMX).
- ``encoder-padding``: whole searches with the encoder skipping the padding in its
  position-wise parts (``model/unpadded.py``) against computing every position; ``decode.py``'s
  random tiny model, 32 sources, 30 steps, greedy and beam 4, on its sources (20-30 tokens, a
  sixth padding) and on ragged ones (5-60 tokens, about half).
- ``allowed-softmax``: the softmax over the allowed pieces only (``--allowed-softmax``,
  decode/allowed.py) against the whole vocabulary's with the suppressed pieces taken out after
  it: time, outputs that differ, BLEU and chrF. One model (default: the first member of the
  bundled Tatoeba ensemble, ``end_to_end.py``'s), one direction of a prepared split (``--part``:
  dev to choose, test to report) or ``--src``; the model's own search (``--rerank-backward 0``:
  the beam's own order, as ``end_to_end.py`` decodes), fp32. Into English every piece holding a
  Han character is suppressed; into Chinese none is, so both ways must translate alike.
"""

from __future__ import annotations

import argparse
import functools
import sys
import types
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import Tensor

from common import (
    add_one_model_argument,
    direction_pairs,
    emit,
    interleaved,
    machine,
    read_lines,
    with_allocator,
)
from decode_peers import SIZES, random_model, sources, timed_searches
from fanyi.decode import SearchOptions
from fanyi.decode.top_k import top_k
from fanyi.engines.dtype import prepare_model
from fanyi.model.inference import PackedLinear, packed_float32, to_bfloat16
from fanyi.model.inference.packed import packs
from fanyi.model.transformer import Encoder, Transformer
from fanyi.scores import score
from fanyi.translate.translator import Translator

TINY = SIZES["tiny"]


def per_call(ways: dict, rounds: int, calls: int) -> tuple[dict[str, float], dict[str, float]]:
    """Seconds of ``calls`` calls of each way (interleaved rounds), and microseconds a call."""
    seconds = interleaved(
        {k: (lambda f=f: [f() for _ in range(calls)]) for k, f in ways.items()}, rounds
    )
    return seconds, {key: round(value / calls * 1e6, 1) for key, value in seconds.items()}


def search_config(beam: int, **more) -> SearchOptions:
    """30 decoder steps a source: 29 tokens and the forced EOS."""
    return SearchOptions(beam=beam, max_len_a=0.0, max_len_b=29, min_len=29, **more)


# top-k ------------------------------------------------------------------------------------------
TOP_K_SHAPES = [(32, 8000, 1), (128, 8000, 8), (160, 8000, 10), (160, 16000, 10)]  # rows, V, k


def top_k_shape(rows: int, vocab: int, k: int, rounds: int, calls: int) -> dict:
    """Microseconds a call of each way, and torch's time over fanyi's."""
    scores = torch.randn(rows, vocab, generator=torch.Generator().manual_seed(0)).log_softmax(-1)
    ours = functools.partial(top_k, scores, k)
    name = "argmax" if k == 1 else "topk"
    theirs = functools.partial(scores.argmax, -1) if k == 1 else functools.partial(scores.topk, k)
    assert torch.equal(ours()[1], scores.topk(k, dim=-1).indices)
    seconds, micro = per_call({"fanyi": ours, name: theirs}, rounds, calls)
    return {"rows": rows, "vocab": vocab, "k": k, "microseconds": micro,
            "speedup": round(seconds[name] / seconds["fanyi"], 2)}  # fmt: skip


def measure_top_k(args: argparse.Namespace) -> dict:
    shapes, calls = (TOP_K_SHAPES[:1], 20) if args.quick else (TOP_K_SHAPES, 200)
    results = [top_k_shape(*shape, args.rounds, calls) for shape in shapes]
    for r in results:
        peer = "argmax" if r["k"] == 1 else "topk"
        print(f"{r['rows']:>4} x {r['vocab']:>5}, k {r['k']:>2}: fanyi {r['microseconds']['fanyi']:>7.1f} µs"
              f"  torch {peer} {r['microseconds'][peer]:>7.1f} µs  = {r['speedup']:.2f}x")  # fmt: skip
    return {"results": results}


# packed-linear ----------------------------------------------------------------------------------
PACKED_SHAPES = [(8000, 256), (768, 256), (256, 256), (1024, 256), (256, 1024)]  # out, in


def packed_map(dtype: torch.dtype, shape: tuple[int, int], rows: int, rounds: int, calls: int):
    """Microseconds a call of each way, and F.linear's time over PackedLinear's."""
    torch.manual_seed(0)
    linear = torch.nn.Linear(shape[1], shape[0]).to(dtype)
    packed, x = PackedLinear(linear), torch.randn(rows, shape[1]).to(dtype)
    expected = F.linear(x.float(), linear.weight.float(), linear.bias.float())
    torch.testing.assert_close(packed(x).float(), expected, atol=0.1, rtol=0.02)
    ways = {
        "F.linear": lambda: F.linear(x, linear.weight, linear.bias),
        "PackedLinear": lambda: packed(x),
    }
    seconds, micro = per_call(ways, rounds, calls)
    return {"dtype": str(dtype).removeprefix("torch."), "shape": list(shape), "rows": rows,
            "microseconds": micro,
            "speedup": round(seconds["F.linear"] / seconds["PackedLinear"], 2)}  # fmt: skip


def packed_searches(dtype: torch.dtype, beams: tuple[int, ...], rounds: int) -> list[dict]:
    """Tokens/s of whole searches with the tiny model's maps plain and packed; the two must give
    the same tokens in float32 (bf16: the share of sources that agree)."""
    model, src = random_model(TINY), sources(TINY["vocab"], 32)
    if dtype == torch.float32:
        ways = {"plain": model, "PackedLinear": packed_float32(model)}
    else:
        ways = {"plain": to_bfloat16(model, pack=False), "PackedLinear": to_bfloat16(model)}
    results = []
    for beam in beams:
        found, seconds = timed_searches(ways, src, search_config(beam), rounds)
        agree = sum(a == b for a, b in zip(*found.values(), strict=True)) / len(src)
        assert agree == 1.0 or dtype != torch.float32, "packed fp32 changed the tokens"
        results.append({"dtype": str(dtype).removeprefix("torch."), "beam": beam,
                        "tokens_per_s": {k: round(len(src) * 30 / t) for k, t in seconds.items()},
                        "same_tokens": agree,
                        "speedup": round(seconds["plain"] / seconds["PackedLinear"], 2)})  # fmt: skip
    return results


def measure_packed_linear(args: argparse.Namespace) -> dict:
    dtypes = [d for d in (torch.float32, torch.bfloat16) if packs(torch.device("cpu"), d)]
    if not dtypes:
        sys.exit("this torch has no oneDNN: nothing to compare")
    cases = (
        [(PACKED_SHAPES[0], 32)]
        if args.quick
        else [(s, r) for s in PACKED_SHAPES for r in (16, 32)]
    )
    calls = 20 if args.quick else 200
    results = [
        packed_map(d, shape, rows, args.rounds, calls) for d in dtypes for shape, rows in cases
    ]
    for r in results:
        m = r["microseconds"]
        print(f"{r['dtype']:>8} {r['shape'][0]:>5} x {r['shape'][1]:>4}, {r['rows']} rows: "
              f"F.linear {m['F.linear']:>6.1f} µs  PackedLinear {m['PackedLinear']:>6.1f} µs"
              f"  = {r['speedup']:.2f}x")  # fmt: skip
    beams, rounds = ((1,), 1) if args.quick else ((1, 4), 3)
    searches = [s for d in dtypes for s in packed_searches(d, beams, rounds)]
    for r in searches:
        t = r["tokens_per_s"]
        print(f"{r['dtype']:>8} search, beam {r['beam']}: plain {t['plain']:,} tokens/s  "
              f"PackedLinear {t['PackedLinear']:,} tokens/s  = {r['speedup']:.2f}x")  # fmt: skip
    return {"results": results, "searches": searches}


# encoder-padding --------------------------------------------------------------------------------
RAGGED = {  # decode.py's sources, and ragged ones
    "20-30 tokens": sources,
    "5-60 tokens": lambda vocab, rows: sources(vocab, rows, lengths=(5, 60)),
}


def every_position(encoder: Encoder, x: Tensor, src_mask: Tensor | None) -> Tensor:
    """The encoder without the fast path: every layer on every position, padding included."""
    for layer in encoder.layers:
        x = layer(x, src_mask)
    return encoder.norm(x)


def padded_copy(prepared: Transformer) -> Transformer:
    """A fresh prepared copy whose encoder computes every position."""
    model = prepare_model(prepared, "fp32")
    model.encoder.forward = types.MethodType(every_position, model.encoder)
    return model


def both_encoders(kind: str, beam: int, rounds: int) -> dict:
    """Tokens/s each way on sources of ``kind``, and the speed of skipping over computing."""
    model, src = random_model(TINY), RAGGED[kind](TINY["vocab"], 32)
    config = search_config(beam)
    prepared = prepare_model(model, "fp32")
    models = {"skips padding": prepared, "every position": padded_copy(prepared)}
    found, seconds = timed_searches(models, src, config, rounds)
    assert found["skips padding"] == found["every position"], "skipping changed the tokens"
    padding = (src == 0).float().mean().item()
    return {"sources": kind, "padding": round(padding, 3), "beam": beam,
            "tokens_per_s": {k: round(len(src) * 30 / s) for k, s in seconds.items()},
            "speedup": round(seconds["every position"] / seconds["skips padding"], 3)}  # fmt: skip


def measure_encoder_padding(args: argparse.Namespace) -> dict:
    kinds, beams, rounds = list(RAGGED), (1, 4), args.rounds
    if args.quick:
        kinds, beams, rounds = kinds[1:], (1,), 1
    results = [both_encoders(kind, beam, rounds) for kind in kinds for beam in beams]
    for r in results:
        t = r["tokens_per_s"]
        print(f"{r['sources']} ({r['padding']:.0%} padding), beam {r['beam']}: skips padding "
              f"{t['skips padding']:,} tokens/s, every position {t['every position']:,} tokens/s"
              f" = {r['speedup']:.2f}x")  # fmt: skip
    return {"results": results}


# allowed-softmax --------------------------------------------------------------------------------
SOFTMAXES = {"whole vocabulary": False, "allowed pieces": True}


def both_softmaxes(args: argparse.Namespace, sources: list[str], refs: list[str] | None) -> dict:
    """Seconds each way (median of interleaved rounds), outputs that differ, scores."""
    translators = {
        way: Translator.load(args.model, dtype="fp32", allowed_softmax=on, **args.changes)
        for way, on in SOFTMAXES.items()
    }
    outputs = {way: t(sources, to=args.to) for way, t in translators.items()}  # the warm-up
    runs = {way: (lambda t=t: t(sources, to=args.to)) for way, t in translators.items()}
    seconds = interleaved(runs, args.rounds, warmup=0)
    whole, allowed = outputs.values()
    result = {
        "sentences": len(sources),
        "seconds": {way: round(s, 3) for way, s in seconds.items()},
        "speedup": round(seconds["whole vocabulary"] / seconds["allowed pieces"], 3),
        "differ": sum(a != b for a, b in zip(whole, allowed, strict=True)),
    }
    if refs is not None:
        scores = {way: score(out, [refs], args.to) for way, out in outputs.items()}
        result["bleu"] = {way: round(s.bleu, 2) for way, s in scores.items()}
        result["chrf"] = {way: round(s.chrf, 2) for way, s in scores.items()}
        result["signature"] = next(iter(scores.values())).bleu_signature
    return result


def measure_allowed_softmax(args: argparse.Namespace) -> dict:
    args.changes = {} if args.rerank_backward is None else {"rerank_backward": args.rerank_backward}
    if args.src:
        sources = read_lines(args.src, args.limit)
        refs = read_lines(args.ref, args.limit) if args.ref else None
    else:
        pairs = direction_pairs(Path(args.split), args.part, args.to)[: args.limit]
        sources, refs = [src for src, _ in pairs], [ref for _, ref in pairs]
    result = both_softmaxes(args, sources, refs)
    print(f"{result['sentences']} sentences into {args.to}: {result['seconds']}, allowed pieces "
          f"{result['speedup']:.2f}x, {result['differ']} outputs differ; "
          f"BLEU {result.get('bleu', '-')}")  # fmt: skip
    return {"model": args.model, "to": args.to, "part": None if args.src else args.part,
            "search": {"dtype": "fp32", "threads": 1, **args.changes}, **result}  # fmt: skip


# the command ------------------------------------------------------------------------------------
MEASURES = {  # name → (measure, help, default rounds, run under --malloc)
    "top-k": (measure_top_k, "fanyi's top_k against torch's topk and argmax", 7, False),
    "packed-linear": (measure_packed_linear, "PackedLinear against F.linear", 7, True),
    "encoder-padding": (measure_encoder_padding, "the encoder skipping padding or not", 9, True),
    "allowed-softmax": (measure_allowed_softmax, "the softmax over allowed pieces or all", 3, True),
}


def allowed_softmax_arguments(parser: argparse.ArgumentParser) -> None:
    add_one_model_argument(parser)
    parser.add_argument("--split", default="data/tatoeba-bi-plus", help="prepared split")
    parser.add_argument("--part", choices=["dev", "test"], default="test")
    parser.add_argument("--src", help="sources, one a line (instead of --split)")
    parser.add_argument("--ref", help="references of --src (scores: BLEU, chrF)")
    parser.add_argument("--to", default="en", help="target language (default en)")
    parser.add_argument("--limit", type=int, default=1000, help="first sentences (1,000)")
    parser.add_argument("--rerank-backward", type=float, help="λ (default: the model's; 0: none)")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    measures = parser.add_subparsers(dest="measure", required=True)
    for name, (_, help, rounds, allocator) in MEASURES.items():
        one = measures.add_parser(name, help=help)
        one.add_argument("--rounds", type=int, default=rounds, help=f"timed rounds ({rounds})")
        if allocator:
            one.add_argument("--malloc", choices=["tcmalloc", "glibc"], default="tcmalloc")
        if name == "allowed-softmax":
            allowed_softmax_arguments(one)
        else:
            one.add_argument("--quick", action="store_true", help="one case, few calls, one round")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    measure, *_, allocator = MEASURES[args.measure]
    malloc = {"malloc": with_allocator(args.malloc)} if allocator else {}
    torch.set_num_threads(1)
    result = measure(args)
    emit({"benchmark": "fast_paths", "measure": args.measure, "machine": machine(), **malloc,
          **result})  # fmt: skip


if __name__ == "__main__":
    main()
