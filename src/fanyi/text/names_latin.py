"""Names written in Latin letters inside Chinese text, held as written into English: Pugh女士
"Ms Pugh", CNN的记者 "CNN's reporters", 多斯（Doss） "Doss" (``hold_names``).

Chinese news keeps many foreign names in Latin letters. Written against a Chinese character,
with no space before it, such a name is read in other pieces than where English text gives it
(no word start), and the model writes it in pieces too: CNN的 came out "CN", "the Papworth
andAddenbrooke hospital". Such a run of one to MOST_WORDS Latin words, one of them capitalised
(a name or an acronym, not a word of code such as ``print``), is held as it stands; one with
spaces around it the model copies whole as it is, and is held only where it is a dictionary
name's English (``names_spelt.py`` writes 旧金山 " San Francisco "; the model wrote 南京条约
" Treaty of Nanjing " "Treaty for Nanjing").
"""

from __future__ import annotations

import re
from collections.abc import Container

from .lang import HAN
from .numerals import LATIN_LETTER
from .transform import ALTERNATIVES

MOST_WORDS = 4  # words: a longer run is a phrase or a sentence quoted, left to the model
_WORD = f"[{LATIN_LETTER}][{LATIN_LETTER}0-9'&\\-]*"
_RUN = re.compile(f"(?<![{LATIN_LETTER}0-9]){_WORD}(?: {_WORD})*(?![{LATIN_LETTER}0-9])")
_CAPITAL = re.compile("[A-Z]")
_HAN = re.compile(f"[{HAN}]")


def latin_names(sentence: str, known: Container[str] = ()) -> list[tuple[int, str, str]]:
    """(start, name, what holds it) of each run of Latin words in a Chinese ``sentence`` that names
    something: MOST_WORDS words at most, one of them capitalised, two letters or more, written
    against the text before or after it (no space); or one of the names ``known``."""
    if not _HAN.search(sentence):
        return []  # a line in English: not a name inside Chinese
    found = []
    for match in _RUN.finditer(sentence):
        run = match.group()
        words = run.split()
        start, end = match.start(), match.end()
        glued = _glued(sentence[start - 1 : start]) or _glued(sentence[end : end + 1])
        named = glued and len(words) <= MOST_WORDS and len(run) > 1 and _CAPITAL.search(run)
        if named or run in known:
            found.append((start, run, _or_lower(run)))
    return found


def _or_lower(run: str) -> str:
    """``run``, or in lower case also where its words are only capitalised ("Vista" or "vista":
    the model may write a word of a place's name so, "dry creek vista"); acronyms as written."""
    if run.lower() == run or any(w[1:] != w[1:].lower() for w in run.split()):
        return run
    return f"{run}{ALTERNATIVES}{run.lower()}"


def _glued(char: str) -> bool:
    """Whether ``char``, next to a run of Latin words, is text (no space, no line's end)."""
    return bool(char) and not char.isspace()
