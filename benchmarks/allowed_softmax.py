"""The softmax over the allowed pieces only (``--allowed-softmax``, decode/allowed.py) against
the default, the softmax over the whole vocabulary with the suppressed pieces taken out after it:
time, outputs that differ, and BLEU / chrF of each against the references.

One model (default: the first member of the bundled Tatoeba ensemble, the model of
``end_to_end.py``), the sources of one direction of a prepared split (``--part``: dev to choose
a setting, test to report one), or ``--src`` (and ``--ref`` for scores); the model's own search
settings (``--rerank-backward 0``: the beam's own order, as ``end_to_end.py`` decodes), fp32,
one thread, tcmalloc where installed; interleaved rounds in one process. Into English every
piece holding a Han character is suppressed (``target_script_only``); into Chinese nothing is,
so there both ways must translate alike. Ends with one JSON line.

    python benchmarks/allowed_softmax.py                       # zh→en, 1,000 test sources
    python benchmarks/allowed_softmax.py --part dev --to zh    # the other direction, on dev
    python benchmarks/allowed_softmax.py --src FILE --rounds 1 # any sources, timing only
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from common import (
    add_one_model_argument,
    direction_pairs,
    emit,
    interleaved,
    machine,
    read_lines,
    with_allocator,
)
from fanyi.scores import score
from fanyi.translate.translator import Translator

WAYS = {"whole vocabulary": False, "allowed pieces": True}


def measure(args: argparse.Namespace, sources: list[str], refs: list[str] | None) -> dict:
    """Seconds each way (median of interleaved rounds), outputs that differ, scores."""
    translators = {
        way: Translator.load(args.model, dtype="fp32", allowed_softmax=on, **args.changes)
        for way, on in WAYS.items()
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_one_model_argument(parser)
    parser.add_argument("--split", default="data/tatoeba-bi-plus", help="prepared split")
    parser.add_argument("--part", choices=["dev", "test"], default="test")
    parser.add_argument("--src", help="sources, one a line (instead of --split)")
    parser.add_argument("--ref", help="references of --src (scores: BLEU, chrF)")
    parser.add_argument("--to", default="en", help="target language (default en)")
    parser.add_argument("--limit", type=int, default=1000, help="first sentences (1,000)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--rerank-backward", type=float, help="λ (default: the model's; 0: the beam's own order)"
    )
    parser.add_argument("--malloc", default="tcmalloc", choices=["tcmalloc", "glibc"])
    args = parser.parse_args()
    malloc = with_allocator(args.malloc)
    torch.set_num_threads(1)
    args.changes = {} if args.rerank_backward is None else {"rerank_backward": args.rerank_backward}
    if args.src:
        sources = read_lines(args.src, args.limit)
        refs = read_lines(args.ref, args.limit) if args.ref else None
    else:
        pairs = direction_pairs(Path(args.split), args.part, args.to)[: args.limit]
        sources, refs = [src for src, _ in pairs], [ref for _, ref in pairs]
    result = measure(args, sources, refs)
    print(f"{result['sentences']} sentences into {args.to}: {result['seconds']}, allowed pieces "
          f"{result['speedup']:.2f}x, {result['differ']} outputs differ; "
          f"BLEU {result.get('bleu', '-')}")  # fmt: skip
    emit({"benchmark": "allowed_softmax", "machine": machine(), "malloc": malloc,
          "model": args.model, "to": args.to, "part": None if args.src else args.part,
          "search": {"dtype": "fp32", "threads": 1, **args.changes},
          **result})  # fmt: skip


if __name__ == "__main__":
    main()
