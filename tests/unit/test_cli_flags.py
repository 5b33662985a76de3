"""One vocabulary of flags: ``-o/--output``, ``--dtype`` for precision, ``--format`` (``--to`` is
a language), switches with ``--no-`` forms; the old spellings still work for a release, with a
warning that names the new one."""

from pathlib import Path

import pytest

from fanyi.cli import build_parser


def parse(*argv: str):
    return build_parser(argv[0]).parse_args(list(argv))


def test_export_says_format_and_dtype():
    args = parse("export", "MODEL", "--format", "ctranslate2", "--dtype", "int8_fp16", "-o", "x")
    assert (args.format, args.dtype, args.output) == ("ctranslate2", "int8_fp16", "x")


@pytest.mark.parametrize(
    ("old", "key", "value", "new"),
    [
        (["--to", "huggingface"], "format", "huggingface", "--format"),
        (["--quantization", "int8_float16"], "dtype", "int8_fp16", "--dtype"),
    ],
)
def test_exports_old_spellings_warn_and_work(capsys, old, key, value, new):
    args = parse("export", "MODEL", "-o", "x", *old)
    assert getattr(args, key) == value
    assert (
        f"{old[0]} is deprecated and goes in the next release; use {new}" in capsys.readouterr().err
    )


def test_recipe_writes_to_output(capsys):
    assert parse("recipe", "tiny-test", "-o", "runs/x").output == Path("runs/x")
    assert parse("recipe", "tiny-test", "--out", "runs/y").output == Path("runs/y")
    assert "--out is deprecated" in capsys.readouterr().err


def test_evaluate_writes_to_output(capsys):
    assert parse("evaluate", "--hyp", "h", "-o", "t.hyp").output == "t.hyp"
    assert parse("evaluate", "--hyp", "h", "--output", "u.hyp").output == "u.hyp"
    assert capsys.readouterr().err == ""
    assert parse("evaluate", "--hyp", "h", "--out", "v.hyp").output == "v.hyp"
    assert "--out is deprecated and goes in the next release; use -o/--output" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("argv", "key"),
    [
        (["convert", "SRC", "-o", "x", "--no-overwrite"], "overwrite"),
        (["average", "RUN", "--no-overwrite"], "overwrite"),
        (["ensemble", "A", "B", "-o", "x", "--no-overwrite"], "overwrite"),
        (["tune", "--data", "d", "--no-write", "--no-json", "--no-dtypes"], "write"),
        (["recipe", "tiny-test", "--no-progress", "--no-rescore"], "progress"),
        (["evaluate", "--hyp", "h", "--no-json"], "json"),
    ],
)
def test_switches_have_no_forms(argv, key):
    assert getattr(parse(*argv), key) is False


def test_export_without_a_format_is_one_line(capsys):
    from fanyi.cli import main

    assert main(["export", "-o", "x"]) == 2
    assert "give --format: ctranslate2 or huggingface" in capsys.readouterr().err
