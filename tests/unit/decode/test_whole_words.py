"""A phrase held as ``WholeWords``: once written, the search does not continue its last word
("Li Wei", not "Li Weiwei"); any other next piece, and any piece after another phrase, stays."""

import torch

from fanyi.decode.constraints import Progress, WholeWords, _Candidate, candidates

CONTINUING = torch.tensor([7, 8])  # the pieces that continue a word
VOCAB = 10


def live_after(tokens: list[int], phrases) -> list[_Candidate]:
    progress = Progress((False,) * len(phrases))
    for token in tokens:
        progress = progress.after(token, phrases)
    return [_Candidate(0.0, 0, tokens[-1], progress, progress.tokens_met(phrases))]


def next_tokens(phrases, written: list[int]) -> list[int]:
    log_probs = torch.log_softmax(torch.arange(VOCAB, dtype=torch.float)[None], dim=-1)
    found = candidates(log_probs, live_after(written, phrases), phrases, k=3, anywhere=False)
    return [c.token for c in found]


def test_a_whole_words_phrase_just_written_is_not_run_into_a_word():
    phrases = [WholeWords([[4, 5]], CONTINUING)]
    assert Progress((False,)).after(4, phrases).after(5, phrases).closed == 0
    found = next_tokens(phrases, [4, 5])
    assert found and not {7, 8} & set(found)  # 9 and 6 are the best left
    assert found[0] == 9


def test_a_plain_phrase_and_a_later_step_are_left_alone():
    assert 8 in next_tokens([[[4, 5]]], [4, 5])  # no WholeWords: any piece may follow
    phrases = [WholeWords([[4, 5]], CONTINUING)]
    assert 8 in next_tokens(phrases, [4, 5, 9])  # a word later, it may be continued
    assert Progress((False,)).after(4, phrases).after(5, phrases).after(9, phrases).closed == -1


def test_whole_words_is_its_spellings():
    phrase = WholeWords([[4, 5], [6]], CONTINUING)
    assert phrase == [[4, 5], [6]] and phrase.continuing is CONTINUING


def test_a_forced_piece_continues_the_word_where_nothing_else_may_follow():
    """A target prefix allows only its own next piece: "1400000" goes on after a held "14"."""
    phrases = [WholeWords([[4, 5]], CONTINUING)]
    forced = torch.full((1, VOCAB), float("-inf"))
    forced[0, 8] = 0.0  # the prefix's piece, one that continues the word
    found = candidates(forced, live_after([4, 5], phrases), phrases, k=3, anywhere=False)
    assert [c.token for c in found] == [8]


def proposed(phrases, written: list[int]) -> set[int]:
    """The tokens the held search proposes after ``written`` (anywhere: a phrase may begin),
    from log-probabilities that rank the phrases' pieces last."""
    log_probs = torch.log_softmax(-torch.arange(VOCAB, dtype=torch.float)[None], dim=-1)
    found = candidates(log_probs, live_after(written, phrases), phrases, k=1, anywhere=True)
    return {c.token for c in found}


def test_a_run_on_spelling_is_not_begun_after_a_piece_that_ends_a_word():
    """ "Exit" spelt run on (8) after "to" (3, ending a word) would read "toExit"; spelt as a word
    of its own (6) it is proposed, and after a piece that ends none (2: "(") so is the run on."""
    phrases = [WholeWords([[6], [8]], CONTINUING, ending=frozenset({3}), run_on=frozenset({8}))]
    after_word, after_bracket = proposed(phrases, [3]), proposed(phrases, [2])
    assert 6 in after_word and 8 not in after_word
    assert {6, 8} <= after_bracket
    assert 8 in proposed([[[6], [8]]], [3])  # no WholeWords: any spelling begins anywhere
