"""Does a document keep its structure, its code and its words when ``fanyi translate`` translates it?

For each real document in tests/fixtures/documents/ (or ``--files``): its first ``--limit``
segments with words translated inside the document (``translate_document``'s path: the markup
held and composed, a wrap whose words are not found placed by the model's alignment), the rest
left as they were. Reports per file and per format:

- structure kept: the output re-read by the format's own parser has the same tree (Markdown's
  blocks and inline markup, HTML's elements and attributes, the cues and their timings, JSON's
  keys, XLIFF's units and inline codes, Word's paragraphs, styles and links);
- held kept: % of the translated segments' held spans (inline code, placeholders, tags that wrap
  nothing) and URLs found in their translation as written;
- BLEU and chrF (sacreBLEU) of the segments' words translated in the document against the same
  segments translated as plain lines (``Translator.__call__`` on each segment's text): how much
  the markup changes the words. Markup is taken out of the document's translation first (wraps'
  tags removed, held spans shown as the model reads them). None of the fixtures has a
  translated counterpart, so there is no reference translation to score against.

Each file is translated into English if most of its words are Chinese, else into Chinese.
Ends with one JSON line.

    nice python benchmarks/documents.py [--files F ...] [--limit 30] [--threads 1] [--quick]
"""

from __future__ import annotations

import argparse
import html
import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path

from common import emit, machine, scored
from fanyi.documents.registry import format_for
from fanyi.documents.segment import Held, Segment, Text, Wrap, has_words, plain
from fanyi.documents.translating import translate_segments, translating
from fanyi.runtime import set_threads
from fanyi.text.lang import HAN
from fanyi.translate.translator import Translator

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "documents"
URL = re.compile(r"https?://[^\s<>\"')\]]+")
HAN_CHARACTER = re.compile(f"[{HAN}]")
MARKDOWN_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")  # a backslash before ASCII punctuation


def markdown_tree(data: bytes) -> list:
    """Markdown's blocks, code, HTML, link addresses and inline markup, in order."""
    from fanyi.documents import markdown

    return markdown.skeleton(data.decode("utf-8"))


def html_tree(data: bytes) -> list:
    """Every element's tag and its attributes but the translated ones, and what code holds."""
    import lxml.html

    found: list = []
    for element in lxml.html.document_fromstring(data).iter():
        names = ("alt", "title", "placeholder", "lang")
        found.append((element.tag, {k: v for k, v in element.attrib.items() if k not in names}))
        if element.tag in ("script", "style", "pre", "code", "kbd", "var", "samp"):
            found.append(lxml.html.tostring(element, with_tail=False))
    return found


def srt_tree(data: bytes) -> list:
    """Each cue's number and timings."""
    import srt

    return [(c.index, c.start, c.end) for c in srt.parse(data.decode("utf-8-sig"))]


def vtt_tree(data: bytes) -> list:
    """Each cue's identifier, timings and settings, and the style blocks."""
    import webvtt

    found = webvtt.from_string(data.decode("utf-8-sig"))
    cues = [(c.identifier, c.start, c.end, str(c.settings)) for c in found.captions]
    return [cues, [s.text for s in found.styles]]


def json_tree(data: bytes) -> object:
    """The keys, and the kind of each leaf."""

    def shape(value: object) -> object:
        if isinstance(value, dict):
            return {key: shape(item) for key, item in value.items()}
        if isinstance(value, list):
            return [shape(item) for item in value]
        return type(value).__name__

    return shape(json.loads(data))


def xliff_tree(data: bytes) -> list:
    """Each unit's id, its source's inline codes, and those of its translation: its target's,
    or the source's again where it has none (a filled target must hold the source's codes)."""
    import lxml.etree

    found: list = []
    for unit in lxml.etree.fromstring(data).iter("{*}trans-unit", "{*}unit"):
        codes = [[(x.tag, dict(x.attrib)) for x in part] for part in unit.iter("{*}source")]
        targets = [[(x.tag, dict(x.attrib)) for x in part] for part in unit.iter("{*}target")]
        found.append((unit.get("id"), codes, targets or codes))
    return found


def docx_tree(data: bytes) -> list:
    """Each paragraph's style, its runs' character styles (as a set: a translation may put the
    words they mark in another order) and its links."""
    import docx

    document = docx.Document(io.BytesIO(data))
    paragraphs = list(document.paragraphs)
    for table in document.tables:
        paragraphs += [p for cell in table._cells for p in cell.paragraphs]
    for section in document.sections:
        paragraphs += section.header.paragraphs + section.footer.paragraphs
    found = []
    for paragraph in paragraphs:
        styles = sorted({r.style.name for r in paragraph.runs if r.text.strip()})
        style = paragraph.style.name if paragraph.style else None
        found.append((style, styles, [h.address for h in paragraph.hyperlinks]))
    return found


TREES: dict[str, Callable[[bytes], object]] = {
    "markdown": markdown_tree,
    "html": html_tree,
    "srt": srt_tree,
    "vtt": vtt_tree,
    "json": json_tree,
    "xliff": xliff_tree,
    "docx": docx_tree,
    "text": lambda data: [not line.strip() for line in data.decode("utf-8").split("\n")],
}


def held_spans(pieces: tuple) -> list[str]:
    """A segment's held spans as written, and the URLs of its markup (a link's address)."""
    found: list[str] = []
    for piece in pieces:
        if isinstance(piece, Held):
            found += [piece.raw] if piece.raw.strip() else []
        elif isinstance(piece, Wrap):
            found += URL.findall(piece.open) + held_spans(piece.inner)
        elif isinstance(piece, Text):
            found += URL.findall(piece.text)
    return found


def markup(pieces: tuple) -> tuple[list[str], dict[str, str]]:
    """The wraps' tags of a segment, and each held span's raw text → what the model reads."""
    tags: list[str] = []
    shown: dict[str, str] = {}
    for piece in pieces:
        if isinstance(piece, Wrap):
            inner_tags, inner_shown = markup(piece.inner)
            tags += [piece.open, piece.close, *inner_tags]
            shown.update(inner_shown)
        elif isinstance(piece, Held) and piece.raw.strip():
            shown[piece.raw] = f"`{piece.shown}`" if piece.shown else " "
    return tags, shown


def words_of(segment: Segment, translation: str, format_name: str) -> str:
    """A document segment's translation as words: its wraps' tags out (``25<sup>th</sup>`` is
    ``25th``), held spans as read, the format's escapes undone (``&lt;``, Markdown's
    backslashes)."""
    tags, shown = markup(segment)
    for raw, words in sorted(shown.items(), key=lambda item: -len(item[0])):
        translation = translation.replace(raw, words)
    for tag in sorted(set(tags), key=len, reverse=True):
        if tag:  # a wrap's tags sit beside its words' own spaces, so they go with none
            translation = translation.replace(tag, "")
    if format_name == "markdown":
        translation = MARKDOWN_ESCAPE.sub(r"\1", translation)
    elif format_name in ("html", "vtt", "xliff"):
        translation = html.unescape(translation)
    return re.sub(r"\s+", " ", translation).strip()


def target_of(segments: list[Segment]) -> str:
    """English for a document mostly in Chinese, else Chinese."""
    text = " ".join(plain(s) for s in segments)
    han = len(HAN_CHARACTER.findall(text))
    return "en" if han > len(re.findall(r"[A-Za-z]", text)) / 4 else "zh"


def measure_file(path: Path, translator: Translator, limit: int) -> dict:
    """One document: its first ``limit`` segments with words translated in it and as lines."""
    data = path.read_bytes()
    found = format_for(path)
    document = found.read(data, path.name)
    chosen = [i for i, s in enumerate(document.segments) if has_words(s)][:limit]
    segments = [document.segments[i] for i in chosen]
    to = target_of(segments)
    start = time.perf_counter()
    translate, align = translating(translator, to)
    done, report = translate_segments(segments, translate, document.escape, to, align)
    seconds = time.perf_counter() - start
    translations: list[str | None] = [None] * len(document.segments)
    for i, translation in zip(chosen, done, strict=True):
        translations[i] = translation
    out = document.write(translations, to)
    tree, report_error = TREES[found.name], None
    try:
        same = tree(out) == tree(data)
    except Exception as error:  # the output does not even parse: structure lost
        same, report_error = False, f"{type(error).__name__}: {error}"
    held = [(raw, t or "") for s, t in zip(segments, done, strict=True) for raw in held_spans(s)]
    lines = translator([plain(s) for s in segments], to=to)
    words = [words_of(s, t or "", found.name) for s, t in zip(segments, done, strict=True)]
    return {
        "file": path.name,
        "format": found.name,
        "to": to,
        "segments": len(document.segments),
        "translated": len(segments),
        "report": report.to_dict(),
        "structure_kept": same,
        "parse_error": report_error,
        "held": len(held),
        "held_kept": sum(raw in t for raw, t in held),
        "against_lines": scored(words, lines, to),
        "seconds": round(seconds, 2),
        "pairs": [[w, line] for w, line in zip(words, lines, strict=True)],
    }


def by_format(files: list[dict]) -> dict[str, dict]:
    """Per format: files whose structure was kept, held spans kept (%), and BLEU/chrF of all
    its segments in documents against the same as lines."""
    out: dict[str, dict] = {}
    for name in dict.fromkeys(f["format"] for f in files):
        mine = [f for f in files if f["format"] == name]
        held = sum(f["held"] for f in mine)
        scores = {}
        for to in sorted({f["to"] for f in mine}):
            pairs = [p for f in mine if f["to"] == to for p in f["pairs"]]
            scores[f"into_{to}"] = scored([p[0] for p in pairs], [p[1] for p in pairs], to)
        out[name] = {
            "files": len(mine),
            "structure_kept": sum(f["structure_kept"] for f in mine),
            "segments": sum(f["translated"] for f in mine),
            "piecewise": sum(f["report"]["piecewise"] for f in mine),
            "held": held,
            "held_kept_pct": round(100 * sum(f["held_kept"] for f in mine) / held, 1)
            if held
            else None,
            "against_lines": scores,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", nargs="+", type=Path, help="documents (default: the fixtures)")
    parser.add_argument("--limit", type=int, default=30, help="segments with words per file")
    parser.add_argument("-m", "--model", default=None, help="model (default: the bundled one)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--dtype", default="fp32")
    parser.add_argument("--quick", action="store_true", help="2 segments of 3 files: a smoke test")
    args = parser.parse_args()
    files = args.files or sorted(p for p in FIXTURES.iterdir() if p.name != "README.md")
    if args.quick:
        args.limit, files = 2, files[:3] if args.files else [FIXTURES / n for n in QUICK]
    set_threads(args.threads)
    translator = Translator.load(args.model, dtype=args.dtype)
    results = []
    for path in files:
        result = measure_file(path, translator, args.limit)
        print(
            f"{result['file']}: {result['format']} into {result['to']}: "
            f"{result['translated']} of {result['segments']} segments "
            f"({result['report']['piecewise']} piecewise), structure "
            f"{'kept' if result['structure_kept'] else 'CHANGED'}, held {result['held_kept']}"
            f"/{result['held']}, BLEU {result['against_lines']['bleu']} chrF "
            f"{result['against_lines']['chrf']} against lines, {result['seconds']} s",
            flush=True,
        )
        results.append(result)
    emit(
        {
            "benchmark": "documents",
            "model": args.model,
            "dtype": args.dtype,
            "threads": args.threads,
            "limit": args.limit,
            "formats": by_format(results),
            "files": [{k: v for k, v in r.items() if k != "pairs"} for r in results],
            "machine": machine(),
        }
    )


QUICK = ("sintel.en.srt", "nanogpt-readme.md", "run-char-style.docx")

if __name__ == "__main__":
    main()
