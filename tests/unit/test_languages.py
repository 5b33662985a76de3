"""Languages as people write them: BCP 47 and ISO 639 codes in any case, the script a mixed line
is written in, and the way a text goes (detected, forced, or already in the language asked)."""

import pytest

from fanyi.text.languages import Direction, Language, Languages, language, written_script

ZH_EN = Languages("zh", "en", bidirectional=True)


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("zh", Language("zh")),
        ("ZH", Language("zh")),
        ("zho", Language("zh")),
        ("cmn", Language("zh")),
        ("zh-CN", Language("zh", "hans")),
        ("zh_cn", Language("zh", "hans")),
        ("zh-Hans", Language("zh", "hans")),
        ("zh-SG", Language("zh", "hans")),
        ("zh-TW", Language("zh", "tw")),
        ("zh-Hant-TW", Language("zh", "tw")),
        ("cmn-Hant-TW", Language("zh", "tw")),
        ("zh-HK", Language("zh", "hk")),
        ("zh-hant", Language("zh", "hant")),
        ("zh-MO", Language("zh", "hant")),  # Traditional, no characters of its own in OpenCC
        ("en", Language("en")),
        ("en-US", Language("en")),
        ("EN-gb", Language("en")),
        ("eng", Language("en")),
        (" en ", Language("en")),
    ],
)
def test_codes_as_people_write_them(code, named):
    assert language(code) == named


@pytest.mark.parametrize("code", ["", "xx", "12", "english", "zh-", "z"])
def test_what_is_no_language_code(code):
    with pytest.raises(ValueError, match="not a language code"):
        language(code)


def test_chinese_in_latin_script_is_refused():
    with pytest.raises(ValueError, match="Han characters"):
        language("zh-Latn")


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("I met 王小明 yesterday.", "Latin"),
        ("I met 王小明 today.", "Latin"),
        ("我的朋友 Li Wei 来自 Boston。", "Han"),
        ("安装 numpy 和 pandas", "Han"),  # a tie: the script it starts with
        ("在 Windows 上运行 pip install fanyi 即可。", "Han"),
        ("请访问 https://docs.python.org/zh-cn/3/ 了解更多。", "Han"),  # a link is not words
        ("使用 `asyncio.run()` 运行协程。", "Han"),  # nor inline code
        ("The word 你好 means hello.", "Latin"),
        ("Call 张伟 at the office.", "Latin"),
        ("他在 Google 工作。", "Han"),
        ("我很好。", "Han"),
        ("I am fine.", "Latin"),
        ("２０２４", "Latin"),  # neither: Latin
        ("", "Latin"),
    ],
)
def test_a_mixed_line_is_in_the_script_most_of_its_words_are(text, script):
    assert written_script(text) == script


def test_directions_of_a_bidirectional_model():
    assert ZH_EN.targets == ["en", "zh"]
    assert ZH_EN.target_of("我很好。") == "en" and ZH_EN.target_of("I am fine.") == "zh"
    assert ZH_EN.target_of("I met 王小明 yesterday.") == "zh"
    assert ZH_EN.target_of("我的朋友 Li Wei 来自 Boston。") == "en"
    assert ZH_EN.target_of("") == "zh"  # no Han: read as the Latin-script side
    assert ZH_EN.target_of("I am fine.", to="zh-TW") == "zh"
    de_en = Languages("de", "en", bidirectional=True)
    assert de_en.target_of("Ein Hund.", to="en-GB") == "en" and de_en.source_of("de") == "en"
    with pytest.raises(ValueError, match="share a script"):
        de_en.target_of("Ein Hund.")
    assert de_en.target_of("  ") == "en"
    assert Languages("de", "en").target_of("Ein Hund.") == "en"  # one way: nothing to detect


def test_a_target_code_names_the_chinese_characters():
    assert ZH_EN.direction("Hello.", "zh-TW") == Direction("en", "zh", "tw")
    assert ZH_EN.direction("Hello.", "zh-Hant") == Direction("en", "zh", "hant")
    assert ZH_EN.direction("Hello.", "zh") == Direction("en", "zh", None)  # the option's own
    assert ZH_EN.direction("你好。", "en-US") == Direction("zh", "en", None)


def test_a_target_the_model_lacks_is_one_line_naming_what_it_can_do():
    for code in ("fr", "de-DE", "xx"):
        with pytest.raises(ValueError, match=r"this model translates into en \(.*eng\) and zh \("):
            ZH_EN.target_of("hello", to=code)
    with pytest.raises(ValueError) as error:
        ZH_EN.target_of("hello", to="fr")
    assert "\n" not in str(error.value) and str(error.value).endswith("not 'fr'")
    with pytest.raises(ValueError, match=r"translates into zh .*, not 'en'"):
        Languages("en", "zh").target_of("你好", to="en")


def test_the_source_forced_and_the_text_in_the_language_asked():
    assert ZH_EN.direction("Boston", source="zh") == Direction("zh", "en")  # forced, not detected
    assert ZH_EN.direction("I met 王小明.", source="eng") == Direction("en", "zh")
    assert ZH_EN.direction("I am fine.", "en").unchanged
    assert ZH_EN.direction("我很好。", "zh-CN").unchanged
    assert ZH_EN.direction("我很好。", "zh-TW") == Direction("zh", "zh", "tw")
    assert ZH_EN.direction("Boston", "en", source="zh") == Direction("zh", "en")
    assert not ZH_EN.direction("I am fine.").unchanged
    one_way = Languages("zh", "en")
    assert one_way.direction("I am fine.").unchanged  # English into English: as it is
    assert one_way.direction("Hello", source="en").unchanged
    with pytest.raises(ValueError, match="translates from zh and en, not from 'fr'"):
        ZH_EN.direction("Bonjour.", source="fr")
