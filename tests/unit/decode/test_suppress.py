"""Suppressed ids (``suppress_ids``; ``target_script_only`` fills them per target language): no
search generates them, the hypothesis the search then finds is the best of those left, and a
target prefix's own ids are still followed. Pieces foreign to a language's script: Han
characters and CJK punctuation in English, nothing in Chinese."""

import math

import pytest
import torch
from hand_model import BOS, EOS, HandModel

from fanyi.decode import SearchOptions, SearchTask, beam_search, greedy_decode, sample
from fanyi.decode.options import for_target
from fanyi.decode.prefix import forced_tokens
from fanyi.text.lang import foreign_to

SRC = torch.tensor([[3, 4]])


def likes_three(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """3 is the likeliest word, then 4, then 5; after two words, EOS."""
    return {EOS: 0.9, 5: 0.1} if len(prefix) >= 2 else {3: 0.6, 4: 0.3, 5: 0.08, EOS: 0.02}


def config(**overrides) -> SearchOptions:
    return SearchOptions(**{"max_len_a": 0.0, "max_len_b": 4, "length_penalty": 0.0, **overrides})


SEARCHES = {
    "greedy": lambda c, **kw: greedy_decode(
        HandModel(likes_three), SearchTask(SRC, c, BOS, EOS, **kw)
    ),
    "beam": lambda c, **kw: beam_search(
        HandModel(likes_three), SearchTask(SRC, config(beam=3, **c), BOS, EOS, **kw)
    ),
    "sampling": lambda c, **kw: sample(HandModel(likes_three), SearchTask(SRC, c, BOS, EOS, **kw)),
}


def search(name: str, **options) -> list[int]:
    if name == "beam":
        return SEARCHES[name](options)[0][0].tokens
    extra = {"sampling": True, "top_k": 1, "seed": 0} if name == "sampling" else {}
    return SEARCHES[name](config(**extra, **options))[0][0].tokens


@pytest.mark.parametrize("name", list(SEARCHES))
def test_a_suppressed_id_is_never_generated(name):
    assert search(name) == [3, 3]
    assert search(name, suppress_ids=[3]) == [4, 4]  # the best path of those left
    # greedy takes 5 twice; beam search finds EOS alone (0.02) above 5 5 EOS (0.0058)
    assert search(name, suppress_ids=[3, 4]) == ([] if name == "beam" else [5, 5])


def test_the_score_is_the_model_s_own_log_probability():
    c = config(beam=3, suppress_ids=[3])
    (hyp,) = beam_search(HandModel(likes_three), SearchTask(SRC, c, BOS, EOS))[0]
    assert hyp.log_prob == pytest.approx(2 * math.log(0.3) + math.log(0.9))


def test_a_target_prefix_s_own_ids_stay_allowed():
    """The user's own text is never refused: its ids are taken out of the suppressed ones for the
    whole search (after the prefix too)."""
    forced = forced_tokens([[3]])
    model = HandModel(likes_three)
    (hyp,) = greedy_decode(
        model, SearchTask(SRC, config(suppress_ids=[3, 5]), BOS, EOS, forced=forced)
    )[0]
    assert hyp.tokens == [3, 3]
    assert hyp.log_prob == pytest.approx(2 * math.log(0.6) + math.log(0.9))


@pytest.mark.parametrize("bad", [[-1], [True], ["3"]])
def test_suppress_ids_are_token_ids(bad):
    with pytest.raises(ValueError, match="suppress_ids"):
        SearchOptions(suppress_ids=bad)


def test_target_script_only_adds_the_foreign_pieces_of_each_language():
    options = SearchOptions(suppress_ids=[7])
    assert for_target(options, "en", [11, 12]).suppress_ids == [7, 11, 12]
    assert not for_target(options, "en", [11]).target_script_only  # applied, once
    off = SearchOptions(suppress_ids=[7], target_script_only=False)
    assert for_target(off, "en", [11, 12]).suppress_ids == [7]


@pytest.mark.parametrize("piece", ["好", "▁北京", "、", "。", "，", "（", "Ａ", "2000余"])
def test_han_and_cjk_punctuation_are_foreign_to_english(piece):
    assert foreign_to("en", piece)
    assert not foreign_to("zh", piece)


@pytest.mark.parametrize("piece", ["▁Beijing", "2,000", "…", "—", "é", "'", "▁(", "</s>"])
def test_latin_text_and_its_punctuation_are_not(piece):
    assert not foreign_to("en", piece)
    assert not foreign_to("zh", piece)
