"""Links in a text: web addresses and e-mail addresses, which a translation copies as written.

A model reads "support@example.com" as words and may translate one of them (以支持@example.com);
with ``keep_links`` each link of a sentence becomes a constraint on its translation
(``decode/constraints.py``). A web address starts with a scheme (``https://``, ``http://``,
``ftp://``) or ``www.`` and runs to the first space or character that cannot be in one (RFC 3986,
appendix C: angle brackets, quotes, CJK text); punctuation that ends a sentence or closes a
bracket is not part of it ("see https://python.org." or "(https://python.org)"). Bare domain
names ("python.org") are not links here: "os.path" reads the same.
"""

from __future__ import annotations

import re

from .transform import Context, Held, Option, Transform

_URL = r"(?:(?:https?|ftp)://|www\.)[^\s<>\"'`\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+"
_EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"
LINK = re.compile(rf"{_URL}|(?<![A-Za-z0-9._%+-]){_EMAIL}")
_TRAILING = ".,;:!?)]}"  # a sentence's or a bracket's end, not the link's


def links(text: str) -> list[str]:
    """The web and e-mail addresses of ``text``, in order, each once."""
    found: list[str] = []
    for match in LINK.finditer(text):
        link = trimmed(match.group())
        if link not in found and len(link) > len("www."):
            found.append(link)
    return found


def trimmed(link: str) -> str:
    """``link`` without the punctuation that ends its sentence or closes its bracket: a closing
    bracket stays where the link opened one ("https://en.wikipedia.org/wiki/Go_(game)")."""
    while link and link[-1] in _TRAILING:
        closing = link[-1]
        opening = {")": "(", "]": "[", "}": "{"}.get(closing)
        if opening and link.count(opening) >= link.count(closing):
            break
        link = link[:-1]
    return link


class Links(Transform):
    """``keep_links``: web and e-mail addresses copied as written; a translation that misses
    one is searched again, held to them."""

    name = "links"
    options = (
        Option("keep_links", True, "web and e-mail addresses copied as written (a held search)"),
    )

    def held(self, sentence: str, memo: None, context: Context) -> Held:
        if not context.options.keep_links:
            return []
        return [(link, link) for link in links(sentence)]
