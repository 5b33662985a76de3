"""Scores agree with sacreBLEU's own API on the same files, with one and two references."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU, CHRF

from fanyi import Translator
from fanyi.cli import main
from fanyi.evaluate import evaluate
from fanyi.scores import score
from fanyi.text.lang import split_tag
from tiny_translator import tiny_model_dir


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture(scope="module")
def test_sets(model_dir, tmp_path_factory) -> dict[str, tuple[list[str], list[str]]]:
    """{target language: (sources without tags, references)} from the tiny model's test split."""
    data = Path(model_dir).parents[1] / "data"
    sources = (data / "test.src").read_text(encoding="utf-8").splitlines()
    targets = (data / "test.tgt").read_text(encoding="utf-8").splitlines()
    sets: dict[str, tuple[list[str], list[str]]] = {"en": ([], []), "zh": ([], [])}
    for source, target in zip(sources, targets, strict=True):
        tag, text = split_tag(source)
        sets[tag[2:-1]][0].append(text)
        sets[tag[2:-1]][1].append(target)
    return sets


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def variants(references: list[str]) -> tuple[list[str], list[str]]:
    """A second reference (punctuation dropped) and a system output (last character dropped)."""
    return [r.rstrip("。！？.!?") for r in references], [r[:-1] for r in references]


@pytest.mark.parametrize(("lang", "tokenize"), [("en", "13a"), ("zh", "zh")])
def test_scores_equal_sacrebleu_with_two_references(test_sets, lang, tokenize):
    reference = test_sets[lang][1]
    second, hypotheses = variants(reference)
    ours = score(hypotheses, [reference, second], lang)
    bleu = sacrebleu.corpus_bleu(hypotheses, [reference, second], tokenize=tokenize)
    assert ours.bleu == pytest.approx(bleu.score, abs=1e-9)
    assert ours.chrf == pytest.approx(sacrebleu.corpus_chrf(hypotheses, [reference, second]).score)
    assert ours.bleu_signature.startswith("nrefs:2|") and f"tok:{tokenize}|" in ours.bleu_signature
    single = score(hypotheses, [reference], lang)
    assert single.bleu == pytest.approx(
        sacrebleu.corpus_bleu(hypotheses, [reference], tokenize=tokenize).score
    )


def test_cli_scores_an_output_like_sacrebleu(test_sets, tmp_path, capsys):
    reference = test_sets["zh"][1]
    second, hypotheses = variants(reference)
    files = [
        write(tmp_path / n, x) for n, x in (("h", hypotheses), ("r1", reference), ("r2", second))
    ]
    assert main(["evaluate", "--hyp", files[0], "--ref", files[1], "--ref", files[2]]) == 0
    bleu, chrf = BLEU(tokenize="zh"), CHRF()  # zh: detected from the references' script
    refs = [reference, second]
    expected = [
        bleu.corpus_score(hypotheses, refs).format(signature=str(bleu.get_signature())),
        chrf.corpus_score(hypotheses, refs).format(signature=str(chrf.get_signature())),
    ]
    assert capsys.readouterr().out.splitlines() == expected


def test_cli_translates_then_scores(model_dir, test_sets, tmp_path, capsys):
    sources, reference = test_sets["zh"]
    out = tmp_path / "hyp.txt"
    assert (
        main(
            [
                "evaluate",
                "-m",
                str(model_dir),
                "--src",
                write(tmp_path / "src", sources),
                "--ref",
                write(tmp_path / "ref", reference),
                "-o",
                str(out),
                "--json",
                "--threads",
                "1",
                "--beam",
                "2",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    hypotheses = out.read_text(encoding="utf-8").splitlines()
    assert len(hypotheses) == len(sources)
    expected = sacrebleu.corpus_bleu(hypotheses, [reference], tokenize="zh").score
    assert report["bleu"] == pytest.approx(expected, abs=0.01)
    assert "tok:zh" in report["bleu_signature"]


def test_references_of_another_length_are_refused(tmp_path, capsys):
    hyp, ref = write(tmp_path / "h", ["a", "b"]), write(tmp_path / "r", ["a"])
    assert main(["evaluate", "--hyp", hyp, "--ref", ref]) == 2
    assert "reference 1 has 1 lines" in capsys.readouterr().err


def test_cli_scores_a_prepared_split_into_one_language(model_dir, test_sets, capsys):
    data = str(Path(model_dir).parents[1] / "data")
    flags = ["--threads", "1", "--beam", "2", "--json"]
    assert main(["evaluate", "-m", str(model_dir), "--data", data, "--to", "zh", *flags]) == 0
    report = json.loads(capsys.readouterr().out)
    translator = Translator.load(model_dir, beam=2)
    sources, reference = test_sets["zh"]
    hypotheses = translator(sources, to="zh")
    assert report["bleu"] == round(score(hypotheses, [reference], "zh").bleu, 2)
    assert "tok:zh" in report["bleu_signature"]
    assert main(["evaluate", "-m", str(model_dir), "--data", data, "--to", "de"]) == 2
    assert "not 'de'" in capsys.readouterr().err


def test_a_source_that_fails_to_decode_is_named_and_scored_empty(model_dir, monkeypatch):
    translator = Translator.load(model_dir, beam=2)
    search, bad = translator.engine.decode, translator.text.ids("谢谢。", "en")

    def failing(sources, *args):
        if bad in sources:
            raise RuntimeError("out of memory")
        return search(sources, *args)

    monkeypatch.setattr(translator.engine, "decode", failing)
    with pytest.warns(UserWarning, match="source 2: not translated: out of memory"):
        hypotheses, _ = evaluate(
            translator, ["我很好。", "谢谢。"], [["I'm fine.", "Thanks."]], "en"
        )
    assert hypotheses[1] == ""


def test_ctrl_c_keeps_the_finished_translations_and_resume_scores_the_whole(
    model_dir, test_sets, tmp_path, capsys
):
    sources, reference = test_sets["zh"]
    sources, reference = sources * 60, reference * 60  # several windows of lines
    src, ref = write(tmp_path / "src", sources), write(tmp_path / "ref", reference)
    args = ["evaluate", "-m", str(model_dir), "--src", src, "--ref", ref, "--json"]
    args += ["--threads", "1", "--dtype", "fp32"]
    whole = tmp_path / "whole.txt"
    assert main([*args, "-o", str(whole)]) == 0
    expected = json.loads(capsys.readouterr().out)
    out = tmp_path / "out.txt"
    command = [sys.executable, "-m", "fanyi", *args, "-o", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while process.poll() is None and not (out.exists() and out.stat().st_size):
        time.sleep(0.05)  # until the first window's translations are written
    process.send_signal(signal.SIGINT)
    process.wait()
    kept = out.read_text(encoding="utf-8")
    assert kept and whole.read_text(encoding="utf-8").startswith(kept[: kept.rfind("\n") + 1])
    assert main([*args, "-o", str(out), "--resume"]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    assert out.read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")
