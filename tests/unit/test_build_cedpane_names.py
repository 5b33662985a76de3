"""How ``scripts/build_cedpane_names.py`` reads CedPane's CEDICT-format lines: the senses that
are names, notes left out; no sense turned round, in lower case or in common English words."""

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
spec = importlib.util.spec_from_file_location("build_cedpane", SCRIPTS / "build_cedpane_names.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)
COMMON = {"\0art", "\0department", "\0bill", "\0dean"}


def test_the_senses_that_are_names_are_kept_notes_left_out():
    assert build.senses("Philip (modern)", COMMON) == ["Philip"]
    assert build.senses("Laney/Leni/Lenny", COMMON) == ["Laney", "Leni", "Lenny"]
    assert build.senses("Albany (New York)", COMMON) == ["Albany"]
    assert build.senses("O'Neill/Smith-Jones", COMMON) == ["O'Neill", "Smith-Jones"]
    assert build.senses("Méndez", COMMON) == ["Méndez", "Mendez"]  # as English often writes it


def test_what_is_no_name_is_left_out():
    assert build.senses("Art Department/Department, Art", COMMON) == []
    assert build.senses("llama", COMMON) == []
    assert build.senses("Bill", COMMON) == []
    assert build.senses("United Arab Emirates (abbr)", COMMON) == []
    assert build.senses("Route 66", COMMON) == []
    assert build.senses("Dean/Deanne", COMMON) == []  # a common word too: the rest misleads


def test_at_most_three_forms_each_once():
    assert build.senses("Ann/Anne/Ann/Anna/Annie", COMMON) == ["Ann", "Anne", "Anna"]


def test_the_file_is_read_by_its_simplified_headword(tmp_path):
    text = (
        "# CPN - CedPane\n"
        "菲利普 菲利普 [Fei1 li4 pu3] /Philip (modern)/\n"
        "羅曼諾夫 罗曼诺夫 [Luo2 man4 nuo4 fu1] /Romanov/\n"
        "美 美 [Mei3] /US (abbr)/\n"
        "ABC ABC [A1] /ABC/\n"
    )
    path = tmp_path / "cedpane.txt"
    path.write_text(text, encoding="utf-8")
    assert build.read_cedpane(path) == [
        ("菲利普", "Fei1 li4 pu3", "Philip (modern)"),
        ("罗曼诺夫", "Luo2 man4 nuo4 fu1", "Romanov"),
    ]


def test_a_chinese_place_with_its_kind_after_it_is_left_out():
    assert build.chinese_place("Xiao3 cun1 zhen4", "Xiaocun (town)")
    assert build.chinese_place("Mei3 xi1_Qu1", "Meixi District/District, Meixi")
    assert not build.chinese_place("Fei1 li4 pu3", "Philip (modern)")
    assert not build.chinese_place("An1 na4", "Anna")  # the whole pinyin: a name
