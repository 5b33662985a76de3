"""How ``scripts/build_geonames_names.py`` chooses GeoNames' Chinese names of places: Simplified
names outside China, Japan and Korea that no other table holds, the English of one place or of
a clearly larger one, no common word either side."""

import importlib.util
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
spec = importlib.util.spec_from_file_location("build_geonames", SCRIPTS / "build_geonames_names.py")
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)
COMMON = {"\0nice", "\0reading"}


def place(name: str, country: str, people: int, *others: str) -> dict:
    return {"name": name, "countrycode": country, "population": people, "alternatenames": others}


def test_a_name_and_its_form_without_accents():
    assert build.english_forms("Sunderland", COMMON) == ["Sunderland"]
    assert build.english_forms("Montréal", COMMON) == ["Montréal", "Montreal"]
    assert build.english_forms("Salon-de-Provence", COMMON) == ["Salon-de-Provence"]
    assert build.english_forms("Stoke-on-Trent", COMMON) == ["Stoke-on-Trent"]


def test_a_name_in_common_english_words_or_no_name_is_left_out():
    assert build.english_forms("Nice", COMMON) == []
    assert build.english_forms("Reading", COMMON) == []
    assert build.english_forms("6th of October", COMMON) == []
    assert build.english_forms("", COMMON) == []


def test_simplified_names_outside_china_japan_and_korea_that_no_table_holds():
    rows = [
        place("Sunderland", "GB", 177965, "桑德兰", "新特蘭", "Sunderland"),
        place("Kabul", "AF", 3043532, "喀布爾", "喀布尔"),
        place("Oyama", "JP", 164454, "小山市", "小山"),
        place("Gyumri", "AM", 146967, "久姆里", "居姆里人"),
        place("Deva", "RO", 61123, "德瓦", "古本"),
        place("Sanhe", "CN", 300000, "三河"),
        place("Trois-Rivières", "CA", 119693, "三河市"),  # Sanhe's city, to a Chinese reader
        place("Shoreline", "US", 53007, "岸线市"),  # 岸线: a common word
    ]
    names = build.claimed(rows, skip={"喀布尔", "岸线"})
    assert names == {
        "桑德兰": [(177965, "Sunderland")],
        "久姆里": [(146967, "Gyumri")],
        "德瓦": [(61123, "Deva")],
    }  # 古本: two characters, not of transliteration


def test_a_name_of_several_places_goes_to_the_clearly_largest():
    assert build.chosen([(1000, "San Jose"), (300000, "San Jose")]) == "San Jose"
    assert build.chosen([(1_000_000, "San Jose"), (50_000, "San José")]) == "San Jose"
    assert build.chosen([(100_000, "Albany"), (50_000, "Albury")]) is None
