"""dtype auto: the candidates follow the CPU and the model's allowed dtypes, the fastest wins
only by a margin over fp32, a choice is timed once per model, host and threads, and the timed
search decodes a fixed number of steps."""

import pytest
import torch

from fanyi.decode import LoadOptions, SearchOptions, decode
from fanyi.engines import dtype
from fanyi.filenames import DTYPE_CACHE_FILE
from tiny_model import tiny_model

CPU = torch.device("cpu")
AVX2 = frozenset({"avx2", "fma"})
ZEN4 = frozenset({"avx2", "avx512f", "avx512_bf16", "avx512_vnni"})


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / DTYPE_CACHE_FILE


@pytest.fixture
def timings(monkeypatch):
    """Fake timings per dtype; ``calls`` records what was timed."""
    seconds = {"fp32": 1.0, "int8": 0.5, "bf16": 0.7}
    calls = []

    def fake(model, search, chosen):
        calls.append(chosen)
        return seconds[chosen]

    monkeypatch.setattr(dtype, "seconds_per_batch", fake)
    return seconds, calls


def test_bf16_is_a_candidate_only_with_bf16_instructions():
    config = LoadOptions()
    assert dtype.candidates(config, AVX2, CPU) == ["fp32", "int8"]
    assert dtype.candidates(config, ZEN4, CPU) == ["fp32", "int8", "bf16"]
    assert dtype.candidates(config, frozenset({"amx_bf16"}), CPU) == ["fp32", "int8", "bf16"]


def test_a_compiled_decoder_is_never_int8():
    config = LoadOptions(compile=True)
    assert dtype.candidates(config, AVX2, CPU) == ["fp32"]
    assert dtype.candidates(config, ZEN4, CPU) == ["fp32", "bf16"]


def test_the_allowed_dtypes_narrow_the_candidates():
    assert dtype.candidates(LoadOptions(auto_dtypes=["fp32", "bf16"]), ZEN4, CPU) == [
        "fp32",
        "bf16",
    ]
    assert dtype.candidates(LoadOptions(auto_dtypes=[]), ZEN4, CPU) == ["fp32"]
    with pytest.raises(ValueError, match="auto_dtypes"):
        LoadOptions(auto_dtypes=["fp16"])


def test_the_fastest_candidate_wins(timings):
    model = tiny_model()
    assert dtype.choose_dtype(model, LoadOptions(), flags=ZEN4) == "int8"
    timings[0]["bf16"] = 0.4
    assert dtype.choose_dtype(model, LoadOptions(), flags=ZEN4) == "bf16"
    assert dtype.choose_dtype(model, LoadOptions(), flags=AVX2) == "int8"  # bf16 not timed


def test_amx_takes_bf16_without_timing(timings):
    _, calls = timings
    amx = frozenset({"avx512f", "amx_bf16", "amx_int8"})
    assert dtype.choose_dtype(tiny_model(), LoadOptions(), model_key="m", flags=amx) == "bf16"
    no_bf16 = LoadOptions(auto_dtypes=["fp32", "int8"])
    assert dtype.choose_dtype(tiny_model(), no_bf16, model_key="m", flags=amx) == "int8"
    assert calls == ["fp32", "int8"]


def test_fp32_stays_unless_beaten_by_the_margin(timings):
    seconds, _ = timings
    seconds.update(int8=0.97, bf16=1.3)
    assert dtype.choose_dtype(tiny_model(), LoadOptions(), flags=ZEN4) == "fp32"
    seconds.update(int8=1.2)
    assert dtype.choose_dtype(tiny_model(), LoadOptions(), flags=ZEN4) == "fp32"


def test_an_explicit_dtype_or_a_single_candidate_is_not_timed(timings):
    _, calls = timings
    bf16, fp32_only = LoadOptions(dtype="bf16"), LoadOptions(auto_dtypes=["fp32"])
    assert dtype.choose_dtype(tiny_model(), bf16, model_key="m", flags=AVX2) == "bf16"
    assert dtype.choose_dtype(tiny_model(), fp32_only, model_key="m", flags=ZEN4) == "fp32"
    assert calls == []


def test_a_choice_is_timed_once_per_model_and_setting(timings, cache):
    _, calls = timings
    model, load = tiny_model(), LoadOptions()

    def choose(key: str, search: SearchOptions | None = None) -> str:
        return dtype.choose_dtype(model, load, search, model_key=key, flags=ZEN4)

    assert choose("model A") == "int8"
    assert choose("model A") == "int8"
    assert len(calls) == 3 and cache.is_file()
    choose("model A", SearchOptions(beam=1))  # the same choice
    assert len(calls) == 3
    torch.set_num_threads(2)
    choose("model A")
    torch.set_num_threads(1)
    choose("model B")
    assert len(calls) == 9
    cache.write_text("{not json")
    assert choose("model A") == "int8"
    assert len(calls) == 12


def test_an_unwritable_cache_is_only_skipped(timings, tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("FANYI_CACHE", str(tmp_path / "file" / "below"))
    assert dtype.choose_dtype(tiny_model(), LoadOptions(), model_key="model", flags=ZEN4) == "int8"


@pytest.mark.parametrize("beam", [1, 4])
def test_the_timed_search_decodes_exactly_the_fixed_steps(beam):
    model = tiny_model()
    src = torch.randint(4, 40, (3, 7))
    for hyps in decode(model, src, dtype.timing_options(SearchOptions(beam=beam))):
        assert all(len(h.tokens) == dtype.STEPS for h in hyps)


def test_real_timings_and_the_prepared_model():
    model = tiny_model()
    for chosen in ("fp32", "int8", "bf16"):
        assert dtype.seconds_per_batch(model, SearchOptions(beam=2), chosen) > 0
    prepared = dtype.prepare_model(model, "bf16")
    assert next(prepared.parameters()).dtype == torch.bfloat16


def test_a_model_is_prepared_in_a_dtype_already_chosen():
    with pytest.raises(ValueError, match="not 'auto'"):
        dtype.prepare_model(tiny_model(), "auto")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not int8"):
        dtype.prepare_model(tiny_model(), "int8", compile=True)
