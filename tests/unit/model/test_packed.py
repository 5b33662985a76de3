"""Linear maps packed by oneDNN (``model/inference/packed.py``) compute what ``F.linear`` does,
and an fp32 model prepared for decoding on a CPU is a packed copy that decodes the plain
model's tokens (floats within a tolerance: a packed product sums in another order)."""

import pytest
import torch
import torch.nn.functional as F

from fanyi.decode import SearchOptions, decode
from fanyi.decode.ensemble import Ensemble
from fanyi.engines.dtype import prepare_model
from fanyi.model.inference import PackedLinear, packed_float32
from fanyi.model.inference.packed import packs, plain_copy
from fanyi.precision import packs_bf16
from tiny_model import peaked_model, tiny_model

BOS, EOS = 2, 3
CPU = torch.device("cpu")
# (dtype, atol, rtol): float32 differs in the order of summation only; bf16 keeps 8 bits
PRECISIONS = [(torch.float32, 1e-5, 1e-5), (torch.bfloat16, 0.05, 0.02)]


@pytest.mark.parametrize(("dtype", "atol", "rtol"), PRECISIONS, ids=["fp32", "bf16"])
def test_packed_linear_maps_equal_plain_ones(dtype, atol, rtol):
    """For any number of rows and for 3-d inputs."""
    if not packs(CPU, dtype):
        pytest.skip(f"oneDNN cannot pack {dtype} maps on this CPU")
    linear = torch.nn.Linear(64, 96).to(dtype)
    packed = PackedLinear(linear)
    generator = torch.Generator().manual_seed(4)
    for shape in [(1, 64), (5, 64), (33, 64), (7, 3, 64)]:
        x = torch.randn(shape, generator=generator).to(dtype)
        expected = F.linear(x.float(), linear.weight.float(), linear.bias.float())
        assert packed(x).shape == expected.shape
        torch.testing.assert_close(packed(x).float(), expected, atol=atol, rtol=rtol)


def test_where_maps_are_packed():
    assert packs(CPU, torch.float32) == torch.backends.mkldnn.is_available()
    assert packs(CPU, torch.bfloat16) == packs_bf16(CPU)
    assert not packs(CPU, torch.float16)
    assert not packs(torch.device("cuda"), torch.float32)


def linear_maps(model: torch.nn.Module) -> tuple[int, int]:
    """How many plain and how many packed linear maps ``model`` holds."""
    modules = list(model.modules())
    plain = sum(isinstance(m, torch.nn.Linear) for m in modules)
    return plain, sum(isinstance(m, PackedLinear) for m in modules)


@pytest.mark.skipif(not packs(CPU, torch.float32), reason="this torch has no oneDNN")
def test_an_fp32_model_prepared_on_a_cpu_is_a_packed_copy():
    model = peaked_model()
    before = linear_maps(model)
    for prepared in (prepare_model(model, "fp32"), packed_float32(model)):
        assert prepared is not model and linear_maps(prepared)[0] == 0
        assert linear_maps(prepared)[1] > 0 and not prepared.training
    assert linear_maps(model) == before  # the original is untouched
    pair = Ensemble([model, tiny_model(1, vocab=64)]).map(packed_float32)
    assert all(linear_maps(member)[0] == 0 for member in pair.members())


@pytest.mark.parametrize("beam", [1, 4])
def test_a_packed_fp32_model_decodes_the_plain_model_s_tokens(beam):
    model = peaked_model()
    src = torch.randint(4, 64, (6, 12), generator=torch.Generator().manual_seed(1))
    src[0, 7:] = 0  # a padded source
    config = SearchOptions(beam=beam, n_best=beam, max_len_a=0.0, max_len_b=12)
    expected = decode(model, src, config, BOS, EOS)
    got = decode(prepare_model(model, "fp32"), src, config, BOS, EOS)
    for want, have in zip(expected, got, strict=True):
        assert [h.tokens for h in have] == [h.tokens for h in want]
        assert [h.score for h in have] == pytest.approx([h.score for h in want], abs=1e-4)


@pytest.mark.skipif(not packs(CPU, torch.float32), reason="this torch has no oneDNN")
@pytest.mark.parametrize("dtype", ["fp32", "bf16", "int8"])
def test_a_prepared_model_can_be_prepared_again(dtype):
    """``fanyi tune --dtypes`` prepares the fp32 engine's (packed) model in each dtype, and an
    ensemble may be made of prepared models: oneDNN's opaque weights cannot be copied as they
    are, so conversions start from the plain maps (``plain_copy``), exactly those of the model."""
    model = peaked_model()
    packed = prepare_model(model, "fp32")
    src = torch.randint(4, 64, (4, 12), generator=torch.Generator().manual_seed(2))
    config = SearchOptions(beam=2, max_len_a=0.0, max_len_b=10)
    again = prepare_model(Ensemble([packed, packed]), dtype)
    once = prepare_model(Ensemble([model, model]), dtype)
    assert all(m is not packed for m in again.members())
    plain = plain_copy(packed)
    assert linear_maps(plain)[1] == 0 and linear_maps(packed)[0] == 0  # the packed one untouched
    got, expected = decode(again, src, config, BOS, EOS), decode(once, src, config, BOS, EOS)
    assert [h[0].tokens for h in got] == [h[0].tokens for h in expected]


def test_unpacking_gives_the_very_weights_back():
    if not packs(CPU, torch.float32):
        pytest.skip("this torch has no oneDNN")
    linear = torch.nn.Linear(64, 96)
    plain = PackedLinear(linear).unpacked()
    assert torch.equal(plain.weight, linear.weight) and torch.equal(plain.bias, linear.bias)
