"""Beam search against exhaustive search on a hand-set model, n-best lists, shrinking, beam 1."""

import itertools
import math

import pytest
import torch
from hand_model import BOS, EOS, PAD, HandModel, random_table

from fanyi.decode import SearchOptions, SearchTask, beam_search, greedy_decode, length_penalty

LIMIT = 3  # at most 3 words before EOS: 1 + 3 + 9 + 27 = 40 complete hypotheses


def exhaustive(source: tuple[int, ...], alpha: float) -> list[tuple[float, list[int]]]:
    """Every hypothesis of at most LIMIT words, with its GNMT score, best first."""
    scored = []
    for n in range(LIMIT + 1):
        for words in itertools.product((3, 4, 5), repeat=n):
            log_prob = sum(
                math.log(random_table(source, words[:i])[w]) for i, w in enumerate((*words, EOS))
            )
            scored.append((log_prob / length_penalty(n + 1, alpha), list(words)))
    return sorted(scored, reverse=True)


def config(**overrides) -> SearchOptions:
    return SearchOptions(**{"max_len_a": 0.0, "max_len_b": LIMIT, **overrides})


SOURCES = torch.tensor([[3, 4, 5], [5, 3, PAD], [4, PAD, PAD], [3, 3, 3]])


@pytest.mark.parametrize("alpha", [0.0, 0.6, 1.5])
def test_wide_beam_finds_the_exhaustive_n_best_with_correct_scores(alpha):
    result = beam_search(
        HandModel(), SearchTask(SOURCES, config(beam=40, n_best=10, length_penalty=alpha), BOS, EOS)
    )
    for row, hyps in zip(SOURCES.tolist(), result, strict=True):
        expected = exhaustive(tuple(t for t in row if t != PAD), alpha)[:10]
        assert [h.tokens for h in hyps] == [words for _, words in expected]
        assert [h.score for h in hyps] == pytest.approx([score for score, _ in expected], abs=1e-9)
        for h in hyps:
            assert h.score == pytest.approx(h.log_prob / length_penalty(len(h.tokens) + 1, alpha))


def test_n_best_is_sorted_and_no_longer_than_asked():
    for beam, n_best in [(2, 1), (3, 3), (5, 2)]:
        for hyps in beam_search(
            HandModel(), SearchTask(SOURCES, config(beam=beam, n_best=n_best), BOS, EOS)
        ):
            assert 1 <= len(hyps) <= n_best
            assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)


def garden_path(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """Word 3 is likelier first, but everything after it is uncertain; word 4 leads to a sure EOS."""
    if not prefix:
        return {3: 0.5, 4: 0.4, 5: 0.05, EOS: 0.05}
    if prefix[0] == 3:
        return {EOS: 0.3, 3: 0.25, 4: 0.25, 5: 0.2}
    return {EOS: 0.95, 3: 0.02, 4: 0.02, 5: 0.01}


def test_beam_two_beats_greedy_where_greedy_is_misled():
    src = torch.tensor([[3]])
    greedy = greedy_decode(
        HandModel(garden_path), SearchTask(src, config(beam=1, length_penalty=0.0), BOS, EOS)
    )
    beam = beam_search(
        HandModel(garden_path), SearchTask(src, config(beam=2, length_penalty=0.0), BOS, EOS)
    )
    assert greedy[0][0].tokens == [3]
    assert beam[0][0].tokens == [4]
    assert beam[0][0].log_prob == pytest.approx(math.log(0.4 * 0.95))


def test_beam_one_is_greedy_on_the_hand_model():
    for alpha in (0.0, 1.0):
        c = config(beam=1, length_penalty=alpha, max_len_b=6)
        beam = beam_search(HandModel(), SearchTask(SOURCES, c, BOS, EOS))
        greedy = greedy_decode(HandModel(), SearchTask(SOURCES, c, BOS, EOS))
        assert [h[0].tokens for h in beam] == [h[0].tokens for h in greedy]
        assert [h[0].log_prob for h in beam] == pytest.approx([h[0].log_prob for h in greedy])


def early_end_for_short(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """A source of one word ends at once; longer ones never choose EOS."""
    if len(source) == 1:
        return {EOS: 0.97, 3: 0.01, 4: 0.01, 5: 0.01}
    return {EOS: 0.01, 3: 0.97, 4: 0.01, 5: 0.01}


@pytest.mark.parametrize("beam", [1, 3])
def test_finished_sources_leave_the_batch(beam):
    model = HandModel(early_end_for_short)
    src = torch.tensor([[3, PAD], [4, PAD], [3, 4]])  # two sources end at step 0
    search = beam_search if beam > 1 else greedy_decode
    result = search(model, SearchTask(src, config(beam=beam, max_len_a=0.0, max_len_b=5), BOS, EOS))
    assert model.batch_sizes[0] == 3 * beam
    assert set(model.batch_sizes[1:]) == {beam}  # only the long source keeps decoding
    assert [h[0].tokens for h in result] == [[], [], [3] * 5]


def test_min_len_and_length_limit():
    model = HandModel(early_end_for_short)
    src = torch.tensor([[3]])
    [[hyp]] = beam_search(model, SearchTask(src, config(beam=2, min_len=2, max_len_b=4), BOS, EOS))
    assert 2 <= len(hyp.tokens) <= 4
    [[hyp]] = beam_search(
        HandModel(lambda s, p: {3: 0.99, 4: 0.01, EOS: 1e-6}),
        SearchTask(src, config(beam=2), BOS, EOS),
    )
    assert hyp.tokens == [3] * LIMIT  # EOS forced at the limit


@pytest.mark.parametrize("search", [beam_search, greedy_decode])
def test_the_length_limit_comes_before_min_len(search):
    src = torch.tensor([[3]])
    [[hyp]] = search(
        HandModel(early_end_for_short), SearchTask(src, config(min_len=9, max_len_b=4), BOS, EOS)
    )
    assert len(hyp.tokens) == 4  # not an empty n-best: EOS is still forced at the limit


def test_a_bos_that_is_the_padding_id_loses_no_hypothesis():
    """Marian models start decoding with the padding id: the same n-best lists as with BOS."""
    c = config(beam=3, n_best=3)
    ours = beam_search(HandModel(), SearchTask(SOURCES, c, PAD, EOS))
    plain = beam_search(HandModel(), SearchTask(SOURCES, c, BOS, EOS))
    assert [[h.tokens for h in hyps] for hyps in ours] == [
        [h.tokens for h in hyps] for hyps in plain
    ]
    assert all(len(hyps) == 3 for hyps in ours)
