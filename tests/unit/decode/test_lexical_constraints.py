"""Lexically constrained beam search (``constraints.py``): every hypothesis holds each phrase,
in one of its spellings, together and in order; it scores as teacher forcing does; the banks
share the beam as Post and Vilar (2018) deal it; bad constraints get a clear error."""

import pytest
import torch

from fanyi.decode import SearchOptions, SearchTask
from fanyi.decode.constraints import (
    Progress,
    _Candidate,
    allocate,
    ending,
)
from fanyi.decode.held_batch import constrained_search, constrained_searches
from fanyi.decode.hypothesis import length_penalty
from fanyi.decode.prefix import forced_tokens
from fanyi.decode.rerank import log_likelihoods
from foreign_device import foreign_device
from tiny_model import tiny_model

PAD, BOS, EOS, VOCAB = 0, 2, 3, 16
SOURCE = [5, 9, 4, 11, 7, EOS]
PHRASES = [[[6, 14, 6]], [[12], [13]]]  # two phrases; the second spelt 12 or 13


def holds(tokens: list[int], spellings: list[list[int]]) -> bool:
    return any(
        tokens[i : i + len(s)] == s for s in spellings for i in range(len(tokens) - len(s) + 1)
    )


def search(options: SearchOptions, phrases=PHRASES, prefix=None, seed=3):
    model = tiny_model(seed, vocab=VOCAB)
    forced = forced_tokens([prefix]) if prefix else None
    src = torch.tensor([SOURCE])
    task = SearchTask(src, options, BOS, EOS, forced=forced)
    return model, constrained_search(model, task, phrases)


def test_progress_follows_a_phrase_and_abandons_it_when_broken():
    phrases = [[[1, 2, 3]], [[4, 5], [6]]]
    p = Progress((False, False))
    assert p.wanted(phrases, anywhere=False) == set()
    assert p.wanted(phrases, anywhere=True) == {1, 4, 6}
    p = p.after(1, phrases).after(2, phrases)
    assert p.writing and p.tokens_met(phrases) == 2 and p.wanted(phrases, False) == {3}
    broken = p.after(9, phrases)
    assert not broken.writing and broken.met == (False, False)
    restarted = p.after(4, phrases)  # breaks the first phrase, starts the second's spelling
    assert restarted.current == (1, 0) and restarted.written == 1
    done = p.after(3, phrases).after(6, phrases)
    assert done.complete and done.tokens_met(phrases) == 3 + 2


def test_the_beam_is_dealt_evenly_among_the_banks_then_to_the_best_left():
    def cand(score, bank):
        return _Candidate(score, 0, 0, Progress((False,)), bank)

    ranked = [cand(-1.0, 0), cand(-1.5, 0), cand(-2.0, 0), cand(-3.0, 2), cand(-4.0, 1)]
    assert [c.bank for c in allocate(ranked, 3)] == [0, 2, 1]
    assert [c.log_prob for c in allocate(ranked, 4)] == [-1.0, -1.5, -3.0, -4.0]
    only_zero = [cand(-1.0, 0), cand(-2.0, 0)]
    assert allocate(only_zero, 4) == only_zero  # fewer than k: all


def test_only_a_hypothesis_with_every_phrase_ends_before_the_limit():
    def cand(score, token, met):
        return _Candidate(score, 0, token, Progress((met,)), 3 if met else 0)

    free, met, met_on = cand(-0.5, EOS, False), cand(-1.0, EOS, True), cand(-0.2, 7, True)
    ranked = [met_on, free, cand(-0.7, 8, False), met]
    assert ending(ranked, EOS, 2, at_limit=False) == [met]  # among its bank's k best
    assert ending(ranked, EOS, 1, at_limit=False) == []
    assert ending(ranked, EOS, 2, at_limit=True) == [free]  # at the limit: the k best of all


@pytest.mark.parametrize("beam, n_best", [(1, 1), (4, 1), (6, 3)])
def test_every_hypothesis_holds_every_phrase_and_scores_as_teacher_forcing(beam, n_best):
    options = SearchOptions(beam=beam, n_best=n_best, length_penalty=0.6)
    model, found = search(options)
    assert len(found) == n_best
    assert [h.score for h in found] == sorted((h.score for h in found), reverse=True)
    forced = log_likelihoods(model, [SOURCE] * len(found), [h.tokens for h in found])
    for h, want in zip(found, forced, strict=True):
        assert all(holds(h.tokens, spellings) for spellings in PHRASES), h.tokens
        assert h.log_prob == pytest.approx(want, abs=1e-5)
        assert h.score == pytest.approx(want / length_penalty(len(h.tokens) + 1, 0.6), abs=1e-5)


@pytest.mark.parametrize("seed", range(6))
def test_random_phrases_hold_on_random_models(seed):
    generator = torch.Generator().manual_seed(seed)
    phrases = [
        [torch.randint(4, VOCAB, (n,), generator=generator).tolist()]
        for n in torch.randint(1, 4, (2,), generator=generator).tolist()
    ]
    _, found = search(SearchOptions(beam=3), phrases=phrases, seed=seed)
    assert all(holds(found[0].tokens, spellings) for spellings in phrases), (phrases, found)


def test_a_target_prefix_comes_first_and_the_phrases_after_it():
    _, (best,) = search(SearchOptions(beam=3), prefix=[15, 15])
    assert best.tokens[:2] == [15, 15]
    assert all(holds(best.tokens, spellings) for spellings in PHRASES)


def test_attention_comes_with_each_hypothesis():
    _, found = search(SearchOptions(beam=3, n_best=2, attention=True))
    for h in found:
        assert h.attention is not None
        assert h.attention.shape == (len(h.tokens) + 1, len(SOURCE))
        assert torch.allclose(h.attention.sum(-1), torch.ones(len(h.tokens) + 1), atol=1e-5)


def test_its_tensors_follow_the_source_device():
    model = tiny_model(3, vocab=VOCAB)
    options, src = SearchOptions(beam=3, attention=True), torch.tensor([SOURCE])
    expected = constrained_search(model, SearchTask(src, options, BOS, EOS), PHRASES)
    with foreign_device():
        found = constrained_search(model, SearchTask(src, options, BOS, EOS), PHRASES)
    assert [h.tokens for h in found] == [h.tokens for h in expected]


@pytest.mark.parametrize(
    "phrases, options, message",
    [
        ([[[]]], SearchOptions(), "empty"),
        ([[]], SearchOptions(), "empty"),
        ([[[EOS]]], SearchOptions(), "no EOS"),
        ([[[VOCAB]]], SearchOptions(), "only target ids"),
        (PHRASES, SearchOptions(sampling=True), "not sampling"),
        ([[[5] * 5000]], SearchOptions(), "at most"),
    ],
)
def test_a_constraint_that_cannot_hold_is_refused(phrases, options, message):
    with pytest.raises(ValueError, match=message):
        search(options, phrases=phrases)


ALLOWED_SOFTMAX = {"suppress_ids": [9, 12, 14, 15], "allowed_softmax": True}


@pytest.mark.parametrize("softmax", [{}, ALLOWED_SOFTMAX], ids=["whole", "allowed"])
@pytest.mark.parametrize("beam", [1, 4])
def test_sources_searched_together_get_what_each_gets_alone(beam, softmax):
    """A batch of sources of other lengths, phrases and prefixes: each source's n-best (tokens,
    scores) as searched alone, though its searches end at other steps and leave the batch. With
    ``allowed_softmax`` each source allows its own phrases' suppressed pieces (9, 12, 14)."""
    model = tiny_model(5, vocab=VOCAB)
    sources = [SOURCE, [8, 4, EOS], [5, 9, 4, 11, 7, 10, 12, 6, 9, EOS], [7, 7, EOS]]
    phrases = [PHRASES, [[[9]]], [[[6, 14]], [[12]]], [[[4, 4]]]]
    prefixes = [None, [10], None, [5, 6]]
    options = SearchOptions(beam=beam, n_best=beam, max_len_b=8, **softmax)
    alone = []
    for source, held, prefix in zip(sources, phrases, prefixes, strict=True):
        forced = forced_tokens([prefix]) if prefix else None
        task = SearchTask(torch.tensor([source]), options, BOS, EOS, forced=forced)
        alone.append(constrained_search(model, task, held))
    width = max(map(len, sources))
    src = torch.tensor([s + [PAD] * (width - len(s)) for s in sources])
    task = SearchTask(src, options, BOS, EOS, forced=forced_tokens([p or [] for p in prefixes]))
    together = constrained_searches(model, task, phrases)
    for one, many in zip(alone, together, strict=True):
        assert [h.tokens for h in many] == [h.tokens for h in one]
        assert [h.score for h in many] == pytest.approx([h.score for h in one], abs=1e-5)
