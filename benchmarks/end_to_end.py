"""What a user feels: ``fanyi translate -i FILE`` against the same file through CTranslate2's own
Python API (``ctranslate2.Translator`` + SentencePiece, ``ct2_translate.py``), each a fresh
command, timed from start to the last line written: start-up, loading, normalisation,
tokenisation, batching, search, detokenisation. Sentences/s on 1,000 and 10,000 sentences.

fanyi runs with its defaults (``--dtype auto``; int8 too) but CTranslate2's search, a beam
without reranking (``--rerank-backward 0``; ``benchmarks/rerank.py`` measures what reranking
costs), CTranslate2 on the model exported in float32 and int8. On 2 cores each runs as 2 intra-op threads and as 2 workers (CTranslate2's
``inter_threads``) on the 1,000 sentences; the faster layout of each then runs the 10,000.
Runs of one size are interleaved. Ends with one JSON line.

    python benchmarks/end_to_end.py                    # bundled model, zh→en, Tatoeba sources
    python benchmarks/end_to_end.py --to zh --sizes 1000
    python benchmarks/end_to_end.py --compile          # fanyi --compile true too
    python benchmarks/end_to_end.py --allowed-softmax  # and fanyi --allowed-softmax

Sources: the test, dev and train sources of one direction of ``--split`` (from ``fanyi prepare
--config configs/data/tatoeba-bi-plus.yaml``), in that order, without repeats; or ``--src``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ctranslate2

from common import (
    add_one_model_argument,
    direction_pairs,
    emit,
    machine,
    read_lines,
    with_allocator,
)
from fanyi.interop.export_ct2 import export_ctranslate2
from fanyi.scores import score
from fanyi.translate.translator import Translator

HERE = Path(__file__).resolve().parent


def direction_sources(split: Path, to: str) -> tuple[list[str], list[str]]:
    """Sources of one direction (tag removed) and their references: test, dev, train, no repeats."""
    seen, sources, refs = set(), [], []
    for part in ("test", "dev", "train"):
        for src, ref in direction_pairs(split, part, to):
            if src not in seen:
                seen.add(src)
                sources.append(src)
                refs.append(ref)
    return sources, refs


def commands(args: argparse.Namespace, exports: dict[str, Path], layout: str) -> dict:
    """The command line of each system in ``layout``: '1' (one thread), 'threads' or 'workers'."""
    threads, workers = (
        ("1", "1") if layout == "1" else ("2", "1") if layout == "threads" else ("1", "2")
    )
    common = ["--to", args.to, "--beam", str(args.beam), "--threads", threads]
    fanyi = [sys.executable, "-m", "fanyi", "translate", "-m", args.model, *common]
    fanyi += ["--workers", workers, "--rerank-backward", "0"]  # CTranslate2's search: no reranking
    runs = {"fanyi auto": fanyi, "fanyi int8": [*fanyi, "--dtype", "int8"]}
    if args.compile:
        runs["fanyi compiled"] = [*fanyi, "--compile", "true"]
    if args.allowed_softmax:
        runs["fanyi allowed"] = [*fanyi, "--allowed-softmax", "true"]
    for quantization, path in exports.items():
        runs[f"CT2 {quantization}"] = [
            sys.executable, str(HERE / "ct2_translate.py"), str(path), "--to", args.to,
            "--beam", str(args.beam), "--intra-threads", threads, "--inter-threads", workers,
        ]  # fmt: skip
    return runs


def timed_run(command: list[str], source: Path, output: Path) -> float:
    """Seconds for ``command < source > output``; a failure stops the benchmark."""
    start = time.perf_counter()
    with source.open() as stdin, output.open("w") as stdout:
        subprocess.run(command, stdin=stdin, stdout=stdout, check=True)
    return time.perf_counter() - start


def measure(runs: dict, source: Path, workdir: Path, rounds: int) -> dict[str, float]:
    """Sentences/s of each command (best of ``rounds`` interleaved rounds)."""
    lines = len(read_lines(str(source)))
    best: dict[str, float] = {}
    for _ in range(rounds):
        for name, command in runs.items():
            seconds = timed_run(command, source, workdir / f"{name}.out")
            best[name] = max(best.get(name, 0.0), lines / seconds)
    return {name: round(value, 1) for name, value in best.items()}


def quality(names: list[str], refs: list[str], to: str, workdir: Path) -> dict:
    """BLEU of each system's last output of the first size, and its length ratio."""
    out = {}
    for name in names:
        result = score(read_lines(str(workdir / f"{name}.out")), [refs], to)
        out[name] = {"bleu": round(result.bleu, 2), "length_ratio": round(result.length_ratio, 3)}
    return out


def run(args: argparse.Namespace, sources: list[str], refs: list[str], workdir: Path) -> dict:
    exports = {q: export_ctranslate2(args.model, workdir / q, q) for q in ("float32", "int8")}
    figures: dict = {}
    first, *rest = args.sizes
    source = workdir / f"{first}.txt"
    source.write_text("\n".join(sources[:first]) + "\n", encoding="utf-8")
    layouts = ["1", "threads", "workers"] if args.cores == 2 else ["1"]
    for layout in layouts:
        figures.setdefault(str(first), {})[layout] = measure(
            commands(args, exports, layout), source, workdir, args.rounds
        )
        print(f"  {first} sentences, {layout}: {figures[str(first)][layout]}", flush=True)
    scores = quality(list(commands(args, exports, "1")), refs[:first], args.to, workdir)
    for size in rest:
        source = workdir / f"{size}.txt"
        source.write_text("\n".join(sources[:size]) + "\n", encoding="utf-8")
        layout_runs = {}
        for name in commands(args, exports, "1"):
            layout = max(layouts[1:] or layouts, key=lambda lay: figures[str(first)][lay][name])
            layout_runs[f"{name} ({layout})"] = commands(args, exports, layout)[name]
        figures[str(size)] = measure(layout_runs, source, workdir, 1)
        print(f"  {size} sentences: {figures[str(size)]}", flush=True)
    return {"sentences_per_s": figures, "quality": scores}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_one_model_argument(parser)
    parser.add_argument("--split", default="data/tatoeba-bi-plus", help="prepared split")
    parser.add_argument("--src", help="sources, one a line (instead of --split)")
    parser.add_argument("--ref", help="references of --src")
    parser.add_argument("--to", default="en", help="target language (default en)")
    parser.add_argument("--beam", type=int, default=5, help="as fanyi translate (default 5)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--cores", type=int, choices=[1, 2], default=2)
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (first size)")
    parser.add_argument("--malloc", default="tcmalloc", choices=["tcmalloc", "glibc"])
    parser.add_argument(
        "--compile", action="store_true", help="fanyi with --compile true too (compile included)"
    )
    parser.add_argument(
        "--allowed-softmax", action="store_true", help="fanyi with --allowed-softmax too"
    )
    args = parser.parse_args()
    malloc = with_allocator(args.malloc)  # inherited by every command the benchmark runs
    if malloc == "glibc":
        os.environ["FANYI_TCMALLOC"] = "0"  # fanyi translate would preload tcmalloc itself
    if args.src:
        if not args.ref:
            parser.error("--src needs --ref: the references the outputs are scored against")
        sources, refs = read_lines(args.src), read_lines(args.ref)
    else:
        sources, refs = direction_sources(Path(args.split), args.to)
    if len(sources) < max(args.sizes):
        parser.error(f"{len(sources)} sources, fewer than {max(args.sizes)}")
    with tempfile.TemporaryDirectory() as workdir:
        result = run(args, sources, refs, Path(workdir))
    alpha = Translator.load(args.model).options.length_penalty
    emit(
        {
            "benchmark": "end_to_end",
            "machine": {**machine(), "ctranslate2": ctranslate2.__version__, "malloc": malloc},
            "model": args.model,
            "to": args.to,
            "beam": args.beam,
            "length_penalty": alpha,
            **result,
        }
    )


if __name__ == "__main__":
    main()
