"""The script penalty β (``script_penalty``, ``penalized_ids``; ``for_target`` adds the pieces in
the other language's script): each penalised id loses β of log-probability at every step, in
every search, so the model keeps it only where it is more than e^β times likelier than the next
choice; a target prefix's own ids are never penalised, and a suppressed id stays suppressed."""

import math

import pytest
import torch
from hand_model import BOS, EOS, HandModel

from fanyi.decode import SearchOptions, SearchTask, beam_search, greedy_decode, sample
from fanyi.decode.options import for_target
from fanyi.decode.prefix import forced_tokens
from fanyi.text.lang import in_other_script

SRC = torch.tensor([[3, 4]])
TWICE = math.log(2)  # 3 is twice as likely as 4


def likes_three(source: tuple[int, ...], prefix: tuple[int, ...]) -> dict[int, float]:
    """3 is the likeliest word, then 4 (half as likely), then 5; after two words, EOS."""
    return {EOS: 0.9, 5: 0.1} if len(prefix) >= 2 else {3: 0.6, 4: 0.3, 5: 0.08, EOS: 0.02}


def config(**overrides) -> SearchOptions:
    return SearchOptions(**{"max_len_a": 0.0, "max_len_b": 4, "length_penalty": 0.0, **overrides})


def found(name: str, **options):
    """The best hypothesis of search ``name`` (sampling: top-1, seeded) for SRC."""
    model = HandModel(likes_three)
    if name == "beam":
        return beam_search(model, SearchTask(SRC, config(beam=3, **options), BOS, EOS))[0][0]
    if name == "sampling":
        options |= {"sampling": True, "top_k": 1, "seed": 0}
    search = sample if name == "sampling" else greedy_decode
    return search(model, SearchTask(SRC, config(**options), BOS, EOS))[0][0]


@pytest.mark.parametrize("name", ["greedy", "beam", "sampling"])
def test_a_penalised_id_is_kept_only_while_beta_is_below_its_lead(name):
    assert found(name, penalized_ids=[3], script_penalty=0.0).tokens == [3, 3]
    assert found(name, penalized_ids=[3], script_penalty=TWICE - 0.1).tokens == [3, 3]
    assert found(name, penalized_ids=[3], script_penalty=TWICE + 0.1).tokens == [4, 4]


def test_the_score_includes_the_penalty():
    hyp = found("beam", penalized_ids=[3], script_penalty=0.5)
    assert hyp.log_prob == pytest.approx(2 * (math.log(0.6) - 0.5) + math.log(0.9))


def test_a_target_prefix_s_own_ids_are_never_penalised():
    model = HandModel(likes_three)
    options = config(penalized_ids=[3], script_penalty=5.0)
    (hyp,) = greedy_decode(model, SearchTask(SRC, options, BOS, EOS, forced=forced_tokens([[3]])))[
        0
    ]
    assert hyp.tokens == [3, 3]
    assert hyp.log_prob == pytest.approx(2 * math.log(0.6) + math.log(0.9))


def test_a_suppressed_id_stays_suppressed_when_also_penalised():
    hyp = found("greedy", suppress_ids=[3], penalized_ids=[3, 4], script_penalty=0.1)
    assert hyp.tokens == [4, 4]
    assert hyp.log_prob == pytest.approx(2 * (math.log(0.3) - 0.1) + math.log(0.9))


def test_for_target_takes_the_beta_of_its_language_and_adds_the_other_script():
    options = SearchOptions(script_penalty=1.0, script_penalty_by_target={"en": 0.0})
    into_zh = for_target(options, "zh", other=[11, 12])
    assert (into_zh.script_penalty, into_zh.penalized_ids) == (1.0, [11, 12])
    assert not into_zh.script_penalty_by_target  # applied, once
    into_en = for_target(options, "en", other=[21])
    assert (into_en.script_penalty, into_en.penalized_ids) == (0.0, [])
    assert SearchOptions(script_penalty_by_target={"zh": 2}).per_target


@pytest.mark.parametrize(
    "bad",
    [
        {"script_penalty": -1.0},
        {"script_penalty": math.nan},
        {"script_penalty": math.inf},
        {"script_penalty_by_target": {"zh": -0.5}},
        {"penalized_ids": [-1]},
        {"penalized_ids": ["3"]},
    ],
)
def test_bad_penalties_are_refused(bad):
    with pytest.raises(ValueError, match=r"script_penalty|penalized_ids"):
        SearchOptions(**bad)


@pytest.mark.parametrize(
    ("lang", "piece", "other"),
    [
        ("zh", "▁Hello", True),
        ("zh", "NHS", True),
        ("zh", "你好", False),
        ("zh", "▁2020", False),
        ("zh", "，", False),
        ("en", "你", True),
        ("en", "。", True),
        ("en", "▁Hello", False),
        ("en", "▁2020", False),
    ],
)
def test_which_pieces_are_in_the_other_script(lang, piece, other):
    assert in_other_script(lang, piece) is other
