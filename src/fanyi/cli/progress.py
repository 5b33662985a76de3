"""``fanyi translate -i FILE``'s and ``fanyi po``'s progress: lines (texts) translated and
sentences per second, as a tqdm bar on stderr when stderr is a terminal, and nothing at all
otherwise (a pipe, a log file), so that what a program reads from stderr stays the warnings
alone."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

from ..data.vocab import EOS

if TYPE_CHECKING:
    from ..translate.translation import Translation


def count_lines(path: str) -> int:
    """The lines of file ``path`` as ``fanyi translate`` reads them (a last one without ``\\n``
    counted)."""
    count, last = 0, b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            count, last = count + block.count(b"\n"), block[-1:]
    return count + (last != b"\n")


class Progress:
    """A bar over the lines of file ``path`` (or over ``total`` texts of a ``unit``) on
    ``stream`` (default stderr) when the count is known and the stream is a terminal; warnings
    are printed through it (:meth:`say`), so that they do not break the bar."""

    def __init__(
        self,
        path: str | None,
        stream: TextIO | None = None,
        total: int | None = None,
        unit: str = "line",
    ) -> None:
        self.stream = stream or sys.stderr
        self.sentences = 0
        self.bar: Any = None
        if (path is not None or total is not None) and self.stream.isatty():
            from tqdm import tqdm

            total = count_lines(path) if path is not None else total
            self.bar = tqdm(total=total, unit=unit, file=self.stream, mininterval=0.5)

    def done(self, result: Translation) -> None:
        """One more line translated: its sentences (pieces, each ending in EOS) counted."""
        if self.bar is None:
            return
        self.sentences += result.source_tokens.count(EOS)
        rate = self.sentences / max(self.bar.format_dict["elapsed"], 1e-3)
        self.bar.set_postfix_str(f"{rate:.1f} sentences/s", refresh=False)
        self.bar.update(1)

    def say(self, line: str) -> None:
        if self.bar is None:
            print(line, file=self.stream)
        else:
            self.bar.write(line, file=self.stream)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
