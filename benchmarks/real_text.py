"""Real text, not only Tatoeba: BLEU and chrF of a model on news, documentation and captions.

Scores each direction of every held-out set that ``fanyi data`` wrote (configs/data/
real-zh-en.yaml): WMT newstest2019 and newstest2020 (zh→en on the Chinese-original sets, en→zh on
the English-original ones, as WMT scores them), the test split of python-docs, django-docs, 3AM
and News Commentary (both ways), the test-only sets of ``fanyi data wider-tests`` (FLORES-200
devtest and TICO-19 test both ways, WMT22 generaltest2022 each direction on its own set) and of
``fanyi data wmt23`` (WMT23 generaltest2023, likewise), and the Tatoeba test split
of a prepared data directory (both ways). sacreBLEU signatures with every figure (tok:zh for
Chinese, 13a for English); ends with one JSON line.

    python benchmarks/real_text.py [-m MODEL] [--sources data/sources] \\
        [--tatoeba data/real-zh-en] [--sets newstest2019,flores200-devtest,...] [--limit N] \\
        [--beam 5] [--threads 2] [--to en|zh] [--script-penalty B] [--device cuda] \\
        [--test-file python-docs=data/sources/python-docs/test.tsv]

--model defaults to the bundled model. A set whose files are missing is reported as skipped.
python-docs is scored on the 200 test pairs the bundled general model held out (the split of
2026-11-26, kept in tests/fixtures/data/python-docs) but the 32 its first news stage trained on
(``seen.txt`` there): a rebuilt split's test is mostly that model's training data (docs/data.md,
"Splits that survive a rebuild"). ``--test-file NAME=PATH`` scores
a source's test split from PATH instead, as for a model trained on a later build.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Set as AbstractSet
from pathlib import Path

from common import emit, machine, read_lines, scored
from fanyi.cli.arguments import device
from fanyi.device import DEVICES
from fanyi.runtime import set_threads
from fanyi.text.lang import split_tag
from fanyi.translate.translator import Translator

PER_DIRECTION = {  # a source-original set per direction (WMT): set name → the fanyi data folder
    "newstest2019": "wmt-news",
    "newstest2020": "wmt-news",
    "generaltest2022": "wider-tests",
    "generaltest2023": "wmt23",
}
SPLITS = ("python-docs", "django-docs", "3am", "news-commentary")
WIDER = "wider-tests"  # fanyi data wider-tests: sets no config trains on
WIDER_BOTH = ("flores200-devtest", "tico19-test")  # English-original, scored both ways
EVERYTHING = (
    "newstest2019",
    "newstest2020",
    *SPLITS,
    *WIDER_BOTH,
    "generaltest2022",
    "generaltest2023",
    "tatoeba",
)  # --sets by default, in the order scored
FIXTURE = Path(__file__).resolve().parents[1] / "tests/fixtures/data/python-docs"
HELD_OUT_BY_THE_BUNDLED_MODEL = {"python-docs": FIXTURE / "test.tsv"}  # not a rebuilt split's test
SEEN = {FIXTURE / "test.tsv": FIXTURE / "seen.txt"}  # its lines a stage of that model trained on


def news(folder: Path, name: str) -> dict[str, list[tuple[str, str]]]:
    """(source, reference) pairs by target language: zh→en from the zh-en set, en→zh from
    the en-zh set (each direction's own, source-original text)."""
    found = {}
    for direction, to in (("zh-en", "en"), ("en-zh", "zh")):
        path = folder / f"{name}.{direction}.tsv"
        if path.is_file():
            found[to] = pairs(path, to)
    return found


def both_ways(path: Path) -> dict[str, list[tuple[str, str]]]:
    """(source, reference) pairs of one set into each language, without the lines that
    :data:`SEEN` lists for it; none when it is missing."""
    if not path.is_file():
        return {}
    left_out = seen(path)
    return {to: pairs(path, to, left_out) for to in ("en", "zh")}


def pairs(path: Path, to: str, left_out: AbstractSet[int] = frozenset()) -> list[tuple[str, str]]:
    """(source, reference) of an English<TAB>Chinese<TAB>… file, translated into ``to``, without
    the lines numbered in ``left_out``."""
    lines = enumerate(read_lines(str(path)), 1)
    rows = [line.split("\t") for n, line in lines if n not in left_out]
    return [(zh, en) if to == "en" else (en, zh) for en, zh, *_ in rows]


def seen(path: Path) -> set[int]:
    """The line numbers of ``path`` that :data:`SEEN` lists (a stage trained on them)."""
    listed = SEEN.get(Path(path).resolve())
    if listed is None:
        return set()
    text = [line for line in listed.read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    return {int(word) for line in text for word in line.split()}


def tatoeba(data: Path) -> dict[str, list[tuple[str, str]]]:
    """The test split of a prepared bidirectional data directory, by target language."""
    if not (data / "test.src").is_file():
        return {}
    found: dict[str, list[tuple[str, str]]] = {}
    sources, refs = read_lines(str(data / "test.src")), read_lines(str(data / "test.tgt"))
    for src, ref in zip(sources, refs, strict=True):
        tag, text = split_tag(src)
        found.setdefault(tag[2:-1] if tag else "en", []).append((text, ref))
    return found


def test_files(args: argparse.Namespace) -> dict[str, Path]:
    """The test split each source of :data:`SPLITS` is scored on: ``--test-file``, else
    :data:`HELD_OUT_BY_THE_BUNDLED_MODEL`, else what ``fanyi data`` wrote."""
    files = HELD_OUT_BY_THE_BUNDLED_MODEL | {name: Path(path) for name, path in args.test_file}
    return {name: files.get(name, Path(args.sources) / name / "test.tsv") for name in SPLITS}


def test_sets(
    args: argparse.Namespace, files: dict[str, Path]
) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """(source, reference) pairs by target language of each set of ``--sets``, in its order;
    ``files``: the test split of each source of :data:`SPLITS`."""
    sources, found = Path(args.sources), {}
    for name in args.sets.split(","):
        if name in PER_DIRECTION:
            found[name] = news(sources / PER_DIRECTION[name], name)
        elif name in files:
            found[name] = both_ways(files[name])
        elif name in WIDER_BOTH:
            found[name] = both_ways(sources / WIDER / f"{name}.tsv")
        elif name == "tatoeba":
            found[name] = tatoeba(Path(args.tatoeba))
    return found


def score_direction(
    translator: Translator, items: list[tuple[str, str]], to: str, beam: int | None
) -> dict:
    """BLEU, chrF, length ratio and signature of ``items`` translated into ``to``."""
    start = time.perf_counter()
    search = {} if beam is None else {"beam": beam}  # else the model's
    hypotheses = translator([s for s, _ in items], to=to, **search)
    scores = scored(hypotheses, [r for _, r in items], to)  # type: ignore[arg-type]
    return scores | {"lines": len(items), "seconds": round(time.perf_counter() - start, 1)}


def test_file(item: str) -> tuple[str, str]:
    """``NAME=PATH`` of ``--test-file``, NAME one of :data:`SPLITS`."""
    name, sep, path = item.partition("=")
    if not sep or not path or name not in SPLITS:
        raise argparse.ArgumentTypeError(
            f"{item!r}: give NAME=PATH, NAME one of {', '.join(SPLITS)}"
        )
    return name, path


def arguments() -> argparse.Namespace:
    """The command line: the model, the sets and how to decode them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-m", "--model", help="model directory (default: the bundled model)")
    parser.add_argument("--sources", default="data/sources", help="where fanyi data wrote")
    parser.add_argument("--tatoeba", default="data/real-zh-en", help="a prepared data directory")
    parser.add_argument("--sets", default=",".join(EVERYTHING))
    parser.add_argument(
        "--test-file",
        type=test_file,
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="score source NAME's test split from PATH (default for python-docs: the 168 pairs "
        "no stage of the bundled general model trained on, tests/fixtures/data/python-docs)",
    )
    parser.add_argument("--limit", type=int, help="first N sentences of each direction")
    parser.add_argument("--beam", type=int, help="beam size (default: the model's)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--device", type=device, default="cpu", help=f"{DEVICES} (default cpu)")
    parser.add_argument("--dtype", default="auto", help="fp32, bf16, int8 or auto (default)")
    parser.add_argument("--to", choices=["en", "zh"], help="one direction only (default both)")
    parser.add_argument("--script-penalty", type=float, help="β (default: the model's)")
    return parser.parse_args()


def main() -> None:
    args = arguments()
    set_threads(args.threads)
    search = {}  # else the model's β
    if args.script_penalty is not None:  # into every language
        search = {"script_penalty": args.script_penalty, "script_penalty_by_target": {}}
    translator = Translator.load(args.model, dtype=args.dtype, device=args.device, **search)
    results: dict[str, dict] = {}
    files = test_files(args)
    for name, by_target in test_sets(args, files).items():
        if not by_target:
            print(f"{name}: skipped (no files)")
            results[name] = {"skipped": True}
        for to, items in sorted(by_target.items()):
            if args.to and to != args.to:
                continue
            scores = score_direction(translator, items[: args.limit], to, args.beam)
            results.setdefault(name, {})[f"→{to}"] = scores
            print(
                f"{name} →{to}: BLEU {scores['bleu']:.2f} chrF {scores['chrf']:.2f} "
                f"ratio {scores['length_ratio']:.3f} ({scores['lines']} lines) "
                f"{scores['signature']}"
            )
    emit(
        {
            "benchmark": "real_text",
            "model": args.model or "bundled",
            "beam": args.beam,
            "dtype": translator.engine.options.dtype,
            "device": args.device,
            "limit": args.limit,
            "test_files": {name: str(path) for name, path in files.items()},
            "left_out_lines": {name: len(seen(path)) for name, path in files.items()},
            "script_penalty": translator.options.script_penalty,
            "results": results,
            "machine": machine(),
        }
    )


if __name__ == "__main__":
    main()
