"""Model → model transforms for inference, each equal to the plain model within its precision
(tests/unit/model/test_quantize.py, test_compiled.py).

bf16.py             a bf16 copy; on a CPU its linear maps in oneDNN's packed layout
int8.py             an int8 copy: dynamic quantisation of the linear maps (CPU)
compiled.py         the decoder's one-token step compiled to C++ by TorchInductor (fp32, bf16);
                    imported only where asked for: TorchInductor adds ~1 s to a start
split_attention.py  encoder-decoder attention with Wᵠ and Wᴷⱽ apart, for bf16 and int8
"""

from .bf16 import PackedLinear, to_bfloat16
from .int8 import quantize_int8

__all__ = ["PackedLinear", "quantize_int8", "to_bfloat16"]
