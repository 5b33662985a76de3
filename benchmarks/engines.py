"""``fanyi translate`` end to end on each engine: sentences/s (normalisation, tokenisation,
batching, search, detokenisation: everything after loading) of fanyi (fp32) and of the
CTranslate2 engine on the model exported in float32 and int8, on 1 and 2 threads; with each
engine's BLEU and how many translations equal fanyi's. Ends with one JSON line.

    python benchmarks/engines.py                      # bundled model, data/tatoeba-bi test split, zh→en
    python benchmarks/engines.py --to zh --rounds 3
    python benchmarks/engines.py MODEL --src test.zh --ref test.en --to en

The test split comes from ``fanyi prepare --config configs/data/tatoeba-bi.yaml``.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import ctranslate2

from common import add_one_model_argument, emit, interleaved, machine, read_lines
from fanyi.interop.export_ct2 import export_ctranslate2
from fanyi.runtime import set_threads
from fanyi.scores import score
from fanyi.translate.translator import Translator

ENGINES = ("fanyi-fp32", "ct2-float32", "ct2-int8")


def split_direction(split: Path, to: str, limit: int | None) -> tuple[list[str], list[str]]:
    """Sources (tag removed) and references of one direction of a prepared bidirectional split."""
    tag = f"<2{to}> "
    pairs = zip(
        read_lines(str(split / "test.src")), read_lines(str(split / "test.tgt")), strict=True
    )
    chosen = [(s.removeprefix(tag), t) for s, t in pairs if s.startswith(tag)]
    chosen = chosen[:limit] if limit else chosen
    return [s for s, _ in chosen], [t for _, t in chosen]


def translators(
    model: str, exports: dict[str, Path], threads: int, args: argparse.Namespace
) -> dict:
    """One loaded translator per engine, on ``threads`` threads (torch's and CTranslate2's)."""
    set_threads(threads)  # fanyi's for every call, CTranslate2's intra_threads at loading
    options = {"beam": args.beam, "length_penalty": args.length_penalty}
    return {
        "fanyi-fp32": Translator.load(model, dtype="fp32", **options),
        "ct2-float32": Translator.load(exports["float32"], engine="ctranslate2", **options),
        "ct2-int8": Translator.load(exports["int8"], engine="ctranslate2", **options),
    }


def run(args: argparse.Namespace, sources: list[str], refs: list[str], workdir: Path) -> dict:
    """sentences/s per engine and thread count; BLEU and agreement with fanyi per engine."""
    exports = {q: export_ctranslate2(args.model, workdir / q, q) for q in ("float32", "int8")}
    speed: dict[str, dict[str, float]] = {}
    outputs: dict[str, list[str]] = {}
    for threads in args.threads:
        loaded = translators(args.model, exports, threads, args)
        for translator in loaded.values():  # first calls pay one-time costs
            translator(sources[:20], to=args.to)
        calls = {name: _translate(t, sources, args.to, outputs, name) for name, t in loaded.items()}
        seconds = interleaved(calls, args.rounds, warmup=0)
        speed[str(threads)] = {name: round(len(sources) / s, 1) for name, s in seconds.items()}
    quality = {
        name: {
            "bleu": round(score(out, [refs], args.to).bleu, 2),
            "same_as_fanyi": sum(a == b for a, b in zip(out, outputs["fanyi-fp32"], strict=True)),
        }
        for name, out in outputs.items()
    }
    return {"sentences_per_s": speed, "quality": quality}


def _translate(translator, sources: list[str], to: str, outputs: dict, name: str):
    def call() -> None:
        outputs[name] = translator(sources, to=to)

    return call


def report(result: dict, sentences: int) -> None:
    threads = list(result["sentences_per_s"])
    print(f"| engine | {' | '.join(f'{t} thread(s), sent/s' for t in threads)} | BLEU | = fanyi |")
    print("| --- |" + " ---: |" * (len(threads) + 2))
    for name in ENGINES:
        speeds = " | ".join(f"{result['sentences_per_s'][t][name]:,.1f}" for t in threads)
        q = result["quality"][name]
        print(f"| {name} | {speeds} | {q['bleu']:.2f} | {q['same_as_fanyi']}/{sentences} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_one_model_argument(parser)
    parser.add_argument("--split", default="data/tatoeba-bi", help="prepared bidirectional split")
    parser.add_argument("--src", help="sources, one a line (instead of --split)")
    parser.add_argument("--ref", help="references of --src")
    parser.add_argument("--to", default="en", help="target language (default en)")
    parser.add_argument("--beam", type=int, default=5, help="as fanyi translate (default 5)")
    parser.add_argument("--length-penalty", type=float, help="GNMT α (default: the model's)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=1, help="interleaved timing rounds")
    parser.add_argument("--limit", type=int, help="first N sentences only")
    args = parser.parse_args()
    if args.length_penalty is None:  # every engine decodes with the α stored in the model
        args.length_penalty = Translator.load(args.model).options.length_penalty
    load_average = os.getloadavg()[0]  # the machine's other work when the benchmark started
    if args.src:
        sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    else:
        sources, refs = split_direction(Path(args.split), args.to, args.limit)
    with tempfile.TemporaryDirectory() as workdir:
        result = run(args, sources, refs, Path(workdir))
    report(result, len(sources))
    emit(
        {
            "benchmark": "engines",
            "machine": {**machine(), "ctranslate2": ctranslate2.__version__},
            "load_average": round(load_average, 2),
            "model": args.model,
            "sentences": len(sources),
            "to": args.to,
            "beam": args.beam,
            "length_penalty": args.length_penalty,
            "rounds": args.rounds,
            **result,
        }
    )


if __name__ == "__main__":
    main()
