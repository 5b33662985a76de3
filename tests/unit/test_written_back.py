"""What a text's translation becomes before it is returned (``Reading.written_back``): the
source's numbers and code as it wrote them, its list marker in front, and into Chinese no space
next to the punctuation, in the characters asked for."""

from fanyi.text import pipeline
from fanyi.text.options import TextOptions
from fanyi.text.transform import Context


def read(source: str, to: str, **options) -> pipeline.Reading:
    languages = {"zh": "en", "en": "zh"}
    return pipeline.read(source, Context(languages[to], to, TextOptions(**options)))


def test_into_chinese_no_space_is_left_next_to_its_punctuation():
    text = read("1. The chair has 54,000 doctors using `fanyi ,`.", "zh")
    assert text.text == "The chair has 54000 doctors using fanyi ,."
    written = text.written_back("主席 Dr Ellen McCourt ，有 54000 名医生 ， 用 fanyi , 。")
    assert written == "1. 主席 Dr Ellen McCourt，有 54,000 名医生，用 `fanyi ,`。"


def test_in_traditional_characters_after_the_spacing():
    text = read("This software needs a mouse.", "zh", chinese_script="tw")
    assert text.written_back("这个软件 ， 需要鼠标 。") == "這個軟體，需要滑鼠。"


def test_into_english_the_spaces_stay_as_the_model_wrote_them():
    assert read("他说，是。", "en").written_back("He said ， yes .") == "He said ， yes ."


def test_the_code_stays_as_written_in_traditional_characters():
    text = read("Call `软件` now.", "zh", chinese_script="tw")
    assert (
        text.written_back("现在调用 软件 。") == "現在呼叫 `软件`。"
    )  # Taiwan's word, the code as written
