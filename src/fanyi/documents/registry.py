"""The document formats by name: :data:`FORMATS`, and the one a file's extension or ``--format``
names (:func:`format_for`). A new format is one module with a reader and one entry here; its
parser is imported only when a file of it is read."""

from __future__ import annotations

from pathlib import Path

from .document import Format

FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("text", (".txt", ".text"), "plain", "each line with words translated"),
        Format(
            "markdown",
            (".md", ".markdown", ".mdown", ".mkd"),
            "markdown",
            "CommonMark and GFM tables: prose translated, code, URLs, HTML and front matter kept",
        ),
        Format("srt", (".srt",), "subtitles:read_srt", "SubRip subtitles: cue text translated"),
        Format("vtt", (".vtt",), "subtitles:read_vtt", "WebVTT subtitles: cue text translated"),
        Format(
            "html",
            (".html", ".htm", ".xhtml"),
            "html",
            "text and alt/title/placeholder translated; script, style, code, pre kept",
        ),
        Format(
            "json",
            (".json",),
            "i18n_json",
            "i18n JSON: string values translated; keys, {placeholders}, ICU plurals kept",
        ),
        Format(
            "xliff",
            (".xlf", ".xliff"),
            "xliff",
            "XLIFF 1.2 and 2.0: empty targets filled for review; inline codes kept",
        ),
        Format(
            "docx",
            (".docx",),
            "word",
            "Word: paragraphs, tables, headers and footers; run formatting and links kept",
        ),
        Format(
            "po",
            (".po", ".pot"),
            "po",
            "gettext catalogue: untranslated entries filled, flagged fuzzy; placeholders kept",
        ),
    )
}


def format_for(path: str | Path, name: str | None = None) -> Format:
    """The format called ``name``, else the one that reads ``path``'s extension; a ValueError
    that lists them where there is none."""
    if name is not None:
        if name not in FORMATS:
            raise ValueError(f"no document format {name!r}: choose one of {', '.join(FORMATS)}")
        return FORMATS[name]
    suffix = Path(path).suffix.lower()
    for found in FORMATS.values():
        if suffix in found.extensions:
            return found
    known = ", ".join(e for f in FORMATS.values() for e in f.extensions)
    raise ValueError(
        f"{path}: no document format reads {suffix or 'a file without an extension'} "
        f"({known}); name one with --format"
    )
