"""Whether a translation holds the phrases it was held to (``TargetText.holds``): as text, however
the model spelt them in pieces, a Latin phrase as whole words and a number as a whole number."""

from types import SimpleNamespace

from fanyi.translate.target_text import TargetText


class Pieces:
    """A vocabulary whose ids are indices into a list of SentencePiece pieces."""

    def __init__(self, pieces: list[str]) -> None:
        self.pieces = pieces

    def decode(self, ids: list[int]) -> str:
        return "".join(self.pieces[i] for i in ids).replace("\u2581", " ").strip()


PIECES = ["\u2581Li", "\u2581Wei", "wei", "\u2581is", "\u2581here.", "\u2581in", "\u25812012", "12"]


def holds(tokens: list[int], phrases: list[list[int]]) -> bool:
    target = TargetText(SimpleNamespace(model=None), Pieces(PIECES))  # type: ignore[arg-type]
    return target.holds(tokens, [[phrase] for phrase in phrases])


def test_a_name_run_into_a_longer_word_is_not_held():
    li_wei = [0, 1]
    assert holds([0, 1, 3, 4], [li_wei])  # "Li Wei is here."
    assert not holds([0, 1, 2, 3, 4], [li_wei])  # "Li Weiwei is here."


def test_a_number_inside_a_longer_number_is_not_held():
    assert holds([5, 6], [[6]])  # "2012" in "in 2012"
    assert not holds([5, 6], [[7]])  # "12" in "in 2012"
    assert not holds([5, 6, 7], [[6]])  # "2012" in "in 201212"
