"""Normalisation: NFKC with Chinese punctuation kept, whitespace, Traditional → Simplified."""

from fanyi.data.normalize import Normalizer, nfkc, squeeze_whitespace, to_simplified


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
