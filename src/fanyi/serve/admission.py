"""What the service decodes of a request: its options, the texts it takes, and each text it
answers with an error in that text's place, or the HTTP error that refuses the whole request.

A request is refused as a whole for what concerns it all (its options, how many texts it holds,
its target prefixes and constraints, the tokens of its texts together). A text that is not
Unicode, holds more characters or tokens than a request may, or whose language cannot be told
is answered in its place with an ``error``, as ``fanyi translate`` names a line it could not
translate; the other texts are translated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from fastapi import HTTPException

from ..decode import SearchOptions
from ..text.options import TextOptions
from ..translate.request import Request as TextRequest
from ..translate.translation import unicode_problem
from ..translate.translator import Translator
from . import schemas
from .limits import Limits

Chosen = tuple[SearchOptions, TextOptions]  # a request's options: its search, its text
# The longest language code read (RFC 5646 §4.4.1: 35 characters hold every tag that matters);
# a code is looked up by langcodes, which remembers each one it is given
MAX_CODE = 35


@dataclass
class Refused:
    """A text answered with an error in its place: the language it would go into (None where
    that cannot be told) and why it is not translated."""

    to: str | None
    error: str


@dataclass
class Admission:
    """A request as the service decodes it: its options, the texts it takes (each with its index
    in the request), the texts it answers with an error, and what decoding costs."""

    options: Chosen
    texts: list[TextRequest] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    refused: dict[int, Refused] = field(default_factory=dict)
    cost: int = 0


def admitted(request: schemas.RequestBase, limits: Limits, translator: Translator) -> Admission:
    """The request's options, the texts it decodes and those it refuses one by one, or the HTTP
    error that refuses it whole."""
    options = chosen_options(request, translator)
    check_request(request, options[0], limits, translator)
    admission = Admission(options, refused=text_problems(request, limits, translator))
    counts = token_counts(request, options[1], admission.refused, limits, translator)
    if (tokens := sum(counts.values())) > limits.max_tokens:
        raise HTTPException(413, f"the texts have {tokens} tokens; at most {limits.max_tokens}")
    held = held_texts(request)
    admission.places = sorted(counts)
    admission.texts = [held[i] for i in admission.places]
    admission.cost = tokens * max(options[0].beam, options[0].n_best)
    return admission


def chosen_options(request: schemas.RequestBase, translator: Translator) -> Chosen:
    """The translator's options with the request's on top (``DecodeConfig.override``, as the
    flags and the Python API apply them), bounded as the flags are (422 beyond)."""
    try:
        return translator.chosen(None, request.options())
    except ValueError as error:
        raise HTTPException(422, str(error)) from None


def check_request(
    request: schemas.RequestBase, options: SearchOptions, limits: Limits, translator: Translator
) -> None:
    """Raise the HTTP error for a request the service will not decode at all."""
    if len(request.text) > limits.max_texts:
        raise HTTPException(413, f"{len(request.text)} texts; at most {limits.max_texts}")
    for name in ("beam", "n_best"):  # samples are rows of every step too
        if getattr(options, name) > limits.max_beam:
            value = getattr(options, name)
            raise HTTPException(422, f"{name} {value} is over the limit {limits.max_beam}")
    check_languages(request, translator)
    check_prefixes(request, limits)
    check_glossary(request, limits)
    if options.sampling and any(request.constraints or []):  # before it shares a batch
        raise HTTPException(422, "constraints need beam search (or greedy decoding), not sampling")


def check_languages(request: schemas.RequestBase, translator: Translator) -> None:
    """422 for a ``to`` or ``from`` that names no language this model translates."""
    for name, code in (("to", request.to), ("from", request.source_lang)):
        if code is not None and len(code) > MAX_CODE:
            raise HTTPException(422, f"{name}: a language code of {len(code)} characters")
    try:
        if request.to is not None:
            translator.text.languages.target(request.to)
        if request.source_lang is not None:
            translator.text.languages.source(request.source_lang)
    except ValueError as error:
        raise HTTPException(422, str(error)) from None


def check_prefixes(request: schemas.RequestBase, limits: Limits) -> None:
    """422 for a prefix or constraints list that does not match the texts or a prefix or phrase
    that is not Unicode, 413 for one longer than a text may be."""
    if isinstance(request.target_prefix, list) and len(request.target_prefix) != len(request.text):
        raise HTTPException(422, f"target_prefix needs one entry per text ({len(request.text)})")
    phrases = request.constraints or []
    if request.constraints is not None and len(phrases) != len(request.text):
        raise HTTPException(422, f"constraints needs one entry per text ({len(request.text)})")
    held = [(f"target_prefix[{i}]", [p]) for i, p in enumerate(target_prefixes(request))]
    for name, texts in held + [(f"constraints[{i}]", p) for i, p in enumerate(phrases)]:
        for text in (t for t in texts or [] if t is not None):
            if problem := unicode_problem(text):
                raise HTTPException(422, f"{name}: {problem}")
            if len(text) > limits.max_chars:
                most = limits.max_chars
                raise HTTPException(413, f"{name} has {len(text)} characters; at most {most}")


def check_glossary(request: schemas.RequestBase, limits: Limits) -> None:
    """413 for a glossary term longer than a text may be: no text could hold it, and each term
    read is remembered (as a pattern) across requests."""
    for n, pair in enumerate(getattr(request, "glossary", None) or []):
        for term in pair:
            if isinstance(term, str) and len(term) > limits.max_chars:
                most = limits.max_chars
                raise HTTPException(
                    413, f"glossary[{n}] has {len(term)} characters; at most {most}"
                )


def text_problems(
    request: schemas.RequestBase, limits: Limits, translator: Translator
) -> dict[int, Refused]:
    """The texts refused one by one before they are read: not Unicode, or over ``max_chars``."""
    refused = {}
    for i, text in enumerate(request.text):
        problem = unicode_problem(text)
        if problem is None and len(text) > limits.max_chars:
            problem = f"{len(text)} characters; a text may have at most {limits.max_chars}"
        if problem is not None:
            refused[i] = Refused(direction(request, text, translator), problem)
    return refused


def token_counts(
    request: schemas.RequestBase,
    options: TextOptions,
    refused: dict[int, Refused],
    limits: Limits,
    translator: Translator,
) -> dict[int, int]:
    """The source tokens of each text not refused yet, by index; a text over ``max_tokens`` by
    itself, or whose language cannot be told, is added to ``refused``."""
    counts = {}
    for i, text in enumerate(request.text):
        if i in refused:
            continue
        try:
            (count,) = translator.token_counts([text], request.to, options, request.source_lang)
        except ValueError as error:
            refused[i] = Refused(None, str(error))
            continue
        if count > limits.max_tokens:
            problem = f"{count} tokens; a request may have at most {limits.max_tokens}"
            refused[i] = Refused(direction(request, text, translator), problem)
        else:
            counts[i] = count
    return counts


def direction(request: schemas.RequestBase, text: str, translator: Translator) -> str | None:
    """The language ``text`` would be translated into (None where it cannot be told)."""
    try:
        return translator.text.languages.direction(text, request.to, request.source_lang).to
    except ValueError:
        return None


def target_prefixes(request: schemas.RequestBase) -> list[str | None]:
    """The target prefix of each text: the one given for all, or the list's."""
    prefix = request.target_prefix
    return list(prefix) if isinstance(prefix, list) else [prefix] * len(request.text)


def held_texts(request: schemas.RequestBase) -> list[TextRequest]:
    """Each text with its target language, target prefix and the phrases it holds."""
    phrases = request.constraints or [None] * len(request.text)
    held = zip(request.text, target_prefixes(request), phrases, strict=True)
    return [
        TextRequest(text, request.to, prefix, tuple(p or ()), request.source_lang)
        for text, prefix, p in held
    ]
