"""The phrases a text transform holds (``TargetText.held``): a phrase's forms (ALTERNATIVES between
them) are one constraint, any form holding it; a phrase that ends a Latin word is held as
whole words (after it, no piece that continues the word), one that ends a number as a whole
number (no digit after it, "21st" may stay); a Chinese phrase as it is."""

from types import SimpleNamespace

import torch

from fanyi.decode.constraints import WholeWords
from fanyi.text.transform import ALTERNATIVES
from fanyi.translate.target_text import TargetText

PIECES = ["\u2581Syria", "n", "\u2581border", "\u258121", "st", "9", "\u2581叙利亚", "亚"]


class Pieces:
    """A vocabulary whose ids are indices into PIECES; a phrase is its pieces by a lookup."""

    def __len__(self) -> int:
        return len(PIECES)

    def id_to_piece(self, i: int) -> str:
        return PIECES[i]

    def decode(self, ids: list[int]) -> str:
        return "".join(PIECES[i] for i in ids).replace("\u2581", " ").strip()


class Target(TargetText):
    def constraint(self, phrase: str, to: str) -> list[list[int]]:
        spelt = {"Syria": [0], "Syrian": [0, 1], "21": [3], "叙利亚": [6]}
        return [spelt[phrase]]


def target() -> Target:
    model = SimpleNamespace(max_len=64)
    return Target(SimpleNamespace(model=model), Pieces())  # type: ignore[arg-type]


def test_a_phrase_s_forms_are_one_constraint_any_form_holding_it():
    (held,) = target().held([f"Syria{ALTERNATIVES}Syrian"], "en")
    assert held == [[0], [0, 1]]
    assert target().holds([0, 1, 2], [held])  # "Syrian border"
    assert target().holds([0, 2], [held])


def test_a_latin_phrase_is_whole_words_a_number_a_whole_number_chinese_as_it_is():
    word, number, chinese = target().held(["Syria", "21", "叙利亚"], "en")
    assert isinstance(word, WholeWords) and set(word.continuing.tolist()) == {1, 4, 5}
    assert isinstance(number, WholeWords) and number.continuing.tolist() == [5]
    assert not isinstance(chinese, WholeWords) and chinese == [[6]]
    assert isinstance(word.continuing, torch.Tensor)
