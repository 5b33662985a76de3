"""A target prefix: greedy decoding, beam search and sampling start every hypothesis with it, and
score the whole output as teacher forcing does (the prefix's log-probabilities included)."""

import pytest
import torch

from fanyi.decode import SearchOptions, decode
from fanyi.decode.hypothesis import length_penalty
from fanyi.decode.prefix import FREE, first_pieces, force_prefix, forced_tokens
from fanyi.decode.rerank import log_likelihoods
from foreign_device import foreign_device
from tiny_model import tiny_model

PAD, BOS, EOS, VOCAB = 0, 2, 3, 16
SOURCES = [[5, 9, 4, 11, EOS], [7, 7, EOS], [12, 6, 8, EOS], [4, 13, 10, 5, 9, 14, EOS]]
PREFIXES = [[6, 9, 9], [], [15], [4, 5, 6, 7, 8, 10]]


def padded(rows: list[list[int]]) -> torch.Tensor:
    width = max(map(len, rows))
    return torch.tensor([row + [PAD] * (width - len(row)) for row in rows])


def search(options: SearchOptions, prefixes=PREFIXES, sources=SOURCES):
    model = tiny_model(3, vocab=VOCAB)
    found = decode(model, padded(sources), options, BOS, EOS, forced=forced_tokens(prefixes))
    return model, found


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(beam=1, length_penalty=0.6),
        SearchOptions(beam=4, n_best=3, length_penalty=0.6),
        SearchOptions(sampling=True, n_best=3, seed=7, temperature=1.5, top_k=5),
    ],
    ids=["greedy", "beam", "sampling"],
)
def test_every_hypothesis_starts_with_its_prefix_and_scores_as_teacher_forcing(options):
    model, found = search(options)
    for source, prefix, hypotheses in zip(SOURCES, PREFIXES, found, strict=True):
        assert len(hypotheses) == options.n_best
        targets = [h.tokens for h in hypotheses]
        assert all(t[: len(prefix)] == prefix for t in targets)
        forced = log_likelihoods(model, [source] * len(targets), targets)
        for h, want in zip(hypotheses, forced, strict=True):
            assert h.log_prob == pytest.approx(want, abs=1e-5)
            assert h.score == pytest.approx(
                want / length_penalty(len(h.tokens) + 1, options.length_penalty), abs=1e-5
            )


def test_beam_search_without_prefixes_is_unchanged():
    options = SearchOptions(beam=3, n_best=2)
    _, plain = search(options, prefixes=None)
    _, empty = search(options, prefixes=[[] for _ in SOURCES])
    assert [[h.tokens for h in hs] for hs in plain] == [[h.tokens for h in hs] for hs in empty]


def test_a_prefix_longer_than_the_length_limit_is_followed_then_ends():
    options = SearchOptions(beam=2, max_len_a=0.0, max_len_b=1)
    _, found = search(options)
    for prefix, hypotheses in zip(PREFIXES, found, strict=True):
        assert hypotheses[0].tokens == (prefix or hypotheses[0].tokens)
    assert len(found[1][0].tokens) == 1  # no prefix: the limit as before


def test_min_len_counts_the_prefix_and_applies_after_it():
    _, found = search(SearchOptions(beam=1, min_len=8, max_len_a=0.0, max_len_b=12))
    assert all(len(hs[0].tokens) >= 8 for hs in found)


def test_a_prefix_the_repetition_controls_forbid_is_still_followed():
    options = SearchOptions(beam=3, no_repeat_ngram_size=1)
    _, found = search(options, prefixes=[[6, 6, 6]] * len(SOURCES))
    assert all(h.tokens[:3] == [6, 6, 6] for hs in found for h in hs)


@pytest.mark.parametrize("bad", [[5, EOS], [PAD], list(range(4, 14)) * 110])
def test_eos_padding_or_a_prefix_beyond_the_positions_is_refused(bad):
    with pytest.raises(ValueError, match="target prefix"):
        search(SearchOptions(beam=1), prefixes=[bad, [], [], []])


def test_a_negative_id_is_refused():
    with pytest.raises(ValueError, match="negative"):
        forced_tokens([[4, -1]])


def test_forcing_keeps_one_token_per_prefixed_row_with_its_own_log_prob():
    log_probs = torch.log_softmax(torch.randn(3, 6), dim=-1)
    forced = torch.tensor([[4, 1], [FREE, FREE], [2, FREE]])
    got = force_prefix(log_probs.clone(), 0, forced)
    assert got[0].isfinite().nonzero().flatten().tolist() == [4]
    assert got[0, 4] == log_probs[0, 4]
    assert torch.equal(got[1], log_probs[1])
    assert got[2].isfinite().nonzero().flatten().tolist() == [2]
    assert torch.equal(force_prefix(log_probs.clone(), 2, forced), log_probs)  # past the prefix


def test_the_pieces_of_a_long_source_carry_its_prefix_on_the_first_only():
    forced = torch.tensor([[4, 5], [6, FREE]])
    got = first_pieces(forced, [0, 0, 1, 1, 1])
    assert got.tolist() == [[4, 5], [FREE, FREE], [6, FREE], [FREE, FREE], [FREE, FREE]]


@pytest.mark.parametrize(
    "options",
    [
        SearchOptions(beam=1),
        SearchOptions(beam=3, n_best=2),
        SearchOptions(sampling=True, n_best=2, seed=1, top_p=0.9),
        SearchOptions(beam=2, long_input="split"),
    ],
    ids=["greedy", "beam", "sampling", "split"],
)
def test_forcing_makes_its_tensors_on_the_input_device_and_workers_agree(options):
    """``meta`` as the default device (``foreign_device``): a tensor made without the input's
    device fails; two worker processes search as one does."""
    model, src, forced = (
        tiny_model(3, vocab=VOCAB, max_len=5),
        padded(SOURCES),
        forced_tokens([*PREFIXES[:3], [4]]),
    )
    expected = decode(model, src, options, BOS, EOS, forced=forced)
    with foreign_device():
        found = decode(model, src, options, BOS, EOS, forced=forced)
    tokens = [[h.tokens for h in hs] for hs in expected]
    assert [[h.tokens for h in hs] for hs in found] == tokens
    if not options.sampling:  # each worker draws from its own seeded generator
        two = decode(model, src, options, BOS, EOS, workers=2, forced=forced)
        assert [[h.tokens for h in hs] for hs in two] == tokens
    assert all(hs[0].tokens[:1] == [4] for hs in expected[3:])
