"""How ``scripts/build_names_table.py`` reads a name from a CC-CEDICT gloss: the name, not the
words that place or describe it, and nothing where the gloss lists several names."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build_names_table.py"
spec = importlib.util.spec_from_file_location("build_names_table", SCRIPT)
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)


def test_a_name_placed_after_a_comma_is_the_name_before_it():
    assert build.english_name("San Francisco, California") == "San Francisco"
    assert build.english_name("Hudson River, New York State, USA") == "Hudson River"
    assert build.english_name("Tsinghua University, Beijing") == "Tsinghua University"
    assert build.english_name("Taipei, capital of Taiwan") == "Taipei"


def test_a_list_of_names_is_no_name():
    assert build.english_name("China, Japan and Korea") is None
    assert build.english_name("Spain, Portugal or Andorra") is None


def test_a_dynasty_and_a_clause_after_the_name_are_left_out():
    assert build.english_name("Qing dynasty (1644-1911)") == "Qing"
    treaty = "Treaty of Nanjing (1842) that concluded the First Opium War between Qing China"
    assert build.english_name(treaty) == "Treaty of Nanjing"
    assert build.english_name("Ming dynasty Nurgan regional military commission") is None
    assert build.english_name("Light in August, novel by William Faulkner") is None


def test_the_english_form_is_taken_over_the_pinyin_one():
    assert build.english_name("Xihu or West lake (place name)", "Xi1 hu2") == "West Lake"
    assert build.english_name("Xihu or West lake (place name)") == "Xihu"
    assert build.english_name("Zhu Xi or Chu Hsi (1130-1200)", "Zhu1 Xi1") == "Zhu Xi"


COMMON = {
    f"\0{w}" for w in ["great", "wall", "west", "lake", "temple", "heaven", "black", "sea", "new"]
}


def test_a_name_by_meaning_is_one_of_common_words_each_capitalised():
    assert build.translated("Great Wall", COMMON)
    assert build.translated("Temple of Heaven", COMMON)  # "of" is a small word
    assert build.translated("West-Lake", COMMON)
    assert not build.translated("New York", COMMON)  # York: no common word
    assert not build.translated("Wall", COMMON)  # one word: a common word or a transliteration
    assert not build.translated("Great wall", COMMON)  # not a name as written
    assert not build.translated("BLACK SEA", COMMON)


def test_into_chinese_keeps_pinyin_names_names_by_meaning_and_the_kept_ones():
    way = {"北京": "b", "长城": "b", "纽约": "b", "微软": "b", "黑海": "z"}
    names = {"北京": "Beijing", "长城": "Great Wall", "纽约": "New York", "微软": "Microsoft"}
    names["黑海"] = "Black Sea"
    pinyin = {"北京": "Bei3 jing1", "长城": "Chang2 cheng2", "纽约": "Niu3 yue1"}
    held = build.into_chinese(way, pinyin, names, {"微软"}, COMMON)
    # 黑海 stays z: another headword is the more frequent one for its English (``ways``)
    assert held == {"北京": "b", "长城": "b", "纽约": "z", "微软": "b", "黑海": "z"}


def test_a_name_in_pinyin_with_common_words_is_held_into_chinese():
    common = {"\0university", "\0airport", "\0of", "\0technology"}
    assert build.partly_romanised("Shanghai University", "Shang4 hai3 Da4 xue2", common)
    assert build.partly_romanised("Hongqiao Airport", "Hong2 qiao2 Ji1 chang3", common)
    assert build.partly_romanised(
        "Beijing University of Technology", "Bei3 jing1 Gong1 ye4 Da4 xue2", common
    )
    assert not build.partly_romanised("Tokyo University", "Dong1 jing1 Da4 xue2", common)
    assert not build.partly_romanised("Shanghai", "Shang4 hai3", common)  # pinyin alone
    assert not build.partly_romanised("Shanghai Disney", "Shang4 hai3 Di2 shi4 ni2", common)


def test_a_name_with_a_word_of_its_kind_is_held_into_chinese():
    assert build.placed("Mount Everest")
    assert build.placed("Gulf of Mexico")
    assert build.placed("University of Michigan")
    assert not build.placed("Tom Clancy")  # a person
    assert not build.placed("Everest")  # no word of its kind
    assert not build.placed("Hudson river")  # not a name as written
