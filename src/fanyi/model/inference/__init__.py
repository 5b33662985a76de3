"""Model → model transforms for inference, each equal to the plain model within its precision
(tests/unit/model/test_quantize.py, test_compiled.py).

packed.py           linear maps with their weights in oneDNN's packed layout (CPU; fp32 and bf16)
bf16.py             a bf16 copy; on a CPU its linear maps packed
int8.py             an int8 copy: int8 weights, each input row quantised on its own (CPU)
compiled.py         the decoder's one-token step compiled to C++ by TorchInductor (fp32, bf16);
                    imported only where asked for: TorchInductor adds ~1 s to a start
split_attention.py  encoder-decoder attention with Wᵠ and Wᴷⱽ apart, for packed and int8 maps
"""

from .bf16 import to_bfloat16
from .int8 import quantize_int8
from .packed import PackedLinear, packed_float32

__all__ = ["PackedLinear", "packed_float32", "quantize_int8", "to_bfloat16"]
