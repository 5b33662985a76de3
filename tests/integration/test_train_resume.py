"""Resuming: a copied run goes on in the copy, a torn last log line is dropped with a warning,
resuming a finished run changes nothing, rewriting the run's `last` checkpoint never leaves it
missing, a resumed run says when the batch of a step changes (or keeps it), and a run that
samples its segmentations resumes bitwise."""

import json
import re
import shutil

import pytest
import torch
import yaml

from fanyi import model_dir as ckpt
from fanyi.cli import main
from fanyi.model_dir import load_model, read_checkpoint, read_index, read_state_dict
from fanyi.train import train
from fanyi.train.log import read_log
from tiny_run import tiny_config, word_corpus


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    return word_corpus(tmp_path_factory.mktemp("resume"))


@pytest.fixture(scope="module")
def finished(data_dir, tmp_path_factory):
    """A run trained to its max_steps (2), validated and checkpointed at step 2."""
    return train(tiny_config(data_dir, tmp_path_factory.mktemp("finished") / "run", max_steps=2))


def log(run) -> list[dict]:
    return [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]


def test_resuming_a_copied_run_trains_into_the_copy(finished, tmp_path, monkeypatch):
    monkeypatch.setenv("FANYI_TCMALLOC", "0")  # no re-execution of the test process
    copy = shutil.copytree(finished, tmp_path / "copy")
    assert main(["train", "--resume", str(copy), "--max-steps", "3", "--progress", "false"]) == 0
    assert read_index(copy)["last"] == "step-0000003"
    assert read_index(finished)["last"] == "step-0000002"
    assert not (finished / "step-0000003").exists()
    assert ckpt.read_checkpoint(copy, "last").train["out_dir"] == str(copy)


def test_a_torn_last_log_line_is_dropped_with_a_warning(data_dir, finished, tmp_path):
    run = shutil.copytree(finished, tmp_path / "run")
    with open(run / "log.jsonl", "a") as f:
        f.write('{"kind": "train", "step": 3, "lo')  # the power went off here
    with pytest.warns(UserWarning, match=r"log\.jsonl: dropped its torn last line"):
        train(tiny_config(data_dir, run, max_steps=3), run)
    assert [r["step"] for r in log(run) if r["kind"] == "valid"] == [2, 3]


def test_a_torn_line_inside_the_log_is_named(data_dir, finished, tmp_path):
    run = shutil.copytree(finished, tmp_path / "run")
    lines = (run / "log.jsonl").read_text().splitlines()
    (run / "log.jsonl").write_text("".join(f"{x}\n" for x in ["{torn", *lines]))
    with pytest.raises(ValueError, match=r"log\.jsonl:1: not a JSON record"):
        train(tiny_config(data_dir, run, max_steps=3), run)


def test_a_last_log_line_that_is_no_record_is_dropped_and_one_inside_is_named(
    data_dir, finished, tmp_path
):
    run = shutil.copytree(finished, tmp_path / "run")
    with open(run / "log.jsonl", "a") as f:
        f.write("[]\n")  # JSON, but not a record: it gave a TypeError
    with pytest.warns(UserWarning, match=r"log\.jsonl: dropped its torn last line '\[\]'"):
        train(tiny_config(data_dir, run, max_steps=3), run)
    lines = (run / "log.jsonl").read_text().splitlines()
    (run / "log.jsonl").write_text("".join(f"{x}\n" for x in [lines[0], "[1]", *lines[1:]]))
    with pytest.raises(ValueError, match=r"log\.jsonl:2: not a JSON record"):
        read_log(run)


@pytest.mark.parametrize(
    "index, message",
    [
        ([1], "expected"),
        ({"last": "/etc"}, "'/etc' is not the name of a checkpoint inside the run"),
        ({"best": "../elsewhere"}, "'../elsewhere' is not the name of a checkpoint inside"),
        ({"last": "step-0000002", "kept": "step-0000002"}, "expected"),
        ({"last": 7}, "7 is not the name of a checkpoint inside the run"),
    ],
)
def test_a_broken_checkpoint_index_is_named_and_never_leaves_the_run(
    finished, tmp_path, capsys, index, message
):
    run = shutil.copytree(finished, tmp_path / "run")
    (run / "checkpoints.json").write_text(json.dumps(index))
    with pytest.raises(ValueError, match=re.escape(message)):
        ckpt.resolve(run)
    assert main(["translate", "-m", str(run), "--text", "a", "--threads", "1"]) == 2
    err = capsys.readouterr().err
    assert f"{run / 'checkpoints.json'}: " in err and "Traceback" not in err


def test_resuming_a_finished_run_changes_nothing(data_dir, finished, tmp_path):
    run = shutil.copytree(finished, tmp_path / "run")
    before = (run / "step-0000002" / ckpt.MODEL_FILE).stat().st_mtime_ns
    train(tiny_config(data_dir, run, max_steps=2), run)
    assert [r["step"] for r in log(run) if r["kind"] == "valid"] == [2]
    assert (run / "step-0000002" / ckpt.MODEL_FILE).stat().st_mtime_ns == before


def test_rewriting_the_last_checkpoint_never_leaves_it_missing(finished, tmp_path, monkeypatch):
    run = shutil.copytree(finished, tmp_path / "run")
    model, checkpoint = load_model(run / "step-0000002")
    sections = yaml.safe_load((checkpoint.path / ckpt.CONFIG_FILE).read_text(encoding="utf-8"))
    with torch.no_grad():
        model.generator.proj.weight.add_(1.0)
    real_rmtree = shutil.rmtree

    def rmtree_then_crash(path, *args, **kwargs):  # a crash right after a directory is removed
        existed = (tmp_path / path).exists()
        real_rmtree(path, *args, **kwargs)
        if existed:
            raise KeyboardInterrupt

    monkeypatch.setattr(shutil, "rmtree", rmtree_then_crash)
    with pytest.raises(KeyboardInterrupt):
        ckpt.write_model_dir(run / "step-0000002", model, sections, [checkpoint.src_spm])
    monkeypatch.undo()
    reloaded, _ = load_model(run)  # `last` is there, complete: the new one
    assert torch.equal(reloaded.generator.proj.weight, model.generator.proj.weight)


def test_resuming_with_another_accumulation_says_the_batch_of_a_step_changes(
    data_dir, finished, tmp_path
):
    data, run = data_dir, shutil.copytree(finished, tmp_path / "run")
    cfg = tiny_config(data, run, max_steps=3, accumulation=2)
    with pytest.warns(UserWarning, match=r"a step now takes 2 batches .* instead of 1"):
        train(cfg, run)
    assert read_checkpoint(run, "last").train["accumulation"] == 2


def test_keep_effective_batch_keeps_the_saved_accumulation(data_dir, finished, tmp_path):
    data, run = data_dir, shutil.copytree(finished, tmp_path / "run")
    train(tiny_config(data, run, max_steps=3, accumulation=3, keep_effective_batch=True), run)
    assert read_checkpoint(run, "last").train["accumulation"] == 1


def test_a_sampling_run_resumes_bitwise_and_differs_from_the_best(data_dir, tmp_path):
    data = data_dir
    sampling = {"subword_alpha": 0.1, "max_steps": 6, "validate_every": 3}
    whole = train(tiny_config(data, tmp_path / "whole", **sampling))
    part = train(tiny_config(data, tmp_path / "part", **{**sampling, "max_steps": 3}))
    resumed = train(tiny_config(data, part, **sampling), resume=part)
    best = train(tiny_config(data, tmp_path / "best", **{**sampling, "subword_alpha": 0.0}))
    final = {run: read_state_dict(run / "step-0000006") for run in (whole, resumed, best)}
    for name, tensor in final[whole].items():
        assert torch.equal(tensor, final[resumed][name]), name
    assert any(not torch.equal(t, final[best][n]) for n, t in final[whole].items())
