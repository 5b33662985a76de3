"""Languages: normalisation (NFKC with Chinese punctuation kept, whitespace, Traditional →
Simplified), scripts, tags, tokenizers, and sentence splitting."""

import pytest

from fanyi.text.lang import (
    LONG_SENTENCE,
    Normalizer,
    add_tag,
    bleu_tokenizer,
    has_han,
    join_sentences,
    length_units,
    nfkc,
    split_sentences,
    split_tag,
    squeeze_whitespace,
    tidy_spacing,
    to_simplified,
    to_traditional,
)


def test_nfkc_folds_full_width_digits_and_letters_everywhere():
    assert nfkc("ＡＢＣ１２３") == "ABC123"
    assert nfkc("ＡＢＣ１２３", keep_cjk_punctuation=True) == "ABC123"


def test_nfkc_keeps_chinese_punctuation_only_when_asked():
    text = "你好，世界！真的？（是）……"
    assert nfkc(text, keep_cjk_punctuation=True) == text
    assert nfkc(text) == "你好,世界!真的?(是)......"


def test_nfkc_composes_across_kept_punctuation():
    assert nfkc("e\u0301，ﬁ", keep_cjk_punctuation=True) == "é，fi"


def test_whitespace_runs_become_one_space():
    assert squeeze_whitespace("  a\t b\u3000\u00a0c\u200b d \r") == "a b c d"


def test_simplified_to_each_traditional_script_leaving_the_kept_spans():
    text = "这个软件需要鼠标和内存。"
    assert to_traditional(text, "hant") == "這個軟件需要鼠標和內存。"
    assert to_traditional(text, "tw") == "這個軟體需要滑鼠和記憶體。"  # Taiwan's words
    assert to_traditional(text, "hk") == "這個軟件需要鼠標和內存。"
    code = '`print("你好")`'
    assert to_traditional(f"请用 {code} 问好。", "hant", [code]) == f"請用 {code} 問好。"
    assert to_simplified(to_traditional(text, "hant")) == text


def test_no_space_next_to_chinese_punctuation_but_the_kept_spans_as_written():
    assert tidy_spacing("领导人， Dr Ellen McCourt ，在") == "领导人，Dr Ellen McCourt，在"
    assert tidy_spacing("告诉 CBS Philadelphia 。") == "告诉 CBS Philadelphia。"
    assert tidy_spacing("他说： “好” 《 Nature 》 、 BMA") == "他说：“好”《Nature》、BMA"
    unchanged = "告诉 ABC 电台，Lauren “Laurie” Hernandez 在 2016 年……"  # Latin and Han apart
    assert tidy_spacing(unchanged) == unchanged
    code = '`print("a ， b")`'
    assert tidy_spacing(f"请用 {code} 。", [code]) == f"请用 {code}。"


def test_traditional_to_simplified():
    assert to_simplified("這們個嗎湯麼會裡") == "这们个吗汤么会里"
    assert to_simplified("我们来试试。") == "我们来试试。"


def test_normalizer_reports_the_steps_that_changed_the_text():
    zh = Normalizer("zh")
    assert zh.apply("湯姆　在這裡，２０歲。") == ("汤姆 在这里，20岁。", ["nfkc", "t2s"])
    assert zh.apply("湯姆  在這裡。") == ("汤姆 在这里。", ["whitespace", "t2s"])
    assert zh.apply("你好。") == ("你好。", [])


def test_normalizer_leaves_other_languages_unconverted_and_can_be_switched_off():
    assert Normalizer("en").apply("Ｔｏｍ， 這") == ("Tom, 這", ["nfkc"])
    assert Normalizer("zh", nfkc=False, t2s=False)("這，２") == "這，２"


def test_one_han_range_covers_every_block():
    for char in "中㐀豈𠀀𪜀":  # Unified, Extension A, Compatibility, Extensions B and C
        assert has_han(char) and length_units(f"{char}{char}") == 2
    assert not has_han("Hello, world") and not has_han("ＡＢＣ、。")  # punctuation is not Han


def test_length_units_count_han_characters_and_other_words():
    assert length_units("汤姆的狗") == 4
    assert length_units("Tom's dog ran.") == 3
    assert length_units("我有3只猫 cats") == 6


def test_tags_tokenizers_and_joining():
    assert add_tag("你好", "en") == "<2en> 你好" and split_tag("<2en> 你好") == ("<2en>", "你好")
    assert split_tag("<b> not a tag") == (None, "<b> not a tag")
    assert [bleu_tokenizer(lang) for lang in ("zh", "en", "de")] == ["zh", "13a", "13a"]
    assert join_sentences(["你好。", "谢谢！"], "zh") == "你好。谢谢！"
    assert join_sentences(["Hello.", "Thanks!"], "en") == "Hello. Thanks!"


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("我很好。你呢？我们走吧！", ["我很好。", "你呢？", "我们走吧！"]),
        ("I'm fine. And you? Let's go!", ["I'm fine.", "And you?", "Let's go!"]),
        ("他说：“你好。”然后走了。", ["他说：“你好。”", "然后走了。"]),  # the quote stays
        ('He said "Hello." Then he left.', ['He said "Hello."', "Then he left."]),
        ("(See the map.) It is far.", ["(See the map.)", "It is far."]),
        ("It costs 3.5 dollars. That is cheap.", ["It costs 3.5 dollars.", "That is cheap."]),
        ("Mr. Smith met Dr. Jones. They talked.", ["Mr. Smith met Dr. Jones.", "They talked."]),
        ("J. K. Rowling wrote it.", ["J. K. Rowling wrote it."]),
        ("Bring fruit, e.g. apples. Thanks.", ["Bring fruit, e.g. apples.", "Thanks."]),
        ("Wait... what? No!", ["Wait... what?", "No!"]),
        # a list item's number is no sentence: "1." alone came out 1。
        ("1. Open the file. Then save it.", ["1. Open the file.", "Then save it."]),
        ("iv. Check the cable.", ["iv. Check the cable."]),
        ("2.实地巡查。至9月底", ["2.实地巡查。", "至9月底"]),
        ("It was 1999. Then it was 2000.", ["It was 1999.", "Then it was 2000."]),
        ("Chapter 12. Results", ["Chapter 12.", "Results"]),
        (
            "Herr Dr. Müller kommt um 3 Uhr. Er ist pünktlich.",
            ["Herr Dr. Müller kommt um 3 Uhr.", "Er ist pünktlich."],
        ),
        ("I love Beijing.我爱北京。", ["I love Beijing.", "我爱北京。"]),  # mixed scripts
        ("Visit example.com today", ["Visit example.com today"]),
        ("  No end mark  ", ["No end mark"]),
        ("", []),
        ("   ", []),
    ],
)
def test_split_sentences(text, sentences):
    lang = "zh" if has_han(text) else "de" if "Müller" in text else "en"
    assert split_sentences(text, lang) == sentences


def test_far_too_long_sentences_are_cut_after_semicolons():
    clause = "我们先去北京看了长城和故宫然后又去上海"  # 19 units
    text = "；".join([clause] * 6) + "。"
    pieces = split_sentences(text, "zh")
    assert length_units(text) > LONG_SENTENCE and len(pieces) > 1
    assert all(length_units(p) <= LONG_SENTENCE for p in pieces)
    assert "".join(pieces) == text  # nothing lost, nothing added
    english = "; ".join(["we walked to the old bridge by the river and sat there"] * 6) + "."
    pieces = split_sentences(english, "en")
    assert len(pieces) > 1 and " ".join(pieces) == english
    short = "我很好；你呢？"  # a short sentence keeps its semicolon clauses together
    assert split_sentences(short, "zh") == ["我很好；你呢？"]
