"""Options that leave a search nothing to choose: refused when they are built (a number that
turns the scores into NaN), or, where only the search can tell (every continuation ruled out),
a ValueError that says so. Never an empty n-best list, a NaN or an −∞ score."""

import math

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.decode.held_batch import constrained_search
from fanyi.decode.hypothesis import NO_TRANSLATION, SearchTask
from fanyi.decode.prefix import forced_tokens
from tiny_model import tiny_model

BOS, EOS, VOCAB = 2, 3, 40
SRC = torch.tensor([[5, 6, 7, 8, 3], [9, 10, 3, 0, 0]])
PREFIX = forced_tokens([[12, 12], [13]])  # "code code": a prefix that repeats a piece
SUPPRESSED = list(range(20, VOCAB))  # as a target script's pieces are: −∞ from the first step
SEARCHES = {
    "greedy": {"beam": 1},
    "beam": {"beam": 4, "n_best": 4},
    "sampling": {"sampling": True, "n_best": 2, "seed": 1},
}


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("repetition_penalty", 1e-300),  # 0 in float32: 0 · −∞ is NaN
        ("repetition_penalty", 1e300),
        ("repetition_penalty", 0.0),
        ("temperature", 1e-300),
        ("temperature", 1e300),
        ("length_penalty", 1e300),  # lp(Y) overflows
        ("length_penalty", -1e300),
        ("constrained_length_penalty", 1e300),
    ],
)
def test_numbers_that_break_the_scores_are_refused_by_name(option, value):
    with pytest.raises(ValueError, match=option):
        SearchOptions(**{option: value})


def test_the_bounds_name_their_range_as_zero_did():
    with pytest.raises(ValueError, match=r"repetition_penalty must be finite and > 0, from 1e-06"):
        SearchOptions(repetition_penalty=1e-300)
    with pytest.raises(ValueError, match=r"length_penalty_by_target needs numbers within ±20"):
        SearchOptions(length_penalty_by_target={"zh": 100.0})


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize("penalty", [1e-6, 1e6])
def test_a_repeated_prefix_at_the_bounds_still_gives_each_source_its_n_best(name, penalty):
    """At the bounds, with a prefix that repeats a piece and pieces suppressed (−∞), every source
    keeps its n-best with finite scores: 1e-300 left a beam search none (its scores NaN)."""
    options = SearchOptions(
        **SEARCHES[name], suppress_ids=SUPPRESSED, repetition_penalty=penalty, max_len_b=6
    )
    found = decode(tiny_model(), SRC, options, BOS, EOS, forced=PREFIX)
    assert [len(hyps) for hyps in found] == [options.n_best] * len(SRC)
    for hyps, prefix in zip(found, [[12, 12], [13]], strict=True):
        assert all(math.isfinite(h.score) and h.tokens[: len(prefix)] == prefix for h in hyps)


def ruled_out(**options) -> SearchOptions:
    """Every piece but EOS suppressed, and EOS forbidden before ``min_len``: no translation."""
    everything = [i for i in range(VOCAB) if i != EOS]
    return SearchOptions(suppress_ids=everything, min_len=4, max_len_b=6, **options)


@pytest.mark.parametrize("name", SEARCHES)
def test_a_search_the_options_leave_no_translation_says_so(name):
    """Before, beam search returned an empty n-best list, greedy decoding a −∞ score, sampling a
    torch error about its probabilities."""
    with pytest.raises(ValueError, match=NO_TRANSLATION):
        decode(tiny_model(), SRC, ruled_out(**SEARCHES[name]), BOS, EOS)


def test_a_prefix_s_own_pieces_stay_allowed_so_that_source_is_translated():
    """The target prefix's pieces are never suppressed: with one, the search goes on."""
    found = decode(tiny_model(), SRC[:1], ruled_out(beam=2), BOS, EOS, forced=PREFIX[:1])
    assert found[0] and all(set(h.tokens) == {12} for h in found[0])


def test_a_constrained_search_the_options_leave_no_translation_says_so():
    """The phrase's own piece is never suppressed, but written once it may not come again."""
    task = SearchTask(SRC[:1], ruled_out(beam=3, no_repeat_ngram_size=1), BOS, EOS)
    with pytest.raises(ValueError, match=NO_TRANSLATION):
        constrained_search(tiny_model(), task, [[[EOS + 1]]])


def test_eos_is_never_suppressed():
    with pytest.raises(ValueError, match="suppress_ids may not hold EOS"):
        decode(tiny_model(), SRC, SearchOptions(suppress_ids=[EOS]), BOS, EOS)
