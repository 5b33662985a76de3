"""Inline code in backticks, translated with and without reading it bare (``keep_code``), and
holding the translation to it (``hold_code``).

The documentation sources lost their markup when ``fanyi data`` read them, so this benchmark puts
some back the way Markdown writes it: in each held-out line of python-docs and django-docs (dev:
choose on this one; test) whose reference copies a piece of code from the source (a dotted name,
a call ``f()``, a snake_case name), that code is put in backticks on both sides. Each direction
is translated three ways, as written (``keep_code`` off), bare (on, ``hold_code`` off) and held
(both on: a sentence whose translation misses its code searched again, held to it), and scored (BLEU, chrF, length ratio; sacreBLEU,
tok:zh into Chinese), with the count of spans the translation gives back in backticks and of
backticks it leaves unpaired. Ends with one JSON line.

    python benchmarks/code_spans.py [-m MODEL] [--sources data/sources] [--threads 2]
                                    [--dtype fp32] [--lines N]
"""

from __future__ import annotations

import re
from pathlib import Path

from common import emit_off_and_on, off_and_on_parser, off_and_on_translator, read_lines
from decode_search import scored
from fanyi.text.code_spans import code_spans
from fanyi.translate.translator import Translator

SETS = [
    f"{source}/{split}.tsv"
    for source in ("python-docs", "django-docs")
    for split in ("dev", "test")
]
NAME = r"[A-Za-z_][A-Za-z0-9_]*"
CODE = re.compile(  # a.b(.c…)(()), f(), snake_case: code a reference copies as written
    rf"(?<![\w`])(?:{NAME}(?:\.{NAME})+(?:\(\))?|{NAME}\(\)|[a-z]+_[a-z0-9_]+)(?![\w`])"
)


def in_backticks(text: str, code: list[str]) -> str:
    """``text`` with every whole occurrence of each piece of ``code`` in backticks."""
    for piece in code:
        text = re.sub(rf"(?<![\w`]){re.escape(piece)}(?![\w`])", f"`{piece}`", text)
    return text


def marked(path: Path) -> list[tuple[str, str]]:
    """(English, Chinese) of the lines of an English<TAB>Chinese<TAB>… file whose Chinese copies
    code from the English, that code in backticks on both sides."""
    pairs = []
    for en, zh, *_ in (line.split("\t") for line in read_lines(str(path))):
        code = sorted({c for c in CODE.findall(en) if c in zh}, key=len, reverse=True)
        if code:
            pairs.append((in_backticks(en, code), in_backticks(zh, code)))
    return pairs


def given_back(source: str, translation: str) -> int:
    """How many of ``source``'s spans of code ``translation`` holds in backticks."""
    return sum(translation.count(span) > 0 for span in code_spans(source))


def score_both(translator: Translator, pairs: list[tuple[str, str]], to: str) -> dict:
    """The lines' scores into ``to`` read as written, bare, and bare and held to the code, and
    what became of the code."""
    sources, refs = (
        [p[0 if to == "zh" else 1] for p in pairs],
        [p[1 if to == "zh" else 0] for p in pairs],
    )
    result: dict = {"lines": len(pairs), "spans": sum(len(code_spans(s)) for s in sources)}
    for key, keep, hold in (
        ("as_written", False, False),
        ("bare", True, False),
        ("held", True, True),
    ):
        out = translator(sources, to=to, keep_code=keep, hold_code=hold)
        back = sum(given_back(s, t) for s, t in zip(sources, out, strict=True))
        unpaired = sum(t.count("`") % 2 for t in out)
        result[key] = scored(out, refs, to) | {"spans_given_back": back, "lines_unpaired": unpaired}
    return result


def main() -> None:
    parser = off_and_on_parser(__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=0, help="first N marked lines a set; 0 = all")
    args = parser.parse_args()
    translator = off_and_on_translator(args)
    results: dict = {}
    for name in SETS:
        path = Path(args.sources) / name
        pairs = marked(path)[: args.lines or None] if path.is_file() else []
        for to in ("zh", "en"):
            key = f"{name} {'en→zh' if to == 'zh' else 'zh→en'}"
            results[key] = score_both(translator, pairs, to) if pairs else "missing"
            print(key, results[key], flush=True)
    emit_off_and_on("code_spans", args, results)


if __name__ == "__main__":
    main()
