"""Names in Latin letters inside Chinese text (``text/names_latin.py``): held as written where
they are written against the Chinese, with their lower case too where only capitalised."""

from fanyi.text.names import names_to_hold
from fanyi.text.names_latin import latin_names
from fanyi.text.transform import ALTERNATIVES


def test_a_name_against_chinese_text_is_held_as_written():
    assert latin_names("她跟CNN的记者谈了。") == [(2, "CNN", "CNN")]  # an acronym as written
    assert latin_names("SaskTel的用户Lindsay Gay说") == [
        (0, "SaskTel", "SaskTel"),
        (10, "Lindsay Gay", f"Lindsay Gay{ALTERNATIVES}lindsay gay"),
    ]
    assert latin_names("多斯（Doss）的故事")[0][1] == "Doss"


def test_a_name_with_spaces_around_it_a_word_of_code_or_english_is_left_alone():
    assert latin_names("他的哥哥 Louis Galicia 说") == []  # the model copies it whole
    assert latin_names("调用print()函数") == []  # no capital: code
    assert latin_names("Hello, World") == []  # no Chinese: an English line
    assert latin_names("他说Hello to all of you my friends") == []  # more than four words


def test_latin_names_come_in_the_order_of_the_sentence_among_the_dictionarys():
    held = names_to_hold("Pugh女士在剑桥的Papworth医院。", "zh")
    assert [name for name, _ in held] == ["Pugh", "剑桥", "Papworth"]
    ((name, forms),) = names_to_hold("我叫Tom。", "zh")
    assert (name, forms.split(ALTERNATIVES)) == ("我叫Tom", ["My name is Tom", "My name is tom"])


def test_a_dictionary_names_english_with_spaces_around_is_held_as_written():
    known = {"Treaty of Nanjing", "San Francisco"}
    sentence = "1842年签订了 Treaty of Nanjing 。"
    held = "Treaty of Nanjing" + ALTERNATIVES + "treaty of nanjing"
    assert latin_names(sentence, known) == [(9, "Treaty of Nanjing", held)]
    assert latin_names(sentence) == []  # with spaces around, no other name is held
    assert latin_names("我喜欢 Python 。", known) == []


def test_a_speakers_own_name_read_in_english_is_held_with_the_words_that_give_it():
    held = "My name is Anna" + ALTERNATIVES + "My name is anna"
    assert names_to_hold("我叫 Anna 。", "zh") == [("我叫 Anna", held)]
    assert names_to_hold("我叫 Anna 来。", "zh") == [("Anna", "Anna" + ALTERNATIVES + "anna")]
