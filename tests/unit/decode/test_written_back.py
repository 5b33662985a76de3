"""What a text's translation becomes before it is returned (``Pending.written_back``): the
source's numbers and code as it wrote them, its list marker in front, and into Chinese no space
next to the punctuation, in the characters asked for."""

from fanyi.text.list_markers import Marker
from fanyi.translate.pending import Pending


def pending(to: str, **fields) -> Pending:
    return Pending("source", to, [[1]], [None], **fields)


def test_into_chinese_no_space_is_left_next_to_its_punctuation():
    text = pending("zh", numbers=["54,000"], code=["`fanyi ,`"], marker=Marker("1.", " "))
    written = text.written_back("主席 Dr Ellen McCourt ，有 54000 名医生 ， 用 fanyi , 。")
    assert written == "1. 主席 Dr Ellen McCourt，有 54,000 名医生，用 `fanyi ,`。"


def test_in_traditional_characters_after_the_spacing():
    text = pending("zh", chinese_script="tw")
    assert text.written_back("这个软件 ， 需要鼠标 。") == "這個軟體，需要滑鼠。"


def test_into_english_the_spaces_stay_as_the_model_wrote_them():
    assert pending("en").written_back("He said ， yes .") == "He said ， yes ."
