"""``fanyi serve --config FILE``: host, port, model, every limit and every DecodeConfig key in one
YAML file, the flags given on the command line over it, and every flag with its help."""

import argparse

import pytest

from fanyi.cli import build_parser
from fanyi.cli.decode_flags import given_keys
from fanyi.cli.serve import settings
from fanyi.serve.limits import Limits


def parsed(*argv: str) -> argparse.Namespace:
    return build_parser("serve").parse_args(["serve", *argv])


def serve_parser() -> argparse.ArgumentParser:
    commands = build_parser("serve")._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    return commands["serve"]


def test_a_config_file_sets_every_key_and_the_flags_win(tmp_path):
    config = tmp_path / "serve.yaml"
    config.write_text(
        "host: 0.0.0.0\nport: 8080\nmodel: zh-en\nthreads: 2\nbatch_tokens: 2048\n"
        "max_chars: 2000\ntimeout: 60\nbatch_wait: 0.01\nbeam: 4\ndtype: int8\n"
        "length_penalty_by_target: {zh: 1.5}\nchinese_script: tw\n",
        encoding="utf-8",
    )
    args = settings(parsed("--config", str(config), "--port", "9000", "--beam", "2"))
    assert (args.host, args.port, args.model, args.threads) == ("0.0.0.0", 9000, "zh-en", 2)
    assert (args.batch_tokens, args.max_chars, args.timeout, args.batch_wait) == (
        2048,
        2000,
        60,
        0.01,
    )
    assert (args.engine, args.device, args.config) == ("fanyi", "cpu", None)
    decode = given_keys(args, args.config)
    assert decode["beam"] == "2" and decode["dtype"] == "int8" and decode["chinese_script"] == "tw"
    assert decode["length_penalty_by_target"] == {"zh": 1.5}


def test_without_a_file_each_key_has_its_default():
    args = settings(parsed())
    assert (args.host, args.port, args.threads, args.batch_tokens) == ("127.0.0.1", 8000, 0, 4096)
    assert args.max_chars is None and given_keys(args, None) == {}  # Limits' and the model's own
    assert Limits().max_chars == 1000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("prot: 80\n", r"unknown key\(s\) prot"),
        ("port: 99999\n", "port: must be at most 65535"),
        ("max_chars: lots\n", "max_chars: must be a number"),
        ("engine: marian\n", "engine: no engine 'marian'"),
        ("- port\n", "expected a mapping"),
    ],
)
def test_a_bad_config_file_is_one_line_naming_it(tmp_path, text, message):
    config = tmp_path / "serve.yaml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as error:
        settings(parsed("--config", str(config)))
    assert str(error.value).startswith(str(config)) and "\n" not in str(error.value)


def test_every_flag_of_serve_has_its_help():
    for action in serve_parser()._actions:
        assert action.help and action.help != argparse.SUPPRESS, action.option_strings
    text = " ".join(serve_parser().format_help().split())
    for field in ("--port", "--host", "--config", "--max-body", "--batch-wait", "--max-heavy"):
        assert f"{field} " in text
    assert "(default 8000)" in text and "(default 127.0.0.1)" in text
