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
