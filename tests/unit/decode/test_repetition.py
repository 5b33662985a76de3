"""no_repeat_ngram_size and repetition_penalty: the step's log-probabilities against
hand-computed cases, then greedy decoding, sampling and beam search on a hand-set model that
stutters (its most probable next word is always 3)."""

import itertools
import math

import pytest
import torch
from hand_model import BOS, EOS, HandModel

from fanyi.decode import SearchOptions, SearchTask, beam_search, greedy_decode, sample
from fanyi.decode.repetition import penalise_repeats

P = [0.1, 0.2, 0.3, 0.25, 0.15]  # one row's next-token probabilities over a vocabulary of 5


def step(prefix: list[int], penalty: float = 1.0, n: int = 0) -> list[float]:
    log_probs = torch.tensor([P], dtype=torch.float64).log()
    c = SearchOptions(repetition_penalty=penalty, no_repeat_ngram_size=n)
    return penalise_repeats(log_probs, torch.tensor([prefix]), c)[0].tolist()


def test_the_penalty_multiplies_the_log_probs_of_tokens_already_there():
    got = step([BOS, 2, 3, 2], penalty=2.0)  # 2 twice: once penalised, not twice
    want = [math.log(0.1), math.log(0.2), 2 * math.log(0.3), 2 * math.log(0.25), math.log(0.15)]
    assert got == pytest.approx(want)
    assert step([BOS, 2, 3], penalty=1.0) == pytest.approx([math.log(p) for p in P])


@pytest.mark.parametrize(
    ("prefix", "n", "banned"),
    [
        ([BOS, 1, 2, 1], 2, {2}),  # bigrams 1 2, 2 1: after 1, 2 would repeat "1 2"
        ([BOS, 1, 2, 1, 2], 3, {1}),  # trigrams 1 2 1, 2 1 2: after "1 2", 1 would repeat
        ([BOS, 4, 1, 4], 1, {1, 4}),  # unigrams: every token already there
        ([BOS, 1, 2], 3, set()),  # no trigram yet
        ([BOS], 1, set()),
    ],
)
def test_a_token_that_would_repeat_an_ngram_is_forbidden(prefix, n, banned):
    got = step(prefix, n=n)
    assert {i for i, x in enumerate(got) if x == -math.inf} == banned
    assert [x for i, x in enumerate(got) if i not in banned] == pytest.approx(
        [math.log(p) for i, p in enumerate(P) if i not in banned]
    )


def stutter(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """3 is always the likeliest word; after three words, EOS."""
    return {EOS: 0.9, 5: 0.1} if len(prefix) >= 3 else {3: 0.6, 4: 0.35, EOS: 0.05}


SRC = torch.tensor([[3, 4]])
LOG = {w: math.log(p) for w, p in stutter((), ()).items()}


def config(**overrides) -> SearchOptions:
    return SearchOptions(**{"max_len_a": 0.0, "max_len_b": 6, "length_penalty": 0.0, **overrides})


@pytest.mark.parametrize("search", ["greedy", "sampling"])  # sampling with top_k 1: greedy
@pytest.mark.parametrize(
    ("options", "tokens", "log_prob"),
    [
        ({}, [3, 3, 3], 3 * LOG[3] + math.log(0.9)),
        ({"no_repeat_ngram_size": 1}, [3, 4], LOG[3] + LOG[4] + LOG[EOS]),
        ({"no_repeat_ngram_size": 2}, [3, 3, 4], 2 * LOG[3] + LOG[4] + math.log(0.9)),
        # step 2: 3·log 0.6 = -1.53 < log 0.35 = -1.05 → 4; step 3: 3 (-1.53) over EOS (-3.0)
        ({"repetition_penalty": 3.0}, [3, 4, 3], LOG[3] + LOG[4] + 3 * LOG[3] + math.log(0.9)),
    ],
)
def test_greedy_and_sampling_follow_the_hand_computed_path(search, options, tokens, log_prob):
    if search == "greedy":
        (hyp,) = greedy_decode(
            HandModel(stutter), SearchTask(SRC, config(beam=1, **options), BOS, EOS)
        )[0]
    else:
        c = config(sampling=True, top_k=1, seed=0, **options)
        (hyp,) = sample(HandModel(stutter), SearchTask(SRC, c, BOS, EOS))[0]
    assert hyp.tokens == tokens
    assert hyp.log_prob == pytest.approx(log_prob)


def controlled_log_prob(words: tuple[int, ...], penalty: float, n: int) -> float:
    """log P of ``words`` then EOS under both controls, from their definitions, step by step."""
    total = 0.0
    for i, w in enumerate((*words, EOS)):
        before = words[:i]
        if n and len(before) >= n - 1:
            grams = {before[j : j + n] for j in range(len(before) - n + 1)}
            if (*before[len(before) - (n - 1) :], w) in grams:
                return -math.inf
        p = stutter((), before).get(w, 0.0)
        if p == 0.0:
            return -math.inf
        total += math.log(p) * (penalty if w in before else 1.0)
    return total


@pytest.mark.parametrize(
    "options",
    [{"no_repeat_ngram_size": 1}, {"no_repeat_ngram_size": 2}, {"repetition_penalty": 3.0}],
)
def test_beam_search_finds_the_best_hypothesis_under_the_controls(options):
    """A beam as wide as every hypothesis of at most 4 words: the exhaustive best, EOS not
    before one word (min_len 1)."""
    penalty, n = options.get("repetition_penalty", 1.0), options.get("no_repeat_ngram_size", 0)
    every = [w for k in range(1, 5) for w in itertools.product((3, 4, 5), repeat=k)]
    scored = sorted(((controlled_log_prob(w, penalty, n), list(w)) for w in every), reverse=True)
    c = config(beam=40, n_best=2, min_len=1, max_len_b=4, **options)
    found = beam_search(HandModel(stutter), SearchTask(SRC, c, BOS, EOS))[0]
    # the best two scores (permutations of the same words may tie), each the found one's own
    assert [h.log_prob for h in found] == pytest.approx([s for s, _ in scored[:2]])
    for h in found:
        assert controlled_log_prob(tuple(h.tokens), penalty, n) == pytest.approx(h.log_prob)
