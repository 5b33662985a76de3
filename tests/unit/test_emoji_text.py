"""Emoji and characters beyond Unicode's first plane (``emoji.py``): read out of a text with
their joiners, the words closed up, and written back into a translation in their place, each
run once, whatever the translation."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fanyi.text.emoji import RUN, read_out, written_back
from fanyi.text.lang import squeeze_whitespace

FAMILY, FLAG, HEART = "👩\u200d👩\u200d👧", "🇨🇳", "❤\ufe0f"


@pytest.mark.parametrize(
    "text, read, translation, to, expected",
    [
        ("Good morning 😀", "Good morning", "早上好", "zh", "早上好😀"),
        ("😀 Good morning!", "Good morning!", "早上好！", "zh", "😀早上好！"),
        ("Good morning. 😀", "Good morning.", "早上好。", "zh", "早上好。😀"),
        ("我很高兴😀。", "我很高兴。", "I'm glad.", "en", "I'm glad 😀."),
        ("我很高兴😀", "我很高兴", "I'm glad.", "en", "I'm glad 😀."),
        ("今天很好🌞，我们走吧！", "今天很好，我们走吧！", "Fine today, let's go!", "en",
         "Fine today 🌞, let's go!"),
        ("他说：😀我来了。", "他说：我来了。", "He said: I am coming.", "en",
         "He said: 😀 I am coming."),
        ("Hello 😀. How are you?", "Hello. How are you?", "你好。你好吗？", "zh", "你好😀。你好吗？"),
        (f"{FAMILY} is a family.", "is a family.", "是一家人。", "zh", f"{FAMILY}是一家人。"),
        (f"The flag {FLAG} is red.", "The flag is red.", "旗子是红色的。", "zh", f"旗子是{FLAG}红色的。"),
        (f"I love you {HEART} so much.", "I love you so much.", "Je t'aime tant.", "fr",
         f"Je t'aime {HEART} tant."),
        ("𠀀是一个字。", "是一个字。", "It is a word.", "en", "𠀀 It is a word."),
        ("Keycap 1\ufe0f\u20e3 here.", "Keycap here.", "Here.", "en", "Here 1\ufe0f\u20e3."),
        ("a 😀 😀 b", "a b", "x y", "en", "x 😀 😀 y"),
        ("😀", "", "", "en", "😀"),
        ("No emoji © 2024.", "No emoji © 2024.", "没有。", "zh", "没有。"),
    ],
)  # fmt: skip
def test_runs_are_read_out_and_written_back_in_their_place(text, read, translation, to, expected):
    rest, places = read_out(text)
    assert rest == read
    assert written_back(translation, places, to) == expected


def test_a_run_the_translation_holds_already_is_not_written_again():
    _, places = read_out("Send 😀 now 😀.")
    assert written_back("现在发😀。", places, "zh").count("😀") == 2
    assert written_back("😀😀", places, "zh") == "😀😀"


def test_a_joiner_between_emoji_survives_normalisation():
    assert squeeze_whitespace(f" {FAMILY}\u200d ") == FAMILY  # one family, not three people
    assert squeeze_whitespace("a\u200db\u200b c") == "a b c"  # elsewhere a space, as before


WORDS = st.sampled_from(["我", "很", "好", "Good", "morning", " ", "。", "，", ".", ",", "!", "1"])
COPIED = st.sampled_from(["😀", "𠀀", FLAG, FAMILY, HEART, "⭐", "1\ufe0f\u20e3", "🙏🙏"])


@given(
    st.lists(WORDS | COPIED, max_size=12),
    st.lists(WORDS, max_size=10),
    st.sampled_from(["en", "zh"]),
)
@example(["1\ufe0f\u20e3", "我", "😀", "我"], [], "zh")  # a run written inside an earlier one
def test_every_run_comes_back_once_and_nothing_else_is_added(pieces, words, to):
    text, translation = "".join(pieces), "".join(words)
    rest, places = read_out(text)
    runs = RUN.findall(text)
    assert not RUN.search(rest) and [p.run for p in places] == runs
    written = written_back(translation, places, to)
    assert sorted("".join(RUN.findall(written)).replace(" ", "")) == sorted(
        "".join(runs).replace(" ", "")
    )
    assert "".join(RUN.sub("", written).split()) == "".join(translation.split())
