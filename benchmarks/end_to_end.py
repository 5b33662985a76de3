"""A whole translation, fanyi against CTranslate2 on the same model: as fresh commands (what a
user feels), or each engine loaded in this process (``--in-process``). Ends with one JSON line.

Commands (the default): ``fanyi translate -i FILE`` against the same file through CTranslate2's
own Python API (``ctranslate2.Translator`` + SentencePiece, ``ct2_translate.py``), each a fresh
command, timed from start to the last line written: start-up, loading, normalisation,
tokenisation, batching, search, detokenisation. Sentences/s on 1,000 and 10,000 sentences.
fanyi runs with its defaults (``--dtype auto``; int8 too) but CTranslate2's search, a beam
without reranking (``--rerank-backward 0``; ``search.py rerank`` measures what reranking
costs), CTranslate2 on the model exported in float32 and int8. On 2 cores each runs as 2
intra-op threads and as 2 workers (CTranslate2's ``inter_threads``) on the 1,000 sentences; the
faster layout of each then runs the 10,000. Runs of one size are interleaved. Sources: the test,
dev and train sources of one direction of ``--split`` (``fanyi prepare --config
configs/data/tatoeba-bi-plus.yaml``), in that order, without repeats; or ``--src``.

In process (``--in-process``): ``fanyi translate``'s work after loading (normalisation,
tokenisation, batching, search, detokenisation) on each engine, sentences/s of fanyi (fp32) and
of the CTranslate2 engine on the model exported in float32 and int8, on 1 and 2 threads; with
each engine's BLEU and how many translations equal fanyi's. Sources: the test split of one
direction of ``--split`` (``fanyi prepare --config configs/data/tatoeba-bi.yaml``), or ``--src``.

    python benchmarks/end_to_end.py                    # bundled model, zh→en, Tatoeba sources
    python benchmarks/end_to_end.py --to zh --sizes 1000
    python benchmarks/end_to_end.py --compile          # fanyi --compile true too
    python benchmarks/end_to_end.py --allowed-softmax  # and fanyi --allowed-softmax
    python benchmarks/end_to_end.py --in-process [--to zh] [--rounds 3]
    python benchmarks/end_to_end.py --in-process MODEL --src test.zh --ref test.en --to en
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
    interleaved,
    machine,
    read_lines,
    with_allocator,
)
from fanyi.interop.export_ct2 import export_ctranslate2
from fanyi.runtime import set_threads
from fanyi.scores import score
from fanyi.translate.translator import Translator

HERE = Path(__file__).resolve().parent
ENGINES = ("fanyi-fp32", "ct2-float32", "ct2-int8")
SPLITS = {False: "data/tatoeba-bi-plus", True: "data/tatoeba-bi"}  # by --in-process


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


# in process -------------------------------------------------------------------------------------
def translators(model: str, exports: dict[str, Path], threads: int, args) -> dict:
    """One loaded translator per engine, on ``threads`` threads (torch's and CTranslate2's)."""
    set_threads(threads)  # fanyi's for every call, CTranslate2's intra_threads at loading
    options = {"beam": args.beam, "length_penalty": args.length_penalty}
    return {
        "fanyi-fp32": Translator.load(model, dtype="fp32", **options),
        "ct2-float32": Translator.load(exports["float32"], engine="ctranslate2", **options),
        "ct2-int8": Translator.load(exports["int8"], engine="ctranslate2", **options),
    }


def run_in_process(args, sources: list[str], refs: list[str], workdir: Path) -> dict:
    """sentences/s per engine and thread count; BLEU and agreement with fanyi per engine."""
    exports = {q: export_ctranslate2(args.model, workdir / q, q) for q in ("float32", "int8")}
    speed: dict[str, dict[str, float]] = {}
    outputs: dict[str, list[str]] = {}
    for threads in args.threads:
        loaded = translators(args.model, exports, threads, args)
        for translator in loaded.values():  # first calls pay one-time costs
            translator(sources[:20], to=args.to)
        calls = {name: _keeping(t, sources, args.to, outputs, name) for name, t in loaded.items()}
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


def _keeping(translator, sources: list[str], to: str, outputs: dict, name: str):
    """A call translating ``sources`` that keeps its outputs in ``outputs[name]``."""

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


# the command ------------------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_one_model_argument(parser)
    parser.add_argument("--in-process", action="store_true", help="each engine in this process")
    parser.add_argument("--split", help="prepared split (default data/tatoeba-bi-plus; "
                        "--in-process: data/tatoeba-bi, its test sources)")  # fmt: skip
    parser.add_argument("--src", help="sources, one a line (instead of --split)")
    parser.add_argument("--ref", help="references of --src")
    parser.add_argument("--to", default="en", help="target language (default en)")
    parser.add_argument("--beam", type=int, default=5, help="as fanyi translate (default 5)")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (first size)")
    commands = parser.add_argument_group("commands (the default)")
    commands.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    commands.add_argument("--cores", type=int, choices=[1, 2], default=2)
    commands.add_argument("--malloc", default="tcmalloc", choices=["tcmalloc", "glibc"])
    commands.add_argument("--compile", action="store_true", help="fanyi --compile true too")
    commands.add_argument("--allowed-softmax", action="store_true", help="and --allowed-softmax")
    in_process = parser.add_argument_group("--in-process")
    in_process.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    in_process.add_argument("--limit", type=int, help="first N sentences only")
    in_process.add_argument("--length-penalty", type=float, help="GNMT α (default: the model's)")
    args = parser.parse_args()
    if args.src and not args.ref:
        parser.error("--src needs --ref: the references the outputs are scored against")
    args.split = args.split or SPLITS[args.in_process]
    return args


def as_commands(args: argparse.Namespace) -> dict:
    malloc = with_allocator(args.malloc)  # inherited by every command the benchmark runs
    if malloc == "glibc":
        os.environ["FANYI_TCMALLOC"] = "0"  # fanyi translate would preload tcmalloc itself
    if args.src:
        sources, refs = read_lines(args.src), read_lines(args.ref)
    else:
        sources, refs = direction_sources(Path(args.split), args.to)
    if len(sources) < max(args.sizes):
        raise SystemExit(f"{len(sources)} sources, fewer than {max(args.sizes)}")
    with tempfile.TemporaryDirectory() as workdir:
        result = run(args, sources, refs, Path(workdir))
    alpha = Translator.load(args.model).options.length_penalty
    return {"measure": "commands", "malloc": malloc, "length_penalty": alpha, **result}


def in_process(args: argparse.Namespace) -> dict:
    if args.length_penalty is None:  # every engine decodes with the α stored in the model
        args.length_penalty = Translator.load(args.model).options.length_penalty
    load_average = os.getloadavg()[0]  # the machine's other work when the benchmark started
    if args.src:
        sources, refs = read_lines(args.src, args.limit), read_lines(args.ref, args.limit)
    else:
        pairs = direction_pairs(Path(args.split), "test", args.to)[: args.limit]
        sources, refs = [s for s, _ in pairs], [r for _, r in pairs]
    with tempfile.TemporaryDirectory() as workdir:
        result = run_in_process(args, sources, refs, Path(workdir))
    report(result, len(sources))
    return {"measure": "in-process", "load_average": round(load_average, 2),
            "sentences": len(sources), "length_penalty": args.length_penalty,
            "rounds": args.rounds, **result}  # fmt: skip


def main() -> None:
    args = parse_args()
    result = in_process(args) if args.in_process else as_commands(args)
    host = {**machine(), "ctranslate2": ctranslate2.__version__}
    if "malloc" in result:
        host["malloc"] = result.pop("malloc")
    emit({"benchmark": "end_to_end", "machine": host, "model": args.model, "to": args.to,
          "beam": args.beam, **result})  # fmt: skip


if __name__ == "__main__":
    main()
