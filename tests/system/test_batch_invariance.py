"""A line's translation never depends on what else shares its batch: held-out lines translated
each alone and inside a shuffled file give the same tokens (scores within a tolerance), in every
dtype, and a line with a target prefix beside lines without one changes none of them."""

import importlib.util
import random

import pytest

from conftest import corpora  # noqa: F401  (the fixtures' corpora)
from fanyi import Translator
from fanyi.cli import main
from fanyi.decode.rerank import log_likelihoods
from fanyi.translate.translator import BUNDLED

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}"),
]
# Padding shifts the last bits of attention sums; bf16 and int8 round them further
SCORE_TOLERANCE = {"fp32": 1e-4, "bf16": 0.03, "int8": 0.03}
DATA = BUNDLED.parents[3] / "tests" / "fixtures" / "data"
PYTHON_DOCS = DATA / "python-docs" / "test.tsv"
TATOEBA = DATA / "tatoeba-cmn-eng" / "bundled-test.txt"


HAS_CT2 = importlib.util.find_spec("ctranslate2") is not None


def held_out_lines(n: int = 16) -> list[str]:
    """Held-out python-docs pairs, both sides: Chinese and English lines of mixed lengths."""
    rows = [line.split("\t") for line in PYTHON_DOCS.read_text(encoding="utf-8").splitlines()]
    return [row[0] for row in rows[: n // 2]] + [row[1] for row in rows[: n // 2]]


def mixed_lines() -> list[str]:
    """50 held-out lines of both languages, from a few words to a paragraph: python-docs pairs
    and, further on in its file, Tatoeba pairs of the bundled model's test slice."""
    rows = [line.split("\t") for line in TATOEBA.read_text(encoding="utf-8").splitlines()]
    tatoeba = [row[0] for row in rows[200:210]] + [row[1] for row in rows[200:210]]
    return held_out_lines(30) + tatoeba


@pytest.mark.parametrize("dtype", ["fp32", "bf16", "int8"])
def test_a_line_alone_and_inside_a_file_is_translated_the_same(dtype):
    translator = Translator.load(dtype=dtype, batch_tokens=4096)
    assert_alone_equals_inside(translator, dtype)


@pytest.mark.skipif(not HAS_CT2, reason="no ctranslate2 package")
@pytest.mark.parametrize("dtype", ["fp32", "int8"])
def test_the_ctranslate2_engine_translates_a_line_alone_and_inside_a_file_the_same(dtype, tmp_path):
    out = tmp_path / f"ct2-{dtype}"
    assert main(["export", "--format", "ctranslate2", "--dtype", dtype, "-o", str(out)]) == 0
    translator = Translator.load(out, engine="ctranslate2", batch_tokens=4096)
    assert_alone_equals_inside(translator, dtype)


@pytest.mark.skipif(not HAS_CT2, reason="no ctranslate2 package")
def test_the_auto_engine_translates_a_line_alone_and_inside_a_file_the_same():
    """``--engine auto``: CTranslate2 for free searches, in calls shared by rounded length
    limits, and fanyi's engine for the lines held to names or numbers among them."""
    translator = Translator.load(engine="auto", batch_tokens=4096)
    assert translator.engine.name == "auto"
    assert_alone_equals_inside(translator, "int8")


def assert_alone_equals_inside(translator: Translator, dtype: str) -> None:
    """Each of 50 held-out lines translated alone equals its translation inside the shuffled
    file: the same tokens, the score within the dtype's tolerance."""
    lines = mixed_lines()
    shuffled = random.Random(dtype).sample(lines, len(lines))
    inside = dict(zip(shuffled, translator.translate(shuffled), strict=True))
    alone = {line: translator.translate([line])[0].candidates[0] for line in lines}
    differ = [line for line in lines if alone[line].tokens != inside[line].candidates[0].tokens]
    assert differ == [], f"{len(differ)} of {len(lines)} lines differ"
    for line in lines:
        score = inside[line].candidates[0].score
        assert alone[line].score == pytest.approx(score, rel=SCORE_TOLERANCE[dtype])


def test_a_target_prefix_in_the_batch_changes_no_other_line():
    translator = Translator.load(dtype="fp32")
    lines = held_out_lines(8)
    plain = translator(lines)
    prefixes = [None] * len(lines)
    prefixes[0] = "这个"  # Han pieces, which translations into English suppress
    held = translator.translate(lines, target_prefix=prefixes)
    assert held[0].text.startswith("这个")
    assert [h.text for h in held[1:]] == plain[1:]


@pytest.mark.parametrize("dtype", ["fp32", "bf16", "int8"])
def test_a_pairs_score_for_reranking_is_the_same_alone_and_in_a_batch(dtype):
    """Teacher-forced log P(target | source), which reranking by the backward score uses, of
    pairs of many lengths: the same scored alone and together, to the last bits a host's kernels
    may differ in (unpadded, int8 differed by up to 0.5, about 1e-3 of a score)."""
    model = Translator.load(dtype=dtype).engine.model
    draw = random.Random(0)

    def ids(low: int, high: int) -> list[int]:
        return [draw.randrange(10, 15000) for _ in range(draw.randrange(low, high))]

    pairs = [([5, *ids(3, 40), 3], ids(3, 40)) for _ in range(12)]
    together = log_likelihoods(model, [s for s, _ in pairs], [t for _, t in pairs])
    alone = [log_likelihoods(model, [s], [t])[0] for s, t in pairs]
    assert alone == pytest.approx(together, rel=1e-5)
