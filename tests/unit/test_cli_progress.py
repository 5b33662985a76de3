"""``fanyi translate -i FILE``'s and ``fanyi po``'s progress bar: lines (texts) and
sentences/s on a terminal, nothing on a pipe or a file (the CLI end to end, under a real pty:
tests/integration/test_translate_cli.py)."""

import io

from fanyi.cli.progress import Progress, count_lines
from fanyi.translate.translation import Candidate, Translation


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def translation(sentences: int) -> Translation:
    tokens = ["<2en>", "▁a", "</s>"] * sentences
    return Translation("a", "en", tokens, [Candidate("A", 0.0, 0.0, ["▁A", "</s>"])])


def test_lines_are_counted_as_translate_reads_them(tmp_path):
    for data, lines in [(b"", 0), (b"a\n", 1), (b"a\nb", 2), (b"a\r\n\nb\n", 3)]:
        (tmp_path / "in").write_bytes(data)
        assert count_lines(str(tmp_path / "in")) == lines


def test_a_terminal_shows_lines_and_sentences_per_second(tmp_path):
    (tmp_path / "in").write_text("a\nb. c.\nd\n", encoding="utf-8")
    stream = Terminal()
    progress = Progress(str(tmp_path / "in"), stream)
    progress.done(translation(1))
    progress.done(translation(2))
    progress.say("fanyi translate: line 3: invalid UTF-8")
    progress.done(translation(0))
    progress.close()
    shown = stream.getvalue()
    assert "3/3" in shown and "line" in shown and "sentences/s" in shown
    assert progress.sentences == 3
    assert "fanyi translate: line 3: invalid UTF-8\n" in shown


def test_no_terminal_no_file_no_bar(tmp_path):
    (tmp_path / "in").write_text("a\n", encoding="utf-8")
    for path, stream in [(str(tmp_path / "in"), io.StringIO()), (None, Terminal())]:
        progress = Progress(path, stream)
        progress.done(translation(1))
        progress.say("a warning")
        progress.close()
        assert stream.getvalue() == "a warning\n"


def test_a_count_of_texts_shows_a_bar_in_its_unit():
    stream = Terminal()
    progress = Progress(None, stream, total=2, unit="text")
    progress.done(translation(1))
    progress.done(translation(1))
    progress.close()
    assert "2/2" in stream.getvalue() and "text" in stream.getvalue()
