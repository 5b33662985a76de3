"""The shipped model end to end on held-out real text, each way: ``fanyi translate`` as shipped and
with each extra pass switched one at a time, against CTranslate2's own API on the model's int8
and float32 exports at the same beam. Ends with one JSON line.

Every system is a fresh command on the same lines, timed from process start to the last line
written: ``fanyi translate -i FILE`` (its defaults: the model's decode section, every text
feature) and ``ct2_translate.py --preprocess`` (the export's ``preprocess.py``, then
``translate_iterable``, as the export's model card shows). Its start-up (imports, loading and one
short line) is timed apart on a one-line file; translating is the rest. The extra passes are
reranking by the backward score (``rerank_backward``), the holds (``hold_numbers``,
``hold_dates``, ``keep_links``, ``hold_code``, ``hold_names``), the script penalty
(``script_penalty``), sentence splitting (``split_sentences``), the guard against runs
(``max_repeat_run``, 4 where on) and the softmax over the allowed pieces (``allowed_softmax``):
a pass's run turns it off
where the model's defaults run it, and on (λ 0.2, β 1) where they do not; the JSON line names
each run's setting. ``auto`` is ``fanyi translate --engine auto`` (CTranslate2 for the free
searches on the export it caches, fanyi's engine for the held ones; its export is made in the
untimed first start). ``ct2-engine`` is ``fanyi translate --engine ctranslate2`` on the int8 export
with the shipped options (that engine has no held search). ``workers`` is the shipped command
as ``--threads`` single-thread processes (``--workers``, at least 2), ``ct2-int8-workers``
CTranslate2's API so (``inter_threads``). ``processes`` is the shipped command as that many
single-thread commands at once, each on every n-th line, their outputs dealt back in order.

Scores: sacreBLEU BLEU and chrF with their signatures, the length ratio, the outputs holding a
run that their source does not (``repeats``: a character, piece or word 4 times in a row, as
``fanyi.text.runs.degenerate`` reads it), BLEU per set, and each
run's BLEU against the shipped one with a paired bootstrap 95% interval (Koehn 2004).

Held-out sets (``--part``). test: python-docs (the 168 pairs of tests/fixtures/data/python-docs
no stage of the bundled model trained on), the Tatoeba test slice (tests/fixtures/data/
tatoeba-cmn-eng/bundled-test.txt), WMT newstest2020 (each direction its own source-original
half), FLORES-200 devtest, TICO-19 test and 3AM's test split. dev: WMT newstest2017 (the
wmt-news dev split) and 3AM's dev split. All but the fixtures are what ``fanyi data`` writes
(``--sources``; docs/data.md says how to build them from public repositories); a set without
files is skipped. A direction's lines are dealt from its sets in turn, so that ``--lines N``
takes a share of each. References are normalised as the model's training data was.

    python benchmarks/shipped.py --sources data/sources [--part test|dev] [--lines 500] \\
        [--to en,zh] [--threads 1] [--runs shipped,rerank_backward,ct2-int8] [--rounds 1] \\
        [--outputs DIR]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections import Counter
from pathlib import Path

import ctranslate2
import numpy as np
from sacrebleu.metrics import BLEU

import real_text
from common import emit, machine, with_allocator
from fanyi.interop.export_ct2 import export_ctranslate2
from fanyi.scores import score
from fanyi.sections import read_config
from fanyi.text.lang import Normalizer, bleu_tokenizer
from fanyi.text.runs import degenerate
from fanyi.translate.config import DecodeConfig, decode_defaults
from fanyi.translate.model_names import resolve_model_dir
from timed import timed, timed_apart

HERE = Path(__file__).resolve().parent
FIXTURES = HERE.parent / "tests" / "fixtures" / "data"
FIXTURE_FILES = {
    "python-docs": FIXTURES / "python-docs" / "test.tsv",
    "tatoeba": FIXTURES / "tatoeba-cmn-eng" / "bundled-test.txt",
}
SETS = {
    "test": ("python-docs", "tatoeba", "newstest2020", "flores200-devtest", "tico19-test", "3am"),
    "dev": ("newstest2017", "3am"),
}
# each extra pass: its key's value off, and on where the model leaves it off (λ and β as tuned)
PASSES = {
    "rerank_backward": ("0", "0.2"),
    "hold_numbers": ("false", "true"),
    "hold_dates": ("false", "true"),
    "keep_links": ("false", "true"),
    "hold_code": ("false", "true"),
    "hold_names": ("false", "true"),
    "script_penalty": ("0", "1"),
    "split_sentences": ("false", "true"),
    "max_repeat_run": ("0", "4"),
    "constrained_beam": ("0", "3"),  # 0: the beam
    "allowed_softmax": ("false", "true"),
}
PEERS = {"ct2-int8": "int8", "ct2-float32": "float32", "ct2-int8-workers": "int8"}  # → export
RUNS = ("shipped", *PASSES, "auto", "ct2-engine", "workers", "processes", *PEERS)
ONE_LINE = {"en": "你好。", "zh": "Hello."}  # the start-up's line, by target


# the lines ---------------------------------------------------------------------------------------
def set_pairs(name: str, part: str, sources: Path) -> dict[str, list[tuple[str, str]]]:
    """(source, reference) pairs of set ``name`` by target language (none: no files)."""
    if name in FIXTURE_FILES:
        return real_text.both_ways(FIXTURE_FILES[name])
    if name in real_text.PER_DIRECTION:
        return real_text.news(sources / real_text.PER_DIRECTION[name], name)
    if name in real_text.WIDER_BOTH:
        return real_text.both_ways(sources / real_text.WIDER / f"{name}.tsv")
    if name == "newstest2017":
        return real_text.both_ways(sources / "wmt-news" / "dev.tsv")
    return real_text.both_ways(sources / name / f"{part}.tsv")


def one_line(text: str) -> bool:
    """Whether ``text`` is one line however a reader splits it, and not empty."""
    return bool(text.strip()) and text.splitlines() == [text]


def dealt(sets: dict[str, list[tuple[str, str]]], n: int) -> list[tuple[str, str, str]]:
    """The first ``n`` (set, source, reference) rows, a line of each set in turn."""
    rows = [[(name, s, r) for s, r in pairs if one_line(s)] for name, pairs in sets.items()]
    turns = itertools.chain.from_iterable(itertools.zip_longest(*rows))
    return [row for row in turns if row is not None][:n]


def directions(args: argparse.Namespace) -> dict[str, list[tuple[str, str, str]]]:
    """The rows of each direction of ``--to``, references normalised as the model's data."""
    data = read_config(resolve_model_dir(args.model)).data
    found: dict[str, list[tuple[str, str, str]]] = {}
    for to in args.to.split(","):
        sets = {name: set_pairs(name, args.part, Path(args.sources)) for name in args.sets}
        present = {name: by_to[to] for name, by_to in sets.items() if by_to.get(to)}
        normalise = Normalizer(to, nfkc=data.nfkc, t2s=data.t2s)
        found[to] = [(name, s, normalise(r)) for name, s, r in dealt(present, args.lines)]
    return found


# the commands ------------------------------------------------------------------------------------
def commands(
    args: argparse.Namespace, to: str, exports: dict[str, Path], names: list[str]
) -> dict[str, list[str]]:
    """The command line of each run of ``names`` into ``to`` (its input comes after it)."""
    translate = [sys.executable, "-m", "fanyi", "translate", "--to", to, "--threads"]
    fanyi = [*translate, str(args.threads)]
    runs = {}
    for name in names:
        if name == "shipped":
            runs[name] = [*fanyi, "-m", args.model, "-i"]
        elif name in PASSES:
            flag = f"--{name.replace('_', '-')}"
            runs[name] = [*fanyi, "-m", args.model, flag, args.flip[name], "-i"]
        elif name == "auto":
            runs[name] = [*fanyi, "-m", args.model, "--engine", "auto", "-i"]
        elif name == "ct2-engine":
            runs[name] = [*fanyi, "-m", str(exports["int8"]), "--engine", "ctranslate2", "-i"]
        elif name == "workers":  # single-thread processes, one a thread
            workers = ["--workers", str(max(2, args.threads))]
            runs[name] = [*translate, "1", *workers, "-m", args.model, "-i"]
        elif name == "processes":  # whole commands, one a thread, on shares of the lines
            runs[name] = [*translate, "1", "-m", args.model, "-i"]
        else:
            threads = ["--intra-threads", str(args.threads)]
            if name.endswith("-workers"):
                threads = ["--intra-threads", "1", "--inter-threads", str(max(2, args.threads))]
            runs[name] = [
                sys.executable, str(HERE / "ct2_translate.py"), str(exports[PEERS[name]]),
                "--to", to, "--beam", str(args.beam), *threads, "--preprocess", "--input",
            ]  # fmt: skip
    return runs


def family(run: str) -> str:
    """The run whose start-up ``run`` shares (every pass off starts as the shipped command)."""
    return run if run in ("auto", "ct2-engine") or run in PEERS else "shipped"


def measure(args, rows: dict, exports: dict[str, Path], workdir: Path) -> dict:
    """Best (seconds, CPU seconds) of each run of each direction and of each start-up, over
    ``--rounds`` interleaved rounds after one untimed start of each command (the page cache,
    compiled modules, the dtype ``auto`` chose); each run's outputs in ``workdir``."""
    first = next(iter(rows))
    one_line = workdir / "one-line.txt"
    one_line.write_text(ONE_LINE[first] + "\n", encoding="utf-8")
    starts = commands(args, first, exports, list(dict.fromkeys(map(family, args.runs))))
    for command in starts.values():
        timed(command, one_line, workdir / "one-line.out")
    best: dict = {"startup": {}, **{to: {} for to in rows}}

    def keep(where: dict, name: str, times: tuple[float, float]) -> None:
        where[name] = tuple(map(min, zip(where.get(name, times), times, strict=True)))

    for _ in range(args.rounds):
        for name, command in starts.items():
            keep(best["startup"], name, timed(command, one_line, workdir / "one-line.out"))
        for to in rows:
            source = workdir / f"source.{to}"
            for name, command in commands(args, to, exports, args.runs).items():
                output, parts = workdir / f"{name}.{to}", max(2, args.threads)
                took = (
                    timed_apart(command, source, output, parts)
                    if name == "processes"
                    else timed(command, source, output)
                )
                keep(best[to], name, took)
                print(f"  →{to} {name}: {best[to][name][0]:.1f} s", flush=True)
    return best


# the scores --------------------------------------------------------------------------------------
def quality(hypotheses: list[str], rows: list[tuple[str, str, str]], to: str) -> dict:
    """BLEU and chrF with signatures, length ratio, repeats and BLEU per set."""
    refs = [r for _, _, r in rows]
    found = score(hypotheses, [refs], to)
    per_set = {}
    for name in dict.fromkeys(n for n, _, _ in rows):
        picked = [(h, r) for h, (n, _, r) in zip(hypotheses, rows, strict=True) if n == name]
        per_set[name] = round(score([h for h, _ in picked], [[r for _, r in picked]], to).bleu, 2)
    return {
        "bleu": round(found.bleu, 2),
        "chrf": round(found.chrf, 2),
        "length_ratio": round(found.length_ratio, 3),
        "repeats": sum(degenerate(h, s) for h, (_, s, _) in zip(hypotheses, rows, strict=True)),
        "per_set": per_set,
        "signatures": [found.bleu_signature, found.chrf_signature],
    }


def paired_delta(base: list[str], other: list[str], refs: list[str], to: str) -> dict:
    """BLEU of ``other`` minus that of ``base``, with a 95% interval from 1,000 paired bootstrap
    samples of the lines (both systems scored on the same sample)."""
    metric = BLEU(tokenize=bleu_tokenizer(to))
    stats = [np.array(metric._extract_corpus_statistics(h, [refs])) for h in (base, other)]

    def bleu(s: np.ndarray) -> float:
        return metric._compute_score_from_stats(s.sum(axis=0).tolist()).score

    rng, n = np.random.default_rng(0), len(refs)
    samples = [rng.integers(0, n, n) for _ in range(1000)]
    deltas = [bleu(stats[1][i]) - bleu(stats[0][i]) for i in samples]
    low, high = np.percentile(deltas, [2.5, 97.5])
    delta = bleu(stats[1]) - bleu(stats[0])
    return {"delta": round(delta, 2), "low": round(float(low), 2), "high": round(float(high), 2)}


def results(args, rows: dict, seconds: dict, workdir: Path) -> dict:
    """Per direction and run: seconds and CPU seconds (whole, start-up, translating), lines/s,
    the throughput over CTranslate2's int8 peer, quality and BLEU against the shipped run."""
    found: dict = {}
    for to, lines in rows.items():
        outputs = {
            name: (workdir / f"{name}.{to}").read_text(encoding="utf-8").splitlines()
            for name in seconds[to]
        }
        refs = [r for _, _, r in lines]
        peer = seconds[to].get("ct2-int8")
        for name, (whole, cpu) in seconds[to].items():
            start, start_cpu = seconds["startup"][family(name)]
            entry = {
                "seconds": round(whole, 2),
                "cpu_seconds": round(cpu, 2),
                "startup": round(start, 2),
                "startup_cpu": round(start_cpu, 2),
                "translating_cpu": round(cpu - start_cpu, 2),
                "lines_per_s": round(len(lines) / whole, 2),
                **quality(outputs[name], lines, to),
            }
            if peer:
                entry["over_ct2_int8"] = round(peer[0] / whole, 3)
                entry["over_ct2_int8_cpu"] = round(peer[1] / cpu, 3)
            if "shipped" in outputs and name != "shipped":
                entry["vs_shipped"] = paired_delta(outputs["shipped"], outputs[name], refs, to)
            found.setdefault(to, {})[name] = entry
    return found


def report(found: dict, rows: dict) -> None:
    """One table per direction."""
    for to, runs in found.items():
        print(f"\n→{to}, {len(rows[to])} lines")
        print("| run | seconds | CPU s | start-up CPU s | translating CPU s | × CT2 int8 (CPU) "
              "| BLEU | Δ BLEU (95%) | chrF | length | repeats |")  # fmt: skip
        print("| --- |" + " ---: |" * 10)
        for name, r in runs.items():
            vs = r.get("vs_shipped")
            delta = f"{vs['delta']:+.2f} ({vs['low']:+.2f}, {vs['high']:+.2f})" if vs else ""
            print(f"| {name} | {r['seconds']:.1f} | {r['cpu_seconds']:.1f} "
                  f"| {r['startup_cpu']:.1f} | {r['translating_cpu']:.1f} "
                  f"| {r.get('over_ct2_int8_cpu', '')} | {r['bleu']:.2f} | {delta} "
                  f"| {r['chrf']:.2f} | {r['length_ratio']:.3f} | {r['repeats']} |")  # fmt: skip


# the command -------------------------------------------------------------------------------------
def flipped(name: str, defaults: DecodeConfig) -> str:
    """The value of pass ``name`` its run sets: off where the model's defaults run it, else on."""
    search = defaults.search
    if name in ("rerank_backward", "script_penalty"):
        on = getattr(search, name) > 0 or bool(getattr(search, f"{name}_by_target"))
    elif name in ("max_repeat_run", "constrained_beam"):
        on = getattr(search, name) > 0
    elif name == "allowed_softmax":
        on = search.allowed_softmax
    else:
        on = bool(getattr(defaults.text, name))
    return PASSES[name][0] if on else PASSES[name][1]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", default="zh-en-general", help="model (default: shipped)")
    parser.add_argument("--sources", default="data/sources", help="where fanyi data wrote")
    parser.add_argument("--part", choices=sorted(SETS), default="test", help="test or dev sets")
    parser.add_argument("--sets", help="comma-separated sets (default: the part's)")
    parser.add_argument("--lines", type=int, default=500, help="lines each way (default 500)")
    parser.add_argument("--to", default="en,zh", help="directions (default en,zh)")
    parser.add_argument("--threads", type=int, default=1, help="each command's (default 1)")
    parser.add_argument("--runs", default=",".join(RUNS), help=f"of {', '.join(RUNS)}")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved rounds (best kept)")
    parser.add_argument("--outputs", help="keep each run's outputs in this folder")
    args = parser.parse_args()
    args.sets = args.sets.split(",") if args.sets else list(SETS[args.part])
    args.runs = args.runs.split(",")
    if unknown := set(args.runs) - set(RUNS):
        parser.error(f"unknown runs {', '.join(sorted(unknown))}: choose of {', '.join(RUNS)}")
    defaults = decode_defaults(resolve_model_dir(args.model))
    args.flip = {name: flipped(name, defaults) for name in PASSES}
    args.beam = defaults.search.beam
    return args


def run(args: argparse.Namespace, workdir: Path) -> dict:
    """Write each direction's lines, export the model, time every run, score it."""
    rows = directions(args)
    for to, lines in rows.items():
        text = "".join(f"{source}\n" for _, source, _ in lines)
        (workdir / f"source.{to}").write_text(text, encoding="utf-8")
        print(f"→{to}: {len(lines)} lines from {sorted({name for name, _, _ in lines})}")
    wanted = {"int8"} if "ct2-engine" in args.runs else set()
    wanted |= {PEERS[name] for name in args.runs if name in PEERS}
    model = str(resolve_model_dir(args.model))
    exports = {
        q: export_ctranslate2(model, workdir / f"export-{q}", q, overwrite=True)
        for q in sorted(wanted)
    }
    seconds = measure(args, rows, exports, workdir)
    found = results(args, rows, seconds, workdir)
    report(found, rows)
    lines = {to: len(r) for to, r in rows.items()}
    counts = {to: dict(Counter(name for name, _, _ in r)) for to, r in rows.items()}
    startup = {name: [round(t, 2) for t in times] for name, times in seconds["startup"].items()}
    settings = {name: args.flip[name] for name in args.runs if name in PASSES}
    return {
        "lines": lines,
        "sets": counts,
        "settings": settings,
        "startup": startup,
        "results": found,
    }


def main() -> None:
    malloc = with_allocator("tcmalloc")  # every command inherits it, as fanyi translate runs
    args = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.outputs or tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        result = run(args, workdir)
    host = {**machine(), "ctranslate2": ctranslate2.__version__, "malloc": malloc}
    emit({"benchmark": "shipped", "model": args.model, "part": args.part, "beam": args.beam,
          "threads": args.threads, "rounds": args.rounds, **result, "machine": host})  # fmt: skip


if __name__ == "__main__":
    main()
