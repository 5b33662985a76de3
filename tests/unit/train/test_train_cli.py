"""The plot command (``fanyi plot RUN`` = ``fanyi plot curves RUN``) and tcmalloc re-execution."""

import json

import pytest

from fanyi.cli import main


def _run_dir(tmp_path):
    records = [{"kind": "train", "step": s, "loss": 5 - s / 10, "lr": s * 1e-4} for s in (1, 2, 3)]
    records.append(
        {"kind": "valid", "step": 3, "dev_loss": 4.0, "dev_nll": 3.5, "bleu": 1.0, "chrf": 9.0}
    )
    (tmp_path / "log.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return tmp_path


@pytest.mark.parametrize("words", [[], ["curves"]])
def test_plot_draws_the_curves_with_or_without_the_kind(tmp_path, words, capsys):
    run = _run_dir(tmp_path)
    out = tmp_path / "c.png"
    assert main(["plot", *words, str(run), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert capsys.readouterr().out.strip() == str(out)


def test_plot_of_a_directory_without_a_log_is_a_clear_error(tmp_path, capsys):
    assert main(["plot", str(tmp_path)]) == 2
    assert "log.jsonl not found" in capsys.readouterr().err
