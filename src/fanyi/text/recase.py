"""Headlines in Title Case, and lines in capitals, read in sentence case.

A model trained on sentences has seldom seen a headline such as "The Next Big Labor Strike Hits
Oregon", and copies it instead of translating it: ``zh-en-general`` wrote that line back in
English. In sentence case it translates it. As a truecaser does (Moses' ``truecase.perl``),
each capitalised word of such a line is written as it is most often written inside a sentence
of the training data: a word listed in the model's ``truecase.txt`` (``fanyi truecase``: the
words mostly written in lower case there) in lower case, any other (a name: Oregon) as it
stands; acronyms (NHS) and mixed case (McDonald) are never changed. A line all in capitals
("PLEASE DO NOT TOUCH.", copied as "PLEASE DO NOT TOUCH。") is read the same way, its words in
capitals taken for capitalised ones: "Please do not touch." (a name stays in capitals: TRUMP).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Iterator, Sequence
from pathlib import Path

from ..atomic import write_text_atomic
from ..filenames import TRUECASE_FILE
from .lang import LATIN_SCRIPT, script_of, split_tag
from .transform import Context, Option, Transform

WORD = re.compile(r"[A-Za-z\u00c0-\u024f]+")  # a run of Latin letters
# the words a Title Case line leaves in lower case, not counted either way
SMALL = frozenset(
    "a an and as at but by for from in into is nor of on or per the to via vs with".split()  # noqa: SIM905
)
TITLE_SHARE = 0.8  # of the other words (two letters or more), at least this many capitalised
TITLE_WORDS = 3  # and at least this many of them
LABEL = re.compile(r"\W*([A-Z][a-z]+)\W*")  # a sentence of one capitalised word
# words that are a whole utterance alone, as people write them: a label of one is left as it is
UTTERANCES = frozenset(
    "hello hi hey thanks yes ok okay sorry please goodbye bye welcome".split()  # noqa: SIM905
)


def is_title_case(sentence: str) -> bool:
    """Whether ``sentence`` is written in Title Case: at least 3 words beyond the small ones,
    80% of them capitalised, not all in capitals."""
    words = [w for w in WORD.findall(sentence) if len(w) > 1 and w.lower() not in SMALL]
    capitalised = [w for w in words if w[0].isupper()]
    if len(words) < TITLE_WORDS or all(w.isupper() for w in words):
        return False
    return len(capitalised) >= TITLE_SHARE * len(words)


def is_all_caps(sentence: str) -> bool:
    """Whether ``sentence`` is written in capitals: at least 2 words of two letters or more, all
    of them in capitals."""
    words = [w for w in WORD.findall(sentence) if len(w) > 1]
    return len(words) >= 2 and all(w.isupper() for w in words)


def capitalised(word: str) -> bool:
    """Whether ``word`` is capitalised as "Oregon" is; "NHS", "McDonald", "a" and "I" are not."""
    return word[0].isupper() and word[1:].islower()


def sentence_case(sentence: str, lowercase: Container[str], capitals: bool = False) -> str:
    """``sentence`` with each capitalised word (``capitals``: each word in capitals too) whose
    lower case is in ``lowercase`` (or is one of the SMALL words) in lower case, and its first
    letter a capital."""

    def recase(match: re.Match[str]) -> str:
        word, lower = match.group(), match.group().lower()
        shape = capitalised(word) or (capitals and len(word) > 1 and word.isupper())
        return lower if shape and (lower in lowercase or lower in SMALL) else word

    text = WORD.sub(recase, sentence)
    first = WORD.search(text)
    if first is None:
        return text
    return text[: first.start()] + text[first.start()].upper() + text[first.start() + 1 :]


def read_label(sentence: str, lowercase: Container[str]) -> str:
    """``sentence`` with its word in lower case if it is one capitalised word of ``lowercase``
    (not one of the ``UTTERANCES``); any other sentence as it is."""
    match = LABEL.fullmatch(sentence)
    if match is None:
        return sentence
    word = match.group(1).lower()
    if word not in lowercase or word in UTTERANCES:
        return sentence
    return sentence[: match.start(1)] + word + sentence[match.end(1) :]


def recasable(sentence: str) -> bool:
    """Whether ``sentence`` is in Title Case or in capitals."""
    return is_title_case(sentence) or is_all_caps(sentence)


def read_headlines(sentences: list[str], lowercase: Container[str]) -> list[str]:
    """Each sentence, those in Title Case or in capitals in sentence case, a label of one word
    as ``read_label`` reads it (the others as they are)."""
    read = []
    for sentence in sentences:
        capitals = is_all_caps(sentence)
        recase = capitals or is_title_case(sentence)
        read.append(
            sentence_case(sentence, lowercase, capitals)
            if recase
            else read_label(sentence, lowercase)
        )
    return read


def lowercase_words(lines: Iterable[str], min_count: int = 2) -> list[str]:
    """The words written in lower case more often than capitalised inside the sentences of
    ``lines`` (not first in a line; lines in Title Case left out), at least ``min_count``
    times: a truecaser's table, sorted."""
    lower, capital = Counter[str](), Counter[str]()
    for line in lines:
        if is_title_case(line):
            continue
        for word in WORD.findall(line)[1:]:
            if word.islower():
                lower[word] += 1
            elif capitalised(word):
                capital[word.lower()] += 1
    return sorted(w for w, n in lower.items() if n >= min_count and n > capital[w])


def write_table(path: Path, files: Iterable[Path], min_count: int = 2) -> int:
    """Write ``path`` (a truecase.txt) from the lines of ``files`` (a leading ``<2xx>`` tag
    skipped; lines without Latin letters count for nothing); the number of words in it."""
    words = lowercase_words(_lines(files), min_count)
    write_text_atomic(path, "".join(f"{w}\n" for w in words))
    return len(words)


def _lines(files: Iterable[Path]) -> Iterator[str]:
    for path in files:
        with Path(path).open(encoding="utf-8", errors="replace") as f:  # a bad byte: one word
            yield from (split_tag(line)[1] for line in f)


def table_beside(vocab_files: Sequence[Path]) -> list[Path]:
    """The truecase.txt beside a model's (or data directory's) first vocabulary file, if any:
    what travels with the vocabulary into every model directory written from it."""
    table = Path(vocab_files[0]).parent / TRUECASE_FILE if vocab_files else None
    return [table] if table is not None and table.is_file() else []


def read_lowercase(*paths: Path) -> frozenset[str]:
    """The words of the first of ``paths`` that is a ``truecase.txt`` (none where none is)."""
    found = next((path for path in paths if path.is_file()), None)
    return frozenset(found.read_text(encoding="utf-8").split()) if found else frozenset()


class Headlines(Transform):
    """``recase_headlines``: a Latin-script sentence in Title Case or in capitals read in
    sentence case, and a label of one capitalised word in lower case, by the model's
    truecase.txt."""

    name = "headlines"
    options = (
        Option(
            "recase_headlines",
            True,
            "a sentence in Title Case read in sentence case, a lone capitalised word in lower "
            "case (truecase.txt)",
        ),
    )

    def read_sentences(self, sentences: list[str], context: Context) -> list[str]:
        if not context.options.recase_headlines or script_of(context.source) != LATIN_SCRIPT:
            return sentences
        return read_headlines(sentences, context.lowercase)
