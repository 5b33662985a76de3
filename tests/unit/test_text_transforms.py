"""A text feature is one module and one registry entry: a toy transform registered here gets
its option in TextOptions, its flag in ``fanyi translate``, its field in the HTTP request and its
row in the docs table, and the pipeline runs it (read, held, written back) in registry order."""

import argparse
import re
from pathlib import Path

import pytest

from fanyi.cli.decode_flags import add_decode_flags
from fanyi.serve import schemas
from fanyi.text import options as text_options_module
from fanyi.text import pipeline, registry
from fanyi.text.options import TextOptions
from fanyi.text.transform import Context, Option, Transform

DOCS = Path(__file__).resolve().parents[2] / "docs" / "text.md"


class Toys(Transform):
    """Reads "toy" as "TOY", holds "TOY", writes "TOY" back as "toy"."""

    name = "toys"
    options = (Option("keep_toys", True, "toys read in capitals and written back"),)

    def read(self, text, context):
        if not context.options.keep_toys:
            return text, 0
        return text.replace("toy", "TOY"), text.count("toy")

    def held(self, sentence, memo, context):
        return [("TOY", "TOY")] if memo else []

    def write_back(self, translation, memo, context):
        return translation.replace("TOY", "toy")


@pytest.fixture
def toys():
    registry.register(Toys(), before="numbers")
    yield
    registry.unregister("toys")


def context(**options):
    return Context("en", "zh", TextOptions(**options))


def test_a_registered_transform_gets_its_option_flag_field_and_docs_row(toys):
    assert TextOptions().keep_toys is True
    assert TextOptions(keep_toys="false").keep_toys is False
    parser = argparse.ArgumentParser()
    add_decode_flags(parser)
    assert parser.parse_args(["--keep-toys", "no"]).keep_toys == "no"
    request = schemas.translate_request()
    assert request(text=["a toy"], keep_toys=False).options() == {"keep_toys": False}
    assert (
        "| `keep_toys` | `--keep-toys` (true, false) | `true` |" in text_options_module.markdown()
    )


def test_without_the_entry_none_of_it_exists():
    assert "keep_toys" not in TextOptions().to_dict()
    with pytest.raises(ValueError, match="unknown TextOptions key"):
        TextOptions(keep_toys=True)
    assert "keep_toys" not in schemas.translate_request().model_fields


def test_the_pipeline_reads_holds_and_writes_back_in_registry_order(toys):
    reading = pipeline.read("1,400 toys. Another toy.", context())
    assert reading.text == "1400 TOYs. Another TOY."  # numbers read after the toys
    assert [t.name for t, _ in reading.memos].index("toys") < [
        t.name for t, _ in reading.memos
    ].index("numbers")
    assert reading.held("Another TOY.") == ["TOY"]
    assert reading.written_back("1400 个 TOY。") == "1,400 个 toy。"
    off = pipeline.read("a toy", context(keep_toys=False))
    assert off.text == "a toy" and off.held("a toy") == []


def test_a_held_span_is_blanked_for_the_transforms_after_it():
    reading = pipeline.read("See https://example.com/2024 on 8 May 2024.", context())
    # the year inside the address and the date is held by them, not again as a number
    assert reading.held(reading.text) == ["https://example.com/2024", "2024年5月8日"]
    code = pipeline.read("Call `f(1,000)` on 1,000 rows.", context())
    assert code.held(code.text) == ["f(1000)", "1000"]  # the code as the model reads it
    assert code.written_back("在 1000 行上调用 f(1000)。") == "在 1,000 行上调用 `f(1,000)`。"


def test_a_transform_that_skips_prefixed_texts_is_left_out():
    assert pipeline.read("1. Open it.", context()).text == "Open it."
    assert pipeline.read("1. Open it.", context(), prefixed=True).text == "1. Open it."


def test_options_refuse_what_they_do_not_know():
    with pytest.raises(ValueError, match="chinese_script must be hans, hant, tw or hk"):
        TextOptions(chinese_script="zh-TW")
    with pytest.raises(ValueError, match="keep_numbers must be true or false"):
        TextOptions(keep_numbers=3)
    with pytest.raises(ValueError, match="registered already"):
        registry.register(registry.transforms()[0])


def test_the_docs_table_is_the_registry_s():
    block = re.search(
        r"<!-- BEGIN text options[^>]*-->\n(.*?)<!-- END text options -->", DOCS.read_text(), re.S
    )
    assert block, f"{DOCS} has no generated block of text options"
    assert block.group(1) == text_options_module.markdown(), (
        "regenerate it: python -m fanyi.text.options --update docs/text.md"
    )
