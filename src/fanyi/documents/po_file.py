"""A gettext catalogue (``.po``, ``.pot``) as a file: read in its declared charset, every quoted
string checked to be closed, and written back with only the entries filled changed.

A catalogue belongs to a project and its history: rewriting the whole file (another line width,
other quoting) would bury the translations in a diff of every entry. So the file's own text is
kept, and each entry filled has its ``msgstr`` lines replaced and ``fuzzy`` added to its flags;
every other byte stays as it was. A new ``msgstr`` is wrapped at the file's own line width
(that of its lines broken at a space, else gettext's 79 or its longest line), at a space or
between two CJK characters, as gettext's tools break lines.
"""

from __future__ import annotations

import codecs
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import polib

from ..inputs import CATALOGUE_BYTES, decoded, read_bytes

GETTEXT_WIDTH = 79  # msgcat's default page width
_CHARSET = re.compile(rb'"Content-Type:[^"]*?charset=([A-Za-z0-9_.:-]+)', re.IGNORECASE)
_PREFIX = re.compile(r"(?:#~\|?|#\|)?[ \t]*")  # an obsolete or a previous entry's line
_KEYWORD = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(?=[ \t\"])[ \t]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_MSGSTR = re.compile(r"msgstr(?:\[\d+\])?[ \t]")
_NO_BREAK_BEFORE = set("，。、；：？！）」』》〉】〕…—,.;:?!)]}")


@dataclass
class CatalogueFile:
    """A catalogue as read: its path (or name), text, charset, line width and parsed entries."""

    path: Path
    text: str
    encoding: str
    width: int
    catalogue: polib.POFile


def read_catalogue(path: str | Path) -> CatalogueFile:
    """The catalogue in regular file ``path`` (at most ``inputs.CATALOGUE_BYTES``):
    :func:`parsed`."""
    return parsed(read_bytes(Path(path), CATALOGUE_BYTES), path)


def parsed(raw: bytes, path: str | Path) -> CatalogueFile:
    """The catalogue in ``raw`` (the bytes of file ``path``), decoded in the charset its header
    declares (UTF-8 where it declares none); a one-line ValueError naming the file for a charset
    Python lacks, bytes that are not in it, an unclosed string or any other syntax error."""
    path = Path(path)
    encoding = charset(raw, path)
    text = decoded(raw, path, encoding)
    check_strings(text.removeprefix("\ufeff"), path)  # a byte-order mark is no keyword
    with tempfile.TemporaryDirectory(prefix="fanyi-po-") as folder:
        # polib reads a text that names a file as that file: it is given a file, never a text
        copy = Path(folder) / (path.name or "catalogue.po")
        copy.write_bytes(raw)
        try:
            catalogue = polib.pofile(str(copy), encoding=encoding, wrapwidth=0)
        except (OSError, ValueError) as error:  # polib reports a syntax error as an OSError
            problem = str(error).replace(str(copy), str(path))
            raise ValueError(f"{path}: not a gettext catalogue: {problem}") from None
    catalogue.fpath = str(path)  # the file it was read from, not the copy
    return CatalogueFile(path, text, encoding, line_width(text.splitlines()), catalogue)


def charset(raw: bytes, path: Path) -> str:
    """The charset the header of catalogue ``raw`` declares (UTF-8 where none, or the
    template's placeholder ``CHARSET``), checked to be one Python decodes."""
    found = _CHARSET.search(raw[: 1 << 16])
    name = found.group(1).decode("ascii") if found else "UTF-8"
    if name.upper() == "CHARSET":
        return "UTF-8"
    try:
        codecs.lookup(name)
    except LookupError:
        raise ValueError(
            f"{path}: its header declares charset {name}, which fanyi cannot read"
        ) from None
    return name


def check_strings(text: str, path: Path) -> None:
    """Raise, naming the file and line, where a keyword's or a continuation line's string is
    not closed by a quote (polib would read it, dropping its last character)."""
    for number, line in enumerate(text.splitlines(), 1):
        rest = line[_PREFIX.match(line).end() :]  # type: ignore[union-attr]  # matches always
        keyword = _KEYWORD.match(rest)
        if keyword is None and not rest.startswith('"'):
            continue
        string = rest[keyword.end() :] if keyword else rest
        if not _STRING.fullmatch(string.rstrip()):
            raise ValueError(f"{path}, line {number}: a string not closed by a quote: {line[:60]}")


def line_width(lines: list[str]) -> int:
    """The width the catalogue's lines are wrapped at: its longest line broken at a space,
    where there is one, else gettext's default or its longest string line if longer."""
    broken = [len(line) for line in lines if line.startswith('"') and line.endswith(' "')]
    if broken:
        return max(broken)
    strings = [len(line) for line in lines if _KEYWORD.match(line) or line.startswith('"')]
    return max([GETTEXT_WIDTH, *strings])


def written_back(found: CatalogueFile, filled: Iterable[polib.POEntry]) -> str:
    """The catalogue's text with the translations of ``filled`` (entries of
    ``found.catalogue``) in it, each flagged fuzzy; every other line as it was."""
    bom = "\ufeff" if found.text.startswith("\ufeff") else ""  # before all, a flag added too
    lines = found.text.removeprefix(bom).splitlines(keepends=True)
    newline = "\r\n" if found.text.endswith("\r\n") or "\r\n" in found.text[:4096] else "\n"
    for entry in sorted(filled, key=lambda e: e.linenum, reverse=True):  # later lines first
        # polib numbers lines from 1, but gives a file's first entry 0
        _replace_entry(lines, max(entry.linenum - 1, 0), entry, found.width, newline)
    return bom + "".join(lines)


def _replace_entry(
    lines: list[str], start: int, entry: polib.POEntry, width: int, newline: str
) -> None:
    """Put ``entry``'s msgstr (or msgstr[n]) lines and a fuzzy flag in the lines of the entry
    that begins at line ``start``."""
    first = next(i for i in range(start, len(lines)) if _MSGSTR.match(_bare(lines[i])))
    end = first + 1
    while end < len(lines) and (
        _bare(lines[end]).startswith('"') or _MSGSTR.match(_bare(lines[end]))
    ):
        end += 1
    last_newline = lines[end - 1][len(lines[end - 1].rstrip("\r\n")) :]
    new = [line + newline for line in msgstr_lines(entry, width)]
    new[-1] = new[-1].rstrip("\r\n") + last_newline
    lines[first:end] = new
    _flag_fuzzy(lines, start, newline)


def _flag_fuzzy(lines: list[str], start: int, newline: str) -> None:
    """Add ``fuzzy`` to the flags line of the entry beginning at ``start`` (a new one before
    its previous-msgid, msgctxt or msgid line where it has none)."""
    i = start
    while not _bare(lines[i]).startswith(("#,", "#|", "msgctxt", "msgid")):
        i += 1
    if _bare(lines[i]).startswith("#,"):
        lines[i] = "#, fuzzy," + _bare(lines[i])[2:]
    else:
        lines.insert(i, "#, fuzzy" + newline)


def _bare(line: str) -> str:
    """``line`` without the blanks before it, which gettext's tools and polib read past."""
    return line.lstrip(" \t")


def msgstr_lines(entry: polib.POEntry, width: int) -> list[str]:
    """The msgstr lines of ``entry`` (its plural forms in order), wrapped at ``width``."""
    if entry.msgid_plural:
        forms = sorted(entry.msgstr_plural.items())
        return [line for n, text in forms for line in string_lines(f"msgstr[{n}]", text, width)]
    return string_lines("msgstr", entry.msgstr, width)


def string_lines(keyword: str, text: str, width: int) -> list[str]:
    """``keyword "text"`` as a catalogue writes it: on one line where it fits in ``width``,
    else ``keyword ""`` and the escaped text in quoted pieces of at most ``width``."""
    escaped = polib.escape(text)
    if len(keyword) + len(escaped) + 3 <= width:
        return [f'{keyword} "{escaped}"']
    return [f'{keyword} ""', *(f'"{piece}"' for piece in pieces(escaped, width - 2))]


def pieces(escaped: str, limit: int) -> list[str]:
    """``escaped`` cut into pieces of at most ``limit`` characters where it can be: after a
    space or an escaped newline, or between two characters where either is wide (CJK) and the
    second may begin a line; never inside an escape (``\\"``)."""
    atoms = re.findall(r"\\.|.", escaped, re.DOTALL)
    found, line, cut = [], "", 0  # cut: where ``line`` may end, the last break seen
    for before, atom in zip(["", *atoms], atoms, strict=False):
        if line and _breaks(before, atom):
            cut = len(line)
        if len(line) + len(atom) > limit and cut:
            found.append(line[:cut])
            line, cut = line[cut:], 0
        line += atom
    return [*found, line] if line or not found else found


def _breaks(before: str, atom: str) -> bool:
    """Whether a line may end between ``before`` and ``atom``."""
    if before in (" ", "\\n"):
        return True
    if atom in _NO_BREAK_BEFORE or atom == " ":
        return False
    return _wide(before) or _wide(atom)


def _wide(atom: str) -> bool:
    return len(atom) == 1 and unicodedata.east_asian_width(atom) in ("W", "F")
