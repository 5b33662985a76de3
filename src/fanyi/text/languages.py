"""Which languages a model translates between, named as people write them, and which way a
text goes.

A language is named by a BCP 47 tag or an ISO 639 code in any case (``zh-CN``, ``zh-Hans``,
``cmn``, ``zh_TW``, ``ZH``, ``en-US``, ``eng``), read by ``langcodes``: the model's language is
the code's macrolanguage (``cmn`` is ``zh``). A Chinese code that names a script or a region
also names the characters a translation is written in (:data:`CHINESE_SCRIPTS`' keys:
``zh-Hans``/``zh-CN``: Simplified, ``zh-Hant``: Traditional, ``zh-TW``: Taiwan's, ``zh-HK``:
Hong Kong's). A plain ``zh`` leaves the ``chinese_script`` text option as it is.

A text's own language is the script most of its words are written in (:func:`written_script`),
so that "I met 王小明 yesterday." is English and "我的朋友 Li Wei 来自 Boston。" Chinese. A text
already in the language asked for is returned as it is, without the model (Chinese in the
characters its code names: ``zh-TW`` writes it in Taiwan's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from .code_spans import SPAN
from .lang import (
    CHINESE,
    CHINESE_MARKS,
    HAN,
    HAN_SCRIPT,
    LATIN_SCRIPT,
    script_of,
    to_simplified,
    to_traditional,
)
from .links import LINK

if TYPE_CHECKING:
    import langcodes

# Chinese names a script by the script subtag a code has, or the one its region implies
# (zh-MO: Hant): Hans → hans, Hant → the region's characters where OpenCC has them, else hant.
CHINESE_SCRIPTS = {"Hans": "hans", "Hant": "hant"}
CHINESE_REGIONS = {"TW": "tw", "HK": "hk"}
# The codes an error suggests for a model's language
SPELLINGS = {CHINESE: "zh-CN, zh-Hans, zh-TW, zh-HK, zh-Hant, cmn", "en": "en-US, en-GB, eng"}

# What each script's words are counted by: Han characters and Chinese punctuation marks, and
# runs of Latin letters (full-width ones too)
_HAN_UNIT = re.compile(f"[{HAN}{CHINESE_MARKS}]")
_LATIN_WORD = re.compile("[A-Za-z\u00c0-\u024f\uff21-\uff3a\uff41-\uff5a]+")
# A Han unit weighs 2, a Latin word 3: a Chinese word is 1.5 characters on average, so three Han
# characters count as much as two English words
HAN_WEIGHT, LATIN_WEIGHT = 2, 3


def written_script(text: str) -> str:
    """The script most of the words of ``text`` are written in, Han or Latin: each run of Latin
    letters is a word and 1.5 Han characters or Chinese marks are one (a Chinese word's mean
    length); links and inline code are not counted. A tie goes to the script ``text`` starts
    with, a text without either to Latin."""
    prose = SPAN.sub(" ", LINK.sub(" ", text))
    han = [match.start() for match in _HAN_UNIT.finditer(prose)]
    latin = [match.start() for match in _LATIN_WORD.finditer(prose)]
    shares = len(han) * HAN_WEIGHT, len(latin) * LATIN_WEIGHT
    if shares[0] != shares[1]:
        return HAN_SCRIPT if shares[0] > shares[1] else LATIN_SCRIPT
    return HAN_SCRIPT if han and (not latin or han[0] < latin[0]) else LATIN_SCRIPT


@dataclass(frozen=True)
class Language:
    """A language code as the model reads it: the language (``zh``), and for Chinese the
    characters the code names (``tw``), or None where it names none."""

    code: str
    chinese_script: str | None = None


def language(code: str) -> Language:
    """The language ``code`` names, in any case and form (``zh-TW``, ``zh_Hant``, ``cmn``,
    ``EN-us``, ``eng``); a ValueError for one that names no language."""
    if not isinstance(code, str):
        raise ValueError(f"a language code must be a string, not {type(code).__name__}")
    tag = _tag(code.strip())
    if tag is None:
        raise ValueError(f"{code!r} is not a language code (en, zh, zh-TW, eng …)")
    script = _chinese_script(code, tag) if tag.language == CHINESE else None
    return Language(str(tag.language), script)


MEMO_LIMIT = 4096  # codes langcodes may remember: a service reads one from every request


@lru_cache(maxsize=256)
def _tag(code: str) -> langcodes.Language | None:
    """``code`` read by langcodes, its language the macrolanguage; None for no language code."""
    import langcodes  # 0.1 s: only once a code is read

    try:
        tag = langcodes.Language.get(code).prefer_macrolanguage()
    except ValueError:  # langcodes.LanguageTagError
        return None
    finally:  # langcodes keeps every code it reads for good; this cache is the bounded one
        for memo in (langcodes.Language._PARSE_CACHE, langcodes.Language._INSTANCES):
            if len(memo) > MEMO_LIMIT:
                memo.clear()
    return tag if tag.language and tag.is_valid() else None


def _chinese_script(code: str, tag: langcodes.Language) -> str | None:
    """The ``chinese_script`` a Chinese tag names: by its script subtag, else by the one its
    region implies; None for a plain ``zh``."""
    if tag.script is None and tag.territory is None:
        return None
    script = tag.script or tag.maximize().script
    if script not in CHINESE_SCRIPTS:
        raise ValueError(f"{code!r}: Chinese is written in Han characters here (zh-Hans, zh-Hant)")
    if script == "Hant" and tag.territory in CHINESE_REGIONS:
        return CHINESE_REGIONS[tag.territory]
    return CHINESE_SCRIPTS[script]


def in_chinese_script(text: str, script: str | None) -> str:
    """Chinese ``text`` in the characters ``script`` names (None: as it is)."""
    if script is None:
        return text
    return to_simplified(text) if script == "hans" else to_traditional(text, script)


@dataclass(frozen=True)
class Direction:
    """Which way a text goes: the language it is in (given, or detected; None where the
    model's languages share a script) and the language it goes into, with the Chinese
    characters the target's code names."""

    source: str | None
    to: str
    chinese_script: str | None = None

    @property
    def unchanged(self) -> bool:
        """Whether the text is already in the language asked for: it is returned as it is."""
        return self.source == self.to


@dataclass(frozen=True)
class Languages:
    """The languages of a model: its base direction, and whether it also translates back."""

    src: str
    tgt: str
    bidirectional: bool = False

    @property
    def targets(self) -> list[str]:
        """The languages this model translates into."""
        return [self.tgt, self.src] if self.bidirectional else [self.tgt]

    def source_of(self, to: str) -> str:
        """The language a source translated into ``to`` is in."""
        return self.src if to == self.tgt else self.tgt

    def target(self, code: str) -> Language:
        """The target language ``code`` names, or a ValueError naming those this model has."""
        try:
            found = language(code)
        except ValueError as error:
            raise ValueError(f"{error}; {self._can()}") from None
        if found.code not in self.targets:
            raise ValueError(f"{self._can()}, not {code!r}")
        return found

    def source(self, code: str) -> str:
        """The source language ``code`` names: one of the model's (its own target as well,
        whose text is returned as it is), or a ValueError."""
        found = language(code).code
        if found not in (self.src, self.tgt):
            reads = " and ".join([self.src, self.tgt] if self.bidirectional else [self.src])
            raise ValueError(f"this model translates from {reads}, not from {code!r}")
        return found

    def written_in(self, text: str) -> str | None:
        """The model's language ``text`` is written in, by its script (:func:`written_script`);
        None where both languages share a script."""
        script = written_script(text)
        written = [lang for lang in (self.src, self.tgt) if script_of(lang) == script]
        return written[0] if len(written) == 1 else None

    def direction(self, text: str, to: str | None = None, source: str | None = None) -> Direction:
        """The way ``text`` goes: into ``to`` (any code of a target language; default: the
        other language than the one it is in) from ``source`` (default: detected)."""
        target = self.target(to) if to is not None else None
        lang = self.source(source) if source is not None else self.written_in(text)
        if target is not None:
            return Direction(lang, target.code, target.chinese_script)
        if not self.bidirectional:
            return Direction(lang, self.tgt)
        if lang is None and text.strip():
            raise ValueError(
                f"{self.src} and {self.tgt} share a script, so the direction cannot be detected: "
                f"give the target language ({' or '.join(self.targets)})"
            )
        return Direction(lang, self.tgt if lang in (None, self.src) else self.src)

    def target_of(self, text: str, to: str | None = None) -> str:
        """The language ``text`` goes into: ``to`` (checked, any code of it), or detected."""
        return self.direction(text, to).to

    def _can(self) -> str:
        """What this model translates into, with the codes that name each."""
        spelt = [
            f"{lang} ({SPELLINGS[lang]})" if lang in SPELLINGS else lang for lang in self.targets
        ]
        return f"this model translates into {' and '.join(spelt)}"
