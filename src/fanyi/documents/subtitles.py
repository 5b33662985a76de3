"""Subtitles, SubRip (``.srt``, read by ``srt``) and WebVTT (``.vtt``, read by ``webvtt-py``):
each cue's text translated, its number, timings, settings, and every other block (WebVTT's
header, ``NOTE``, ``STYLE``, ``REGION``) written as they were.

A cue's lines are one sentence broken for the screen, so they are translated as one text and
the translation broken again into as many lines as the cue had, at a readable width
(:data:`WIDTHS`: 42 characters a line into English, 16 into Chinese; more lines where it does
not fit), at a space or between Chinese characters, never inside a tag. A cue whose every line
opens with a dash is a dialogue: each line is translated on its own and keeps its dash.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import srt
import webvtt
from webvtt.errors import MalformedCaptionError, MalformedFileError
from webvtt.vtt import WebVTTCueBlock

from .document import Source, Spliced, decoded
from .segment import Break, Piece, Segment, has_words
from .tags import TAG, tagged

WIDTHS = {"en": 42, "zh": 16}  # characters a subtitle line holds, by target language
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_NO_BREAK_BEFORE = set("，。、；：？！）」』》…—,.;:?!)]}")
_PAUSES = set("，。、；：？！…,;:?!")  # a line may end after these at no cost
_MID_PHRASE = 3  # what a break between two Chinese characters costs, in characters


@dataclass
class Cue:
    """A cue's text as its lines (``dialogue``: each line a speaker's, opened by a dash)."""

    lines: int
    dialogue: bool


class SubtitleDocument(Spliced):
    """A subtitle file: each cue's text one segment, its translation broken into lines."""

    def __init__(
        self, source: Source, regions: list[tuple[int, int]], texts: list[str], entities: bool
    ) -> None:
        self.entities = entities
        self.cues = [_cue(text) for text in texts]
        super().__init__(
            source,
            regions,
            [_segment(t, c, entities) for t, c in zip(texts, self.cues, strict=True)],
        )

    def escape(self, text: str) -> str:
        if not self.entities:
            return text
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    def write(self, translations: list[str | None], to: str) -> bytes:
        width = WIDTHS.get(to.split("-")[0].lower(), WIDTHS["en"])
        lines = [
            t if t is None or cue.dialogue else "\n".join(wrapped(t, cue.lines, width))
            for t, cue in zip(translations, self.cues, strict=True)
        ]
        return self.source.encode(self.spliced(lines))


def read_srt(data: bytes, name: str) -> SubtitleDocument:
    """The cues of SubRip file ``data``."""
    source = decoded(data, name)
    try:
        count = len(list(srt.parse(source.text)))
    except (srt.SRTParseError, ValueError) as error:
        raise ValueError(f"{name}: not a SubRip (.srt) file: {_first_line(error)}") from None
    regions = []
    for match in srt.SRT_REGEX.finditer(source.text):
        start = match.start(5)
        regions.append((start, start + len(match.group(5).rstrip())))
    if len(regions) != count or not count:
        raise ValueError(f"{name}: not a SubRip (.srt) file: no cue found")
    return _document(source, regions, entities=False)


def read_vtt(data: bytes, name: str) -> SubtitleDocument:
    """The cues of WebVTT file ``data``."""
    source = decoded(data, name)
    try:
        captions = webvtt.from_string(source.text).captions
    except (MalformedFileError, MalformedCaptionError, ValueError) as error:
        raise ValueError(f"{name}: not a WebVTT (.vtt) file: {_first_line(error)}") from None
    lines = source.text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    regions, i = [], 0
    for caption in captions:
        n = len(caption.lines)
        while i < len(lines) and not (
            WebVTTCueBlock.CUE_TIMINGS_PATTERN.match(lines[i])
            and lines[i + 1 : i + 1 + n] == caption.lines
        ):
            i += 1
        if i == len(lines):
            raise ValueError(f"{name}: a WebVTT cue at {caption.start} not found as written")
        regions.append((starts[i + 1], starts[i + 1] + len("\n".join(caption.lines))))
        i += 1 + n
    return _document(source, regions, entities=True)


def _document(source: Source, regions: list[tuple[int, int]], entities: bool) -> SubtitleDocument:
    texts = [source.text[start:end] for start, end in regions]
    kept = [(r, t) for r, t in zip(regions, texts, strict=True) if has_words(tagged(t, entities))]
    return SubtitleDocument(source, [r for r, _ in kept], [t for _, t in kept], entities)


def _cue(text: str) -> Cue:
    lines = text.split("\n")
    return Cue(len(lines), len(lines) > 1 and all(line.lstrip().startswith("-") for line in lines))


def _segment(text: str, cue: Cue, entities: bool) -> Segment:
    """A cue's text as one segment: its lines joined (a space between them, none between two
    Chinese characters), or a dialogue's lines as parts."""
    lines = text.split("\n")
    if cue.dialogue:
        pieces: list[Piece] = []
        for n, line in enumerate(lines):
            pieces += [Break("\n")] if n else []
            pieces += tagged(line, entities)
        return tuple(pieces)
    joined = lines[0]
    for line in lines[1:]:
        both_han = _HAN.match(line[:1]) and _HAN.match(joined[-1:])
        joined += line if both_han else " " + line
    return tagged(joined, entities)


def wrapped(text: str, lines: int, width: int) -> list[str]:
    """``text`` broken into ``lines`` lines of about equal length (more where one would be longer
    than ``width`` characters; fewer where the text is short), at a space or between Chinese
    characters, never inside a tag; tags count no width."""
    cuts = _cuts(text)
    shown = _visible(text)
    wanted = max(math.ceil(shown / width), min(lines, max(1, shown // max(width // 3, 1))))
    wanted = min(wanted, len(cuts) + 1)
    if wanted <= 1:
        return [text]
    best = _balanced(text, cuts, wanted)
    out, at = [], 0
    for cut, skip in best:
        out.append(text[at:cut].rstrip())
        at = cut + skip
    return [*out, text[at:].lstrip()]


def _cuts(text: str) -> list[tuple[int, int, int]]:
    """Where ``text`` may be broken, outside tags: (position, characters the break drops, what
    it costs: nothing at a space or after punctuation, a few characters between two words)."""
    inside = [False] * (len(text) + 1)
    for match in TAG.finditer(text):
        for i in range(match.start() + 1, match.end()):
            inside[i] = True
    found = []
    for i in range(1, len(text)):
        if inside[i] or text[i - 1] == " ":
            continue
        if text[i] == " ":
            found.append((i, 1, 0))
        elif (_HAN.match(text[i - 1]) and _HAN.match(text[i])) or (
            text[i - 1] in _PAUSES and text[i] not in _NO_BREAK_BEFORE
        ):
            found.append((i, 0, 0 if text[i - 1] in _PAUSES else _MID_PHRASE))
    return found


def _visible(text: str) -> int:
    return len(TAG.sub("", text))


def _balanced(text: str, cuts: list[tuple[int, int, int]], lines: int) -> list[tuple[int, int]]:
    """The ``lines - 1`` cuts that make the longest line (plus what the cuts cost) least."""
    best: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]] = {}

    def cost(k: int, start: int) -> tuple[int, list[tuple[int, int]]]:
        """For ``k`` lines from ``start``: the longest line plus the cuts' cost, and the cuts."""
        if (k, start) not in best:
            found: tuple[int, list[tuple[int, int]]] = (len(text) * 4, [])
            if k == 1:
                found = (_visible(text[start:].strip()), [])
            for cut, skip, price in cuts if k > 1 else []:
                if cut > start:
                    rest, more = cost(k - 1, cut + skip)
                    score = max(_visible(text[start:cut].strip()), rest) + price
                    if score < found[0]:
                        found = (score, [(cut, skip), *more])
            best[(k, start)] = found
        return best[(k, start)]

    return cost(lines, 0)[1]


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0][:200]
