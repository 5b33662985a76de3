"""A target prefix through the Translator on the bundled model (fp32): each translation starts
with its prefix, normalised and tokenised as the target side, and is scored as a whole."""

import pytest

from fanyi.translate.translator import BUNDLED, Translator

pytestmark = pytest.mark.skipif(not BUNDLED.is_dir(), reason=f"no bundled model at {BUNDLED}")
TEXTS = ["我们明天一起去北京。", "Where is the station?", "他不在家。我很好。"]


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(dtype="fp32", rerank_backward=0)


@pytest.mark.parametrize(
    "changes",
    [{"beam": 1}, {"beam": 4, "n_best": 2}, {"sampling": True, "seed": 3, "n_best": 2}],
    ids=["greedy", "beam", "sampling"],
)
def test_every_candidate_starts_with_its_prefix(translator, changes):
    prefixes = ["Tomorrow we", "车站", "He was"]  # the last: the first of two sentences
    results = translator.translate(TEXTS, target_prefix=prefixes, **changes)
    for result, prefix in zip(results, prefixes, strict=True):
        assert result.error is None
        assert all(c.text.startswith(prefix) for c in result.candidates), result.candidates


def test_the_score_is_the_teacher_forced_log_probability_of_the_whole_output(translator):
    # names off: hold_names gives the model 北京 in pinyin, a source other than the one scored
    (result,) = translator.translate(
        TEXTS[:1], target_prefix="Tomorrow we", beam=4, hold_names=False
    )
    best, text = result.candidates[0], translator.text
    target = [text.tgt_vocab.piece_to_id(piece) for piece in best.tokens[:-1]]
    source = text.ids(TEXTS[0], "en")
    (forced,) = translator.engine.log_likelihoods([source], [target], lambda: None)
    assert best.log_prob == pytest.approx(forced, abs=1e-4)


def test_one_prefix_for_all_none_for_one_and_the_target_side_s_normalisation(translator):
    plain = translator(TEXTS[:2])
    assert translator(TEXTS[:2], target_prefix=[None, ""]) == plain
    assert translator(TEXTS[1], target_prefix="車站").startswith("车站")  # t2s, as the data
    assert all(t.startswith("The") for t in translator(TEXTS[:1] * 2, target_prefix="The"))


def test_a_prefix_that_cannot_start_a_translation_fails_its_text_alone(translator):
    bad, good = translator.translate(TEXTS[:2], target_prefix=["<2zh> 你好", "车站"])
    assert bad.error is not None and "language tag" in bad.error
    assert good.error is None and good.text.startswith("车站")
    with pytest.raises(ValueError, match="for each of the 2 texts"):
        translator.translate(TEXTS[:2], target_prefix=["The"])
