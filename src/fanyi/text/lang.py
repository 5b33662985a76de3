"""Scripts: every answer to "which script, which tag, which tokenizer" lives here (which languages
a model translates between, their codes and a text's direction: ``languages.py``).

A model translates between the two languages of its data, one way or both; a model that goes both
ways reads the tag of the target language first (``<2en> 你好。``). Chinese is written in Han
characters without spaces between words; the other languages fanyi has met (English, German) in
Latin script with spaces. That difference decides how text is normalised (Chinese keeps its
full-width punctuation and is converted Traditional → Simplified), which language a text is in,
how a sentence is measured, where sentences end, how translated sentences are joined, and
sacreBLEU's tokenizer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import opencc

from .transform import Context, Transform

CHINESE = "zh"
HAN_SCRIPT, LATIN_SCRIPT = "Han", "Latin"
SCRIPTS = {CHINESE: HAN_SCRIPT}  # every other language: LATIN_SCRIPT
BLEU_TOKENIZERS = {HAN_SCRIPT: "zh", LATIN_SCRIPT: "13a"}  # sacreBLEU's, by the target's script
# CJK Unified Ideographs, Extension A, Compatibility Ideographs, Extensions B-H: the one Han range.
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_HAN_CHAR = re.compile(f"[{HAN}]")
# What text in a Latin-script language never holds: Han, CJK symbols and punctuation (、。「」),
# full-width forms (，？！ and full-width letters, which NFKC folds)
_FOREIGN_TO_LATIN = re.compile(f"[{HAN}\u3000-\u303f\uff00-\uffef]")
_LATIN_LETTER = re.compile("[A-Za-z]")  # what an English word copied into Chinese holds
_UNITS = re.compile(f"[{HAN}]|[^\\s{HAN}]+")
_TAG = re.compile(r"<2[a-z]+>")


def script_of(lang: str) -> str:
    """The script ``lang`` is written in: Han for Chinese, Latin otherwise."""
    return SCRIPTS.get(lang, LATIN_SCRIPT)


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Han character."""
    return _HAN_CHAR.search(text) is not None


def foreign_to(lang: str, piece: str) -> bool:
    """Whether ``piece`` holds a character that text in ``lang`` never does: a Han character or
    CJK punctuation in a Latin-script language. Nothing is foreign to Chinese, whose text keeps
    Latin names and numbers."""
    return script_of(lang) == LATIN_SCRIPT and _FOREIGN_TO_LATIN.search(piece) is not None


def in_other_script(lang: str, piece: str) -> bool:
    """Whether ``piece`` is written in the other language's script: Han or CJK punctuation in a
    Latin-script language (``foreign_to``), a Latin letter in Chinese (an English word kept
    untranslated; Chinese text may hold one, so such a piece is penalised, not suppressed)."""
    if script_of(lang) == LATIN_SCRIPT:
        return foreign_to(lang, piece)
    return _LATIN_LETTER.search(piece) is not None


def majority_script(lines: Sequence[str]) -> str:
    """The script most non-empty ``lines`` are written in (Latin for none)."""
    lines = [line for line in lines if line.strip()]
    return HAN_SCRIPT if sum(map(has_han, lines)) * 2 > len(lines) else LATIN_SCRIPT


def length_units(text: str) -> int:
    """The length of a sentence: one unit per Han character, one per other whitespace-free run."""
    return len(_UNITS.findall(text))


def bleu_tokenizer(lang: str) -> str:
    """sacreBLEU's tokenizer for ``lang`` targets: ``zh`` (a token per Han character) or ``13a``."""
    return BLEU_TOKENIZERS[script_of(lang)]


def joiner(lang: str) -> str:
    """What separates two sentences of ``lang``: nothing in Han script, a space otherwise."""
    return "" if script_of(lang) == HAN_SCRIPT else " "


# --- tags: the target language of a multi-direction model (Johnson et al., 2017) ---


def lang_tag(lang: str) -> str:
    """The tag prepended to the sources of a model that translates into several languages."""
    return f"<2{lang}>"


def add_tag(text: str, lang: str) -> str:
    """``text`` marked for translation into ``lang``: ``"<2en> 你好。"``."""
    return f"{lang_tag(lang)} {text}"


def split_tag(text: str) -> tuple[str | None, str]:
    """(leading tag or None, rest of the text)."""
    head, _, rest = text.partition(" ")
    return (head, rest) if _TAG.fullmatch(head) else (None, text)


def is_tag(piece: str) -> bool:
    """Whether ``piece`` is a whole tag such as ``<2en>``."""
    return _TAG.fullmatch(piece) is not None


# --- normalisation: one spelling of every character, for the corpus and for the translator ---

# Full-width ASCII punctuation (U+FF01-FF0F, FF1A-FF20, FF3B-FF40, FF5B-FF60) and the ellipsis.
_CJK_PUNCTUATION = "\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60\u2026"
_FOLDABLE_RUN = re.compile(f"[^{_CJK_PUNCTUATION}]+")
# Unicode whitespace, plus zero-width characters and the BOM that NFKC leaves in place; a
# zero-width joiner between two emoji (👩‍👩‍👧: one family) is part of them, not a space.
_EMOJI = "\U00010000-\U0010ffff\u2600-\u27bf"
_LONE_JOINER = f"(?<![{_EMOJI}\ufe0f])\u200d|\u200d(?![{_EMOJI}])"
_SPACES = re.compile(f"(?:[\\s\u200b\u200c\u2060\ufeff]|{_LONE_JOINER})+")


def nfkc(text: str, keep_cjk_punctuation: bool = False) -> str:
    """NFKC, optionally leaving full-width punctuation untouched."""
    if text.isascii():
        return text
    if not keep_cjk_punctuation:
        return unicodedata.normalize("NFKC", text)
    return _FOLDABLE_RUN.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)


def squeeze_whitespace(text: str) -> str:
    """Runs of any whitespace (and zero-width characters) → one space; no leading/trailing."""
    return _SPACES.sub(" ", text).strip()


@lru_cache(maxsize=4)
def _converter(config: str) -> opencc.OpenCC:
    """An OpenCC converter; ``t2s`` ships with the ``opencc`` package and needs no network."""
    return opencc.OpenCC(config)


def to_simplified(text: str, config: str = "t2s") -> str:
    """Traditional → Simplified Chinese with OpenCC (character and phrase tables)."""
    return _converter(config).convert(text)


# Chinese in Traditional characters, by name: OpenCC's configuration from Simplified
TRADITIONAL = {
    "hant": "s2t",  # OpenCC's standard Traditional characters
    "tw": "s2twp",  # Taiwan's characters and words (软件 → 軟體, 鼠标 → 滑鼠)
    "hk": "s2hk",  # Hong Kong's characters
}


def to_traditional(text: str, script: str, kept: Sequence[str] = ()) -> str:
    """Simplified → Traditional Chinese ``script`` (a key of TRADITIONAL) with OpenCC, leaving
    the spans ``kept`` (what a translation writes as its source did: inline code) as they are."""
    return _outside(kept, _converter(TRADITIONAL[script]).convert, text)


# Chinese punctuation: the CJK symbols (、。《》「」【】 …) and the full-width forms' (，：；！？（）)
CHINESE_MARKS = f"\u3001-\u303f{_CJK_PUNCTUATION.removesuffix(chr(0x2026))}"
_SPACE_AT_MARK = re.compile(f" +(?=[{CHINESE_MARKS}])|(?<=[{CHINESE_MARKS}]) +")


def tidy_spacing(text: str, kept: Sequence[str] = ()) -> str:
    """Chinese text without a space next to its punctuation (its pieces put one where a Latin
    word meets a full-width mark: "， Dr Ellen McCourt ，" → "，Dr Ellen McCourt，"), the spans
    ``kept`` (inline code) as they are."""
    return _outside(kept, lambda part: _SPACE_AT_MARK.sub("", part), text)


def _outside(kept: Sequence[str], change: Callable[[str], str], text: str) -> str:
    """``text`` with ``change`` applied to all but the spans ``kept``."""
    if not kept:
        return change(text)
    parts = re.split(f"({'|'.join(map(re.escape, kept))})", text)
    return "".join(part if n % 2 else change(part) for n, part in enumerate(parts))


@dataclass(frozen=True)
class Normalizer:
    """The cleaning of one language's text; ``apply`` also says which steps changed it.

    NFKC folds full-width digits and Latin letters (``１２ＡＢ`` → ``12AB``) everywhere. Han-script
    text deliberately *keeps* full-width punctuation (``，？！：（）`` …) and ``…``: they are its
    correct punctuation, and plain NFKC would turn ``，`` into ``,``. Chinese is also converted
    Traditional → Simplified (``t2s``).
    """

    lang: str
    nfkc: bool = True
    t2s: bool = True

    def __call__(self, text: str) -> str:
        return self.apply(text)[0]

    def apply(self, text: str) -> tuple[str, list[str]]:
        """(normalised text, names of the steps that changed it: nfkc, whitespace, t2s)."""
        changed = []
        steps = [
            ("nfkc", self._nfkc, self.nfkc),
            ("whitespace", squeeze_whitespace, True),
            ("t2s", to_simplified, self.t2s and self.lang == CHINESE),
        ]
        for name, step, enabled in steps:
            if enabled:
                new = step(text)
                if new != text:
                    changed.append(name)
                    text = new
        return text, changed

    def _nfkc(self, text: str) -> str:
        return nfkc(text, keep_cjk_punctuation=script_of(self.lang) == HAN_SCRIPT)


# --- sentences ---

# Tatoeba's longest sentence is 44 units (99.9% are under 30), Multi30k's 39: a sentence over
# this is far longer than anything a model was trained on, and is cut at its semicolons.
LONG_SENTENCE = 50
_FULL_WIDTH_ENDS = "。！？"  # end a sentence wherever they stand
_HALF_WIDTH_ENDS = ".!?"  # end one before a space, a Han character or the end of the text
_CLOSERS = "\"'”’」』）)】》〉]"  # closing quotes and brackets stay with their sentence
_END = re.compile(f"[{_FULL_WIDTH_ENDS}{re.escape(_HALF_WIDTH_ENDS)}]+[{re.escape(_CLOSERS)}]*")
_CLAUSE_END = re.compile(r"(?<=[;；])\s*")
# What may stand before the period of a list item's marker ("1. Open the file.", "iv. Check",
# "2.实地巡查"): a sentence so far only this has not ended
_ENUMERATOR = re.compile(r"\s*(\d{1,3}|[ivx]{1,4})", re.IGNORECASE)
# Words that end in a period without ending the sentence (lower case, without the final dot).
ABBREVIATIONS = {
    "en": frozenset(
        "mr mrs ms dr prof st jr sr vs etc e.g i.e cf approx fig inc ltd "  # noqa: SIM905
        "jan feb mar apr jun jul aug sep sept oct nov dec".split()
    ),
    "de": frozenset(
        "dr prof hr fr frl nr str ca bzw usw z.b vgl u.a etc ggf evtl "  # noqa: SIM905
        "jan feb apr jun jul aug sep sept okt nov dez".split()
    ),
}
_ANY_ABBREVIATION = frozenset().union(*ABBREVIATIONS.values())


def _ends_sentence(text: str, match: re.Match[str], abbreviations: frozenset[str]) -> bool:
    """Whether the run of end marks ``match`` closes a sentence of ``text``."""
    if any(c in _FULL_WIDTH_ENDS for c in match.group()):
        return True
    after = text[match.end() : match.end() + 1]
    if after and not (after.isspace() or has_han(after)):
        return False  # 3.5, e.g.x, example.com
    following = text[match.end() :].lstrip()[:1]
    if following.islower():
        return False  # "e.g. the", "Wait... what?" go on
    if match.group() != ".":
        return True
    word = text[: match.start()].rsplit(None, 1)[-1] if text[: match.start()].strip() else ""
    return not (word.lower() in abbreviations or (len(word) == 1 and word.isalpha()))


def _clauses(sentence: str, lang: str, limit: int) -> list[str]:
    """``sentence`` cut after its semicolons into pieces of at most ``limit`` units where it can."""
    groups: list[str] = []
    for clause in filter(None, _CLAUSE_END.split(sentence)):
        merged = f"{groups[-1]}{joiner(lang)}{clause}" if groups else ""
        if groups and length_units(merged) <= limit:
            groups[-1] = merged
        else:
            groups.append(clause)
    return groups


def split_sentences(text: str, lang: str, long: int = LONG_SENTENCE) -> list[str]:
    """The sentences of ``text`` (in language ``lang``), in order, stripped; [] for a blank text.

    A sentence ends at 。！？ and, before a space, a Han character or the end, at . ! ? (not in
    3.5, after an abbreviation of ``lang``, an initial such as "Mr." or "J." or a list item's
    number, "1." or "iv.", nor before a lower-case word); closing quotes and brackets stay
    with it. A sentence over ``long`` units is also cut after its semicolons (；;), into pieces
    of at most ``long`` units where it can.
    """
    abbreviations = ABBREVIATIONS.get(lang, _ANY_ABBREVIATION)
    sentences, start = [], 0
    for match in _END.finditer(text):
        enumerator = match.group() == "." and _ENUMERATOR.fullmatch(text, start, match.start())
        if not enumerator and _ends_sentence(text, match, abbreviations):
            sentences.append(text[start : match.end()])
            start = match.end()
    sentences.append(text[start:])
    pieces = [s.strip() for s in sentences if s.strip()]
    return [c for s in pieces for c in (_clauses(s, lang, long) if length_units(s) > long else [s])]


def join_sentences(sentences: Sequence[str], lang: str) -> str:
    """Translated sentences of one text as one line of ``lang``."""
    return joiner(lang).join(sentences)


class Spacing(Transform):
    """Into Chinese, no space is written next to full-width punctuation (inline code kept)."""

    name = "spacing"

    def write_back(self, translation: str, memo: None, context: Context) -> str:
        return tidy_spacing(translation, context.kept) if context.to == CHINESE else translation
