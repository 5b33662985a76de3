"""`fanyi tune`: α chosen on dev, stored in the model directory, and the model's decoding
defaults under every flag and option; the dtypes within 0.3 BLEU of fp32 kept for dtype auto."""

import json
import shutil
from pathlib import Path

import pytest
import yaml

from fanyi import Translator
from fanyi.cli import build_parser, main
from fanyi.cli.translate import load_translator
from fanyi.data.manifest import read_pairs
from fanyi.evaluate import evaluate
from fanyi.scores import Scores
from fanyi.translate.config import DecodeConfig
from fanyi.tune import (
    DtypeTrial,
    Trial,
    allowed_dtypes,
    best_per_target,
    best_trial,
    tune_dtypes,
    tune_length_penalty,
)
from tiny_translator import tiny_model_dir

pytestmark = pytest.mark.slow  # tunes on dev (about 1 minute)


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    return tiny_model_dir(tmp_path_factory)


@pytest.fixture
def model(trained, tmp_path) -> Path:
    """A copy of the tiny model that a test may write into."""
    return Path(shutil.copytree(trained, tmp_path / "model"))


def data_of(model_dir: Path) -> Path:
    return Path(model_dir).parents[1] / "data"


def test_each_alpha_scores_as_evaluate_does_with_that_alpha_in_both_directions(trained):
    data = data_of(trained)
    trials = tune_length_penalty(Translator.load(trained, beam=3), data, [0.0, 3.0])
    assert [t.length_penalty for t in trials] == [0.0, 3.0]
    for trial in trials:
        assert sorted(trial.scores) == ["en", "zh"]
        for to, scores in trial.scores.items():
            pairs = read_pairs(data, "dev", to)
            alone = Translator.load(trained, beam=3, length_penalty=trial.length_penalty)
            _, expected = evaluate(alone, pairs.sources, [pairs.references], to)
            assert scores.bleu == expected.bleu and scores.length_ratio == expected.length_ratio
    assert best_trial(trials).mean_bleu == max(t.mean_bleu for t in trials)


def test_tune_writes_the_best_alpha_which_becomes_the_models_default(trained, model, capsys):
    args = ["tune", "-m", str(model), "--data", str(data_of(trained)), "--beam", "2"]
    assert main([*args, "--alphas", "0,2.5", "--to", "en", "--write", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    best = report["best"]
    assert best in (0.0, 2.5) and [t["length_penalty"] for t in report["trials"]] == [0.0, 2.5]
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    assert sections["decode"] == {"length_penalty": best}
    assert Translator.load(model).options.length_penalty == best
    assert Translator.load(model, length_penalty="0.3").options.length_penalty == 0.3
    assert Translator.load(model, config=DecodeConfig()).options.length_penalty == 0.6


def test_the_models_defaults_sit_under_the_flags_of_translate(model, tmp_path, capsys):
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    sections["decode"] = {"beam": 1, "max_len_b": 0, "max_len_a": 0.0}  # nothing but EOS
    (model / "config.yaml").write_text(yaml.safe_dump(sections), encoding="utf-8")
    assert main(["translate", "-m", str(model), "--text", "我们走吧。", "--to", "en"]) == 0
    assert capsys.readouterr().out == "\n"
    (tmp_path / "decode.yaml").write_text("max_len_a: 1.0\n", encoding="utf-8")
    argv = ["translate", "-m", str(model), "--config", str(tmp_path / "decode.yaml")]
    args = build_parser("translate").parse_args([*argv, "--max-len-b", "5"])
    config = load_translator(args).options
    assert (config.beam, config.max_len_a, config.max_len_b) == (1, 1.0, 5)


def test_a_bad_decode_section_is_one_clear_error(model):
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    sections["decode"] = {"beams": 4}
    (model / "config.yaml").write_text(yaml.safe_dump(sections), encoding="utf-8")
    with pytest.raises(
        ValueError, match=r"config.yaml: decode: unknown DecodeConfig key\(s\): beams"
    ):
        Translator.load(model)


def test_write_needs_a_model_directory(trained, capsys):
    argv = ["tune", "--data", str(data_of(trained)), "--alphas", "1", "--write"]
    assert main(argv) == 2
    assert "--write needs -m DIR" in capsys.readouterr().err


def test_dtypes_within_the_tolerance_of_fp32_in_every_direction_are_allowed():
    def trial(dtype, en, zh):
        scores = {to: Scores(b, 0, "", "", 1, 1, []) for to, b in (("en", en), ("zh", zh))}
        return DtypeTrial(dtype, scores)

    trials = [trial("fp32", 30.0, 20.0), trial("bf16", 29.7, 20.5), trial("int8", 29.9, 19.6)]
    assert allowed_dtypes(trials) == ["fp32", "bf16"]
    assert allowed_dtypes(trials, tolerance=0.5) == ["fp32", "bf16", "int8"]


def test_tune_dtypes_scores_each_dtype_as_evaluate_does_and_writes_the_allowed(
    trained, model, capsys
):
    data = data_of(trained)
    args = ["tune", "-m", str(model), "--data", str(data), "--beam", "2", "--alphas", "1"]
    assert main([*args, "--to", "en", "--dtypes", "--write", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    report = json.loads(out[-1])
    rows = {line.split()[0]: float(line.split()[3]) for line in out if line.startswith("int8 ")}
    pairs = read_pairs(data, "dev", "en")
    int8 = Translator.load(model, beam=2, length_penalty=1.0, dtype="int8")
    assert rows["int8"] == pytest.approx(
        evaluate(int8, pairs.sources, [pairs.references], "en")[1].bleu, abs=0.005
    )
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    assert sections["decode"]["auto_dtypes"] == report["auto_dtypes"]
    assert report["auto_dtypes"][0] == "fp32"
    assert Translator.load(model).engine.options.auto_dtypes == report["auto_dtypes"]
    with pytest.raises(ValueError, match="fp32 translator"):
        tune_dtypes(Translator.load(model, dtype="int8"), data)


def test_per_target_the_best_alpha_among_those_long_enough():
    def trial(alpha, en, zh):  # (BLEU, length ratio) into each language
        scores = {to: Scores(b, 0, "", "", 1, r, []) for to, (b, r) in (("en", en), ("zh", zh))}
        return Trial(alpha, scores)

    trials = [trial(1, (30.0, 0.93), (33.0, 0.93)), trial(3, (30.5, 0.96), (32.9, 0.95))]
    trials.append(trial(5, (30.2, 0.99), (32.5, 0.97)))
    assert best_per_target(trials) == {"en": 3, "zh": 1}
    assert best_per_target(trials, min_length_ratio=0.96) == {"en": 3, "zh": 5}
    assert best_per_target(trials, min_length_ratio=1.5) == {"en": 3, "zh": 1}  # none: all


def test_an_alpha_per_target_decodes_each_language_with_its_own(trained, model, capsys):
    """``length_penalty_by_target``: written by tune --per-target; translations into zh use its α
    and into en the model's, in one call; an α given alone (a flag) applies to both."""
    args = ["tune", "-m", str(model), "--data", str(data_of(trained)), "--beam", "3"]
    assert main([*args, "--alphas", "0,6", "--per-target", "--write", "--json"]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[-1])
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    assert sections["decode"]["length_penalty_by_target"] == report["by_target"]
    by_target = {"zh": 6.0, "en": 0.0}
    texts = [p for to in ("zh", "en") for p in read_pairs(data_of(trained), "dev", to).sources[:8]]
    langs = ["zh"] * 8 + ["en"] * 8
    mixed = Translator.load(model, beam=3, length_penalty=0.0, length_penalty_by_target=by_target)
    got = [r.candidates[0].score for r in mixed.translate(texts, n_best=1)]
    for lang, alpha in by_target.items():
        alone = Translator.load(model, beam=3, length_penalty=alpha, length_penalty_by_target={})
        rows = [i for i, t in enumerate(langs) if t == lang]
        expected = alone.translate([texts[i] for i in rows], to=lang)
        assert [got[i] for i in rows] == [r.candidates[0].score for r in expected]
    flag = Translator.load(model, beam=3, length_penalty=2.0)  # over the model's per-target αs
    assert flag.options.length_penalty_by_target == {}
    assert main([*args, "--alphas", "1.5", "--write"]) == 0  # one α for all clears the others
    assert Translator.load(model).options.length_penalty_by_target == {}
    with pytest.raises(ValueError, match="length_penalty_by_target needs numbers"):
        Translator.load(model, length_penalty_by_target="{zh: long}")


@pytest.mark.parametrize(
    ("flag", "key", "symbol"),
    [("--rerank-weights", "rerank_backward", "λ"), ("--script-penalties", "script_penalty", "β")],
)
def test_tune_scores_each_lambda_or_beta_as_evaluate_does_and_writes_the_best(
    trained, model, capsys, flag, key, symbol
):
    data = data_of(trained)
    args = ["tune", "-m", str(model), "--data", str(data), "--beam", "3", "--alphas", "1"]
    assert main([*args, flag, "0,2", "--write", "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    report = json.loads(out[-1])
    tried = [line for line in out if f"{symbol}=2" in line]
    assert len(tried) == 1  # 0 prints as the plain α row
    pairs = read_pairs(data, "dev", "zh")
    alone = Translator.load(trained, beam=3, length_penalty=1.0, **{key: 2.0})
    bleu = evaluate(alone, pairs.sources, [pairs.references], "zh")[1].bleu
    assert f"→zh BLEU {bleu:5.2f}" in tried[0]
    assert report[key] in (0.0, 2.0)
    assert getattr(Translator.load(model).options, key) == report[key]


def test_a_weight_per_target_reranks_each_language_with_its_own(trained, model, capsys):
    """``rerank_backward_by_target``: written by tune --per-target --rerank-weights; each
    language's translations reranked with its λ in one call; a λ given alone applies to both."""
    args = ["tune", "-m", str(model), "--data", str(data_of(trained)), "--beam", "3"]
    assert main([*args, "--alphas", "1", "--rerank-weights", "0,3", "--per-target", "--write"]) == 0
    sections = yaml.safe_load((model / "config.yaml").read_text(encoding="utf-8"))
    assert set(sections["decode"]["rerank_backward_by_target"]) == {"en", "zh"}
    by_target = {"zh": 3.0, "en": 0.0}
    texts = [p for to in ("zh", "en") for p in read_pairs(data_of(trained), "dev", to).sources[:8]]
    langs = ["zh"] * 8 + ["en"] * 8
    mixed = Translator.load(model, beam=3, rerank_backward=0, rerank_backward_by_target=by_target)
    got = mixed(texts)
    for lang, weight in by_target.items():
        alone = Translator.load(model, beam=3, rerank_backward=weight, rerank_backward_by_target={})
        rows = [i for i, t in enumerate(langs) if t == lang]
        assert [got[i] for i in rows] == alone([texts[i] for i in rows], to=lang)
    assert Translator.load(model, rerank_backward=0.5).options.rerank_backward_by_target == {}
    with pytest.raises(ValueError, match="rerank_backward_by_target needs numbers"):
        Translator.load(model, rerank_backward_by_target="{zh: -1}")
