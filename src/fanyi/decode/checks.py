"""When a search looks at its rows from the host: every ``CHECK_EVERY`` steps, not every step.

On a GPU the host waits for every queued kernel whenever it reads a value the device computed
(``bool(t)``, ``.item()``, ``.tolist()``, the size of ``nonzero()``), and the card idles while
the host prepares the next step. So the searches keep finished rows in the batch between checks
(fed padding, their results frozen, their new hypotheses ignored) and decide on the device what
a row's end changes; only at a check do they read which rows are done, drop them (``state.select``)
or stop. Results are those of dropping each row at once; a finished row costs up to
``CHECK_EVERY - 1`` steps of computation more.

On the CPU a read waits for nothing (every op has finished when it returns), while carrying
finished rows for 8 steps made decoding 8-28% slower (docs/decoding.md, "On a GPU"), so there the
same code checks after every step (``CPU_CHECK_EVERY``) and draws the same samples as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

CHECK_EVERY = 8  # steps between two checks on an accelerator: a finished row runs 3.5 more
CPU_CHECK_EVERY = 1  # and on the CPU, where a check costs no wait


@dataclass(frozen=True)
class Horizon:
    """What a search reads from the device once, before its first step."""

    lengths: list[int]  # source tokens of each source
    limits: list[int]  # most tokens (before EOS) of each source
    first_limit: int  # no row is at its length limit before this step
    last_step: int  # every row has ended by this step (its limit: at most the model's max_len - 1)
    every: int  # steps between two checks

    def is_check(self, step: int) -> bool:
        """Whether the search looks at its rows after ``step``."""
        return (step + 1) % self.every == 0 or step >= self.last_step


def horizon(lengths: Tensor, limits: Tensor) -> Horizon:
    """The horizon of sources with ``lengths`` and length ``limits`` (b each): one transfer."""
    host_lengths, host_limits = torch.stack([lengths, limits.to(lengths.dtype)]).tolist()
    every = CPU_CHECK_EVERY if lengths.device.type == "cpu" else CHECK_EVERY
    return Horizon(host_lengths, host_limits, min(host_limits), max(host_limits), every)
