"""Emoji and the characters beyond Unicode's first plane, copied through as written.

A vocabulary of a few thousand pieces holds no emoji and no Han character of Extension B or
later (𠀀, 𪚥): SentencePiece spells each in its UTF-8 bytes (``<0xF0> <0x9F> <0x98> <0x80>``),
and a model copies bytes badly. The bundled model wrote 😀 as 😘 and a stray byte, which
decodes to U+FFFD (😘�), 🇨🇳 as three U+FFFD and a lone regional indicator, and dropped some
outright. With ``keep_emoji`` each run of such characters (with its joiners and variation
selectors: 👩‍👩‍👧, ❤️) is read out of the text, so the model translates the words alone, and
written back into the translation in the same place: at its start or end, before or after the
same punctuation mark (the n-th sentence or clause mark of the text), else at the word boundary
nearest its share of the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lang import LATIN_SCRIPT, script_of
from .transform import Context, Option, Transform

# Every character beyond the Basic Multilingual Plane (emoji, flags, Han of Extension B and
# later), and the emoji blocks within it: Miscellaneous Technical (⌚), Miscellaneous Symbols
# and Dingbats (☀, ✨, ❤), Miscellaneous Symbols and Arrows (⭐)
_COPIED = "[\U00010000-\U0010ffff\u2300-\u23ff\u2600-\u27bf\u2b00-\u2bff]"
_JOINERS = "[\u200d\ufe0e\ufe0f\u20e3]"  # zero-width joiner, variation selectors, keycap
# Any character asked to look like an emoji (©️, the 1 of 1️⃣) is one too
_FIRST = f"(?:{_COPIED}|[^\\s]\ufe0f)"
# A run: copied characters, their joiners, and the spaces between them
RUN = re.compile(f"({_FIRST}(?:{_JOINERS}|{_COPIED}|[ \t]+(?={_FIRST}))*)")
FINAL, CLAUSE = ".!?。！？…", ",;:，；：、"  # the marks that end a sentence, and a clause
# A run of marks: full-width ones anywhere, half-width ones where no word goes on (not 3.14)
MARKS = re.compile(r"[。！？…，；：、]+|[.!?,;:]+(?=[\s\"'”’)\]]|$)")
OPENING = "([{“‘\"'"  # after these no space goes before a run


@dataclass(frozen=True)
class Place:
    """Where a run goes in a translation: at the ``start`` or ``end``, at the ``tail`` (before
    the trailing marks), ``before`` or ``after`` the ``mark``-th mark of its ``kind``
    (``FINAL`` or ``CLAUSE``), or ``between`` words: the boundary nearest ``share`` of its
    length (where the translation lacks that mark too)."""

    run: str
    where: str
    kind: str = ""
    mark: int = 0
    share: float = 0.0


def read_out(text: str) -> tuple[str, list[Place]]:
    """``text`` without its runs (the spaces they stood between closed up), and each run's
    place."""
    parts = RUN.split(text)
    rest, found = parts[0], []
    for run, after in zip(parts[1::2], parts[2::2], strict=True):
        spaced_before = rest[-1:].isspace() or not rest.strip()
        if spaced_before and (not after or after[0].isspace() or after[0] in FINAL + CLAUSE):
            rest = rest.rstrip()
        if not rest:
            after = after.lstrip()
        found.append((run, len(rest)))
        rest += after
    return rest, [place(run, at, rest) for run, at in found]


def place(run: str, at: int, text: str) -> Place:
    """Where ``run``, read out of ``text`` at ``at``, goes in a translation of it."""
    before, after = text[:at].rstrip(), text[at:].lstrip()
    if not before:
        return Place(run, "start")
    if not after:
        return Place(run, "end" if before[-1] in FINAL else "tail")
    marks, share = list(MARKS.finditer(text)), at / len(text)
    for kind in (FINAL, CLAUSE):
        ours = [m.span() for m in marks if m.group()[0] in kind]
        starts, ends = [s for s, _ in ours], [e for _, e in ours]
        if len(text) - len(after) in starts:  # a mark right after the run
            return Place(run, "before", kind, starts.index(len(text) - len(after)), share)
        if len(before) in ends:  # a mark right before it
            return Place(run, "after", kind, ends.index(len(before)), share)
    return Place(run, "between", share=share)


def written_back(translation: str, places: list[Place], to: str) -> str:
    """``translation`` with each run in its place; a run it already holds (a user's phrase
    held in it) is not written again."""
    spaced, held = script_of(to) == LATIN_SCRIPT, translation
    for n, spot in enumerate(places):
        if held.count(spot.run) > [p.run for p in places[:n]].count(spot.run):
            continue
        at = outside_runs(translation, where(translation, spot, spaced))
        translation = inserted(translation, at, spot.run, spaced)
    return translation


def outside_runs(translation: str, at: int) -> int:
    """``at``, or the end of the run written back before that it falls inside (1️⃣ is one run:
    nothing goes between its 1 and its keycap)."""
    for run in RUN.finditer(translation):
        if run.start() < at < run.end():
            return run.end()
    return at


def where(translation: str, spot: Place, spaced: bool) -> int:
    """The index of ``translation`` that ``spot`` names (a mark it lacks: by its share; no
    boundary between words: before its trailing marks)."""
    if spot.where == "start" or not translation.strip():
        return 0
    if spot.where in ("before", "after"):
        ours = [m for m in MARKS.finditer(translation) if m.group()[0] in spot.kind]
        if spot.mark < len(ours):
            found = ours[spot.mark]
            return found.start() if spot.where == "before" else found.end()
    if spot.where == "end":
        return len(translation)
    boundary = nearest_boundary(translation, spot.share, spaced)
    if spot.where != "tail" and boundary is not None:
        return boundary
    trailing = re.search(f"[{re.escape(FINAL)}]+[\\s\"'”’)\\]]*$", translation.rstrip())
    return trailing.start() if trailing else len(translation.rstrip())


def nearest_boundary(translation: str, share: float, spaced: bool) -> int | None:
    """The boundary between words nearest ``share`` of ``translation``'s length: a space in a
    language written with spaces, else any place not inside a Latin word or number (None: a
    translation of one word)."""
    target = share * len(translation)
    if spaced:
        spots = [m.start() for m in re.finditer(r"\s", translation.strip())]
    else:
        spots = [
            i
            for i in range(1, len(translation))
            if not (translation[i - 1].isascii() and translation[i - 1].isalnum())
            or not (translation[i].isascii() and translation[i].isalnum())
        ]
    lead = len(translation) - len(translation.lstrip())
    return min((lead + s for s in spots), key=lambda i: abs(i - target), default=None)


def inserted(translation: str, at: int, run: str, spaced: bool) -> str:
    """``run`` written into ``translation`` at ``at``; in a language written with spaces, a
    space on either side where a word is next to it."""
    left, right = translation[:at], translation[at:]
    if not spaced:
        return left + run + right
    left = left.rstrip()
    before = " " if left and left[-1] not in OPENING else ""
    after = " " if right and not right[0].isspace() and right[0] not in FINAL + CLAUSE else ""
    return left + before + run + after + right


class Emoji(Transform):
    """``keep_emoji``: emoji and the characters beyond Unicode's first plane read out of a text
    and written back into its translation in their place."""

    name = "emoji"
    options = (
        Option(
            "keep_emoji",
            True,
            "emoji and other characters beyond Unicode's first plane (𠀀) copied through as "
            "written, in their place",
        ),
    )
    with_prefix = False  # a run at the start would go before a user's target prefix

    def read(self, text: str, context: Context) -> tuple[str, list[Place]]:
        if not context.options.keep_emoji:
            return text, []
        return read_out(text)

    def write_back(self, translation: str, memo: list[Place], context: Context) -> str:
        return written_back(translation, memo, context.to) if memo else translation
