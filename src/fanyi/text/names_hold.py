"""``hold_names``, the transform: between Chinese and English, names and set phrases held to as
the target writes them (``names.py`` finds them; ``names_spelt.py`` has the model read a Chinese
name as English writes it)."""

from __future__ import annotations

from .lang import CHINESE
from .names import names_to_hold
from .names_spelt import in_latin
from .transform import Context, Held, Option, Transform


class Names(Transform):
    """``hold_names``: between Chinese and English, a name held to as the target writes it."""

    name = "names"
    options = (
        Option(
            "hold_names",
            True,
            "names and set phrases held as the target writes them (台北 ⇄ Taipei, 王小明 ⇄ "
            "Wang Xiaoming)",
        ),
    )

    def read_sentences(self, sentences: list[str], context: Context) -> list[str]:
        if not context.options.hold_names or (context.source, context.to) != (CHINESE, "en"):
            return sentences
        terms = [term for term, _ in context.options.glossary.oriented(CHINESE, "en")]
        return [in_latin(sentence, terms) for sentence in sentences]

    def held(self, sentence: str, memo: None, context: Context) -> Held:
        if not context.options.hold_names or {context.source, context.to} != {CHINESE, "en"}:
            return []
        return names_to_hold(sentence, context.source, context.lowercase)
