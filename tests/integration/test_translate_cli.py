"""``fanyi translate`` as a user runs it: a subprocess reading stdin line by line, files,
empty lines, lines of several sentences, the n-best format, ``--text``, decoding flags."""

import os
import re
import select
import subprocess
import sys

import pytest

from fanyi import Translator
from fanyi.cli import build_parser, main
from fanyi.cli.decode_flags import given_keys
from fanyi.engines.native import NativeEngine
from fanyi.serve.schemas import TranslateRequest
from fanyi.text.lang import split_sentences
from fanyi.translate.config import DecodeConfig, config_keys
from fanyi.translate.source_text import SourceText
from fanyi.translate.translator import BUNDLED
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # fanyi translate in subprocesses (about 40 s)

LINES = [
    "我很好。",
    "",
    "Where is the station? It is late.",
    "他在哪里？你呢？",
    "   ",
    "Thank you.",
]
NBEST = re.compile(r"^(\d+) \|\|\| (.*) \|\|\| (-?\d+\.\d{4})$")


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def expected(model_dir) -> list[str]:
    return Translator.load(model_dir, dtype="fp32")(LINES, beam=2)


def fanyi(*args: str | bytes) -> list[str | bytes]:
    """The command, in fp32 (the Python API's ``expected`` too): in bf16, which dtype auto may
    take, a line alone and the same line in a batch may round apart and break a near tie."""
    return [sys.executable, "-m", "fanyi", "translate", "--threads", "1", "--dtype", "fp32", *args]


def run(*args: str | bytes, stdin: str | bytes = "") -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}  # output must be UTF-8 regardless
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        fanyi(*args), input=data, capture_output=True, env=env, timeout=120, check=False
    )


def read_line(stream, timeout: float = 60.0) -> str:
    """One line from a pipe, failing instead of hanging if it does not come."""
    ready, _, _ = select.select([stream], [], [], timeout)
    assert ready, "no output line within the timeout"
    return stream.readline().decode("utf-8")


def test_stdin_is_answered_line_by_line(model_dir, expected):
    with subprocess.Popen(
        fanyi("-m", str(model_dir), "--beam", "2"), stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        for line, translation in zip(LINES, expected, strict=True):
            process.stdin.write(f"{line}\n".encode())
            process.stdin.flush()  # the next line is sent only after this one is answered
            assert read_line(process.stdout) == f"{translation}\n"
        process.stdin.close()
        assert process.stdout.read() == b""
        assert process.wait(timeout=60) == 0


def test_files_and_stdin_give_one_line_per_line(model_dir, expected, tmp_path):
    source, output = tmp_path / "in.txt", tmp_path / "out.txt"
    source.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    done = run(
        "-m",
        str(model_dir),
        "--beam",
        "2",
        "-i",
        str(source),
        "-o",
        str(output),
        "--batch-tokens",
        "16",
    )
    assert done.returncode == 0, done.stderr.decode()
    assert output.read_text(encoding="utf-8").split("\n") == [*expected, ""]  # one line a line
    piped = run("-m", str(model_dir), "--beam", "2", stdin="\n".join(LINES))  # no final newline
    assert piped.stdout.decode("utf-8").split("\n") == [*expected, ""]
    assert expected[1] == expected[4] == ""


def test_n_best_format(model_dir, expected):
    done = run("-m", str(model_dir), "--beam", "3", "--n-best", "3", stdin="\n".join(LINES))
    assert done.returncode == 0, done.stderr.decode()
    entries: dict[int, list[tuple[str, float]]] = {}
    for line in done.stdout.decode("utf-8").splitlines():
        match = NBEST.match(line)
        assert match, line
        entries.setdefault(int(match[1]), []).append((match[2], float(match[3])))
    assert sorted(entries) == list(range(len(LINES)))
    for i, candidates in entries.items():
        scores = [score for _, score in candidates]
        assert scores == sorted(scores, reverse=True)
        sentences = len(split_sentences(LINES[i], "en"))
        assert len(candidates) == (3 if sentences == 1 else 1)  # n-best of one sentence only
    assert entries[1] == [("", 0.0)]


def test_text_option(model_dir, expected):
    done = run("-m", str(model_dir), "--beam", "2", "--text", LINES[0])
    assert done.stdout.decode("utf-8") == f"{expected[0]}\n"


def test_a_target_prefix_for_every_line_or_per_line_after_a_tab(model_dir):
    texts, prefixes = ["我很好。", "Thank you.", "他在哪里？"], ["I am", None, "Where"]
    translator = Translator.load(model_dir, dtype="fp32")
    want = translator(texts, beam=2, target_prefix=prefixes)
    assert want[0].startswith("I am") and want[2].startswith("Where")
    lines = "我很好。\tI am\nThank you.\n他在哪里？\tWhere\n"
    got = run("-m", str(model_dir), "--beam", "2", "--tsv", stdin=lines)
    assert got.returncode == 0 and got.stdout.decode().splitlines() == want
    every = run("-m", str(model_dir), "--beam", "2", "--prefix", "I am", stdin="我很好。\n")
    assert every.stdout.decode() == translator(texts[:1], beam=2, target_prefix="I am")[0] + "\n"


def test_a_missing_model_is_a_clear_error(tmp_path):
    done = run("-m", str(tmp_path / "no-such-model"), "--text", "你好")
    assert done.returncode == 2
    assert "no-such-model" in done.stderr.decode() and "Traceback" not in done.stderr.decode()


def test_the_bundled_model_is_the_default():
    assert BUNDLED.is_dir()
    done = run("--text", "你好。")
    assert done.returncode == 0 and done.stdout.decode("utf-8").strip()


def test_without_a_bundled_model_the_error_says_what_to_do(tmp_path, monkeypatch):
    import fanyi.translate.model_names as model_names
    import fanyi.translate.translator as translator_module

    monkeypatch.setattr(model_names, "BUNDLED", tmp_path / "bundled" / "zh-en")
    with pytest.raises(FileNotFoundError, match=r"no bundled model .*; pass -m DIR"):
        translator_module.Translator.load()


def test_a_line_of_several_sentences_gives_one_line_of_all_their_translations(model_dir):
    done = run(
        "-m", str(model_dir), "--beam", "2", stdin="我很好。\n他在哪里？\n我很好。他在哪里？\n"
    )
    first, second, both = done.stdout.decode("utf-8").splitlines()
    assert both == f"{first} {second}"


@pytest.mark.parametrize("command", ["translate", "evaluate", "serve"])
def test_every_decode_config_key_is_a_flag(command, tmp_path):
    glossary = tmp_path / "terms.tsv"
    glossary.write_text("长城\tthe Great Wall\n", encoding="utf-8")
    values = {
        "hold_names": "false",
        "keep_emoji": "false",
        "glossary": str(glossary),
        "beam": "3",
        "n_best": "2",
        "length_penalty": "1.0",
        "length_penalty_by_target": "{zh: 4, en: 2.5}",
        "rerank_backward": "0.5",
        "rerank_backward_by_target": "{zh: 1}",
        "max_len_a": "0.5",
        "max_len_b": "4",
        "min_len": "1",
        "sampling": "true",
        "temperature": "0.7",
        "top_k": "5",
        "top_p": "0.9",
        "seed": "7",
        "dtype": "bf16",
        "auto_dtypes": "fp32,int8",
        "workers": "2",
        "compile": "true",
        "split_sentences": "false",
        "recase_headlines": "false",
        "keep_numbers": "false",
        "keep_code": "false",
        "keep_list_markers": "false",
        "keep_links": "false",
        "hold_numbers": "false",
        "hold_dates": "false",
        "hold_code": "false",
        "constrained_length_penalty": "1.5",
        "constrained_beam": "2",
        "long_input": "error",
        "chinese_script": "tw",
        "attention": "true",
        "repetition_penalty": "1.2",
        "no_repeat_ngram_size": "3",
        "max_repeat_run": "3",
        "target_script_only": "false",
        "suppress_ids": "5,17",
        "allowed_softmax": "true",
        "script_penalty": "1.5",
        "script_penalty_by_target": "{zh: 0.5}",
        "penalized_ids": "6,18",
    }
    assert set(values) == set(config_keys())
    flags = [x for key, value in values.items() for x in (f"--{key.replace('_', '-')}", value)]
    extra = ["--ref", "r"] if command == "evaluate" else []
    args = build_parser(command).parse_args([command, *flags, *extra])
    config = DecodeConfig().override(given_keys(args, None))
    assert config == DecodeConfig(
        beam=3, n_best=2, length_penalty=1.0, length_penalty_by_target={"zh": 4.0, "en": 2.5},
        rerank_backward=0.5, rerank_backward_by_target={"zh": 1.0}, max_len_a=0.5, max_len_b=4, min_len=1,
        sampling=True, temperature=0.7, top_k=5, top_p=0.9, seed=7, dtype="bf16",
        auto_dtypes=["fp32", "int8"], workers=2, compile=True, split_sentences=False,
        recase_headlines=False, keep_numbers=False, keep_code=False, keep_list_markers=False, keep_links=False, hold_numbers=False, hold_dates=False,
        hold_code=False, constrained_length_penalty=1.5, constrained_beam=2, long_input="error", chinese_script="tw",
        attention=True, repetition_penalty=1.2, no_repeat_ngram_size=3, max_repeat_run=3, target_script_only=False,
        suppress_ids=[5, 17], allowed_softmax=True, script_penalty=1.5, script_penalty_by_target={"zh": 0.5},
        penalized_ids=[6, 18], hold_names=False, keep_emoji=False, glossary=str(glossary),
    )  # fmt: skip


def test_one_beam_default_everywhere():
    args = build_parser("translate").parse_args(["translate"])
    assert DecodeConfig().override(given_keys(args, None)).search.beam == 5
    assert TranslateRequest(text=["a"]).beam is None  # the server's translator decides: 5


def test_decoding_flags_reach_the_search(model_dir):
    done = run("-m", str(model_dir), "--max-len-a", "0", "--max-len-b", "1", "--text", "我很好。")
    assert done.returncode == 0, done.stderr.decode()
    short = Translator.load(model_dir, max_len_a=0, max_len_b=1, dtype="fp32").translate(
        ["我很好。"]
    )[0]
    assert len(short.candidates[0].tokens) <= 2  # one piece at most, then </s>
    assert done.stdout.decode("utf-8") == f"{short.text}\n"


BAD_BYTES = "我很好。\n".encode() + b"caf\xe9 \xff\n" + b"Thank you.\n"  # line 2: Latin-1


def translate_in_process(
    monkeypatch, tmp_path, *args: str, stdin: bytes = b""
) -> tuple[int, bytes]:
    """``fanyi translate ARGS -o FILE`` in this process, ``stdin`` on a pipe: (status, output)."""
    read, write = os.pipe()
    os.write(write, stdin)
    os.close(write)
    monkeypatch.setattr(sys, "stdin", open(read))  # noqa: SIM115 (closed below)
    out = tmp_path / "out.txt"
    status = main(["translate", "--threads", "1", *args, "-o", str(out), "--overwrite"])
    sys.stdin.close()
    return status, out.read_bytes()


def test_a_line_that_is_not_utf8_gives_an_empty_line_and_a_warning(
    model_dir, expected, tmp_path, monkeypatch, capsys
):
    source = tmp_path / "in.txt"
    source.write_bytes(BAD_BYTES)
    want = f"{expected[0]}\n\n{expected[5]}\n".encode()
    for args, stdin in (((), BAD_BYTES), (("-i", str(source)), b"")):
        status, out = translate_in_process(
            monkeypatch, tmp_path, "-m", str(model_dir), "--beam", "2", *args, stdin=stdin
        )
        assert (status, out) == (1, want)
        assert capsys.readouterr().err == "fanyi translate: line 2: invalid UTF-8\n"
    text = run("-m", str(model_dir), "--text", b"caf\xe9")  # argv bytes: a real process
    assert text.stdout == b"\n" and text.returncode == 1
    assert "--text: invalid UTF-8" in text.stderr.decode()


def test_lines_are_split_on_newlines_only_everywhere(model_dir, tmp_path, monkeypatch):
    data = "我很好。\rThank you.\r\n他在哪里？\n".encode()  # a lone CR inside line 1
    source = tmp_path / "in.txt"
    source.write_bytes(data)
    model = ("-m", str(model_dir), "--beam", "1")
    piped = translate_in_process(monkeypatch, tmp_path, *model, stdin=data)
    from_file = translate_in_process(monkeypatch, tmp_path, *model, "-i", str(source))
    assert piped == from_file and piped[0] == 0
    assert piped[1].count(b"\n") == data.count(b"\n")


def test_a_file_is_written_as_it_goes_and_a_line_that_fails_fails_alone(
    model_dir, expected, tmp_path, monkeypatch, capsys
):
    lines = [
        LINES[0],
        "谢谢。",
        LINES[5],
        "Let us go to Beijing tomorrow and see my old friends.",
    ]  # the last: the longest into Chinese, decoded last (into English first: one target a batch)
    source = tmp_path / "in.txt"
    source.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    search = NativeEngine.decode

    def failing(self, sources, *args):
        text = SourceText(self.checkpoint)
        if text.ids(lines[1], "en") in sources:
            raise RuntimeError("out of memory")
        if text.ids(lines[3], "zh") in sources:
            raise KeyboardInterrupt  # Ctrl-C in the middle of the file
        return search(self, sources, *args)

    monkeypatch.setattr(NativeEngine, "decode", failing)
    flags = ("-m", str(model_dir), "--beam", "2", "--batch-tokens", "8", "-i", str(source))
    status, out = translate_in_process(monkeypatch, tmp_path, *flags)
    assert status == 130  # interrupted on the last line: the lines before it are written
    assert out.decode() == f"{expected[0]}\n\n{expected[5]}\n"
    assert "fanyi translate: line 2: not translated: out of memory\n" in capsys.readouterr().err


def test_a_file_shows_progress_on_a_terminal_and_never_elsewhere(model_dir, tmp_path):
    """stderr a real terminal (a pty): the bar, with lines and sentences/s; a pipe: none."""
    import fcntl
    import pty
    import struct
    import termios

    path = tmp_path / "in.txt"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    args = fanyi("-m", str(model_dir), "--beam", "2", "-i", str(path))
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 0 x 0: no bar
    try:
        done = subprocess.run(args, stdout=subprocess.PIPE, stderr=follower, timeout=120)
        os.close(follower)
        shown = b""
        while select.select([leader], [], [], 1)[0]:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert f"{len(LINES)}/{len(LINES)}".encode() in shown and b"sentences/s" in shown
    piped = run("-m", str(model_dir), "--beam", "2", "-i", str(path))
    assert piped.returncode == 0 and piped.stderr == b""
    assert piped.stdout == done.stdout
