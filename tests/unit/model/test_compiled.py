"""The compiled variant (``model/inference/compiled.py``, ``LoadOptions.compile``) equals the
plain model: its steps decode the very tokens of the eager ones, with their scores to 1e-4, in
fp32 (exact comparisons in fp32 hold on AVX2, AVX-512 and AMX hosts alike).

Each search compiles once (TorchInductor, C++): about 20 s per test on two cores.
"""

import copy
import shutil
import subprocess
import sys

import pytest
import torch

from fanyi.decode import LoadOptions, SearchOptions, decode
from fanyi.engines.dtype import prepare_model
from fanyi.model.inference.compiled import CompiledDecoder, compile_decoder
from tiny_model import peaked_model

BOS, EOS = 2, 3

needs_compiler = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


@pytest.fixture(scope="module")
def model():
    return peaked_model()


def sources() -> torch.Tensor:
    """Three sources, one padded: rows finish at different steps and the batch shrinks."""
    src = torch.randint(4, 64, (3, 9), generator=torch.Generator().manual_seed(3))
    src[0, 6:] = 0
    return src


@pytest.mark.slow  # a C++ compile per search (about 20 s each)
@needs_compiler
@pytest.mark.parametrize("beam", [1, 3])
def test_compiled_steps_decode_like_eager_ones(model, beam, device):
    """On the test device: the CPU here, CUDA in scripts/gpu-check.sh (Triton kernels there)."""
    config = SearchOptions(beam=beam, max_len_a=0.0, max_len_b=12)
    model = copy.deepcopy(model).to(device)
    compiled = prepare_model(model, "fp32", compile=True)
    assert isinstance(compiled.decoder, CompiledDecoder)
    assert not isinstance(model.decoder, CompiledDecoder)  # the original is untouched
    calls = []
    step = compiled.decoder.compiled_step
    compiled.decoder.compiled_step = lambda *args: calls.append(1) or step(*args)
    expected = decode(model, sources().to(device), config, BOS, EOS)
    got = decode(compiled, sources().to(device), config, BOS, EOS)
    assert len(calls) >= 12  # the steps of more than one row and one source ran compiled
    for want, have in zip(expected, got, strict=True):
        assert [h.tokens for h in have] == [h.tokens for h in want]
        assert [h.score for h in have] == pytest.approx([h.score for h in want], abs=1e-4)


@needs_compiler
def test_steps_that_need_attention_weights_run_eagerly(model):
    """Attention weights (``attention: true``) are not compiled for: those steps run eagerly."""
    config = SearchOptions(beam=1, max_len_a=0.0, max_len_b=6, attention=True)
    compiled = compile_decoder(model)
    compiled.decoder.compiled_step = None  # would raise if called
    got = decode(compiled, sources(), config, BOS, EOS)
    expected = decode(model, sources(), config, BOS, EOS)
    assert [g[0].tokens for g in got] == [e[0].tokens for e in expected]
    assert all(g[0].attention is not None for g in got)


@needs_compiler
def test_one_source_or_one_row_decodes_eagerly(model):
    """A size of 1 would compile a graph of its own: such steps run eagerly, and alike."""
    compiled = compile_decoder(model)
    compiled.decoder.compiled_step = None  # would raise if called
    for beam in (1, 3):
        config = SearchOptions(beam=beam, max_len_a=0.0, max_len_b=6)
        got = decode(compiled, sources()[:1], config, BOS, EOS)
        assert got[0][0].tokens == decode(model, sources()[:1], config, BOS, EOS)[0][0].tokens


def test_compile_needs_a_compiler(model, monkeypatch):
    monkeypatch.setenv("CXX", "no-such-compiler-here")
    with pytest.raises(ValueError, match="C\\+\\+ compiler"):
        compile_decoder(model)


def test_compile_takes_fp32_or_bf16():
    with pytest.raises(ValueError, match="not int8"):
        LoadOptions(dtype="int8", compile=True)
    assert LoadOptions(compile=True).dtype == "auto"  # auto then never chooses int8


def test_decoding_without_compile_never_imports_torch_compile():
    """TorchInductor's modules add about a second to a command's start: only ``compile`` loads
    them."""
    code = (
        "import sys; import fanyi.cli.translate, fanyi.decode, fanyi.serve; "
        "assert 'torch._dynamo' not in sys.modules and 'torch._inductor' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
