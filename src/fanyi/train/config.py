"""``TrainConfig``: every setting of ``fanyi train``, one YAML file, every key a flag."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..model import ModelConfig

# Keys that may change when a run is resumed: they do not alter the parameters of steps taken
# (stopping points, logging, validation cadence, threads, where files are; the data itself is
# checked by checksum), or change only the batch of the steps to come, as the number of
# processes may (accumulation). Every other key must match.
RESUMABLE_CHANGES = frozenset(
    {
        "accumulation",
        "keep_effective_batch",
        "max_steps",
        "max_epochs",
        "max_minutes",
        "patience",
        "log_every",
        "progress",
        "prefetch",
        "compile",
        "threads",
        "keep_last",
        "valid_bleu",
        "valid_bleu_sentences",
        "out_dir",
        "data_dir",
    }
)


@dataclass
class TrainConfig:
    """Data, model, the paper's optimiser recipe (§5.3, §5.4), validation and checkpoints."""

    # --- where ---
    data_dir: str = "data/tatoeba-zh-en"  # a directory written by `fanyi prepare`
    out_dir: str = "runs/tatoeba-zh-en"  # the run: checkpoints, log.jsonl, plots
    # The model; its vocabulary sizes and pad_id are taken from the data directory.
    model: ModelConfig = field(default_factory=ModelConfig)
    # A model directory (or run) whose weights start this run instead of random ones: continued
    # training, e.g. on more data. Its model config and vocabulary must be the data's; the
    # optimizer and the schedule start afresh (warmup included).
    init_from: str | None = None
    # --- batches (token-based, from the data pipeline) ---
    max_tokens: int = 4096  # padded tokens per batch, per process
    accumulation: int = 1  # batches per optimizer step (per process)
    # On resuming with another number of processes, set accumulation to (saved processes x saved
    # accumulation) / processes now, so that a step takes as many batches as before.
    keep_effective_batch: bool = False
    # Subword regularisation (Kudo 2018): each use of a training pair segments it anew, sampled
    # with this α (0.1-0.2; smaller: more varied, longer); 0: the one best segmentation.
    subword_alpha: float = 0.0
    max_steps: int = 100_000  # optimizer steps
    max_epochs: int | None = None  # stop after this many passes over train (None: no limit)
    # Wall-clock budget of this invocation (validations included); then one last validation
    # and checkpoint, so the run ends up to one validation past it. None: no limit.
    max_minutes: float | None = None
    # --- optimisation (§5.3): Adam β=(0.9, 0.98), ε=1e-9, the Noam schedule ---
    warmup: int = 4000
    lr_factor: float = 1.0
    adam_beta1: float = 0.9
    adam_beta2: float = 0.98
    adam_eps: float = 1e-9
    label_smoothing: float = 0.1  # ε_ls (§5.4)
    clip_norm: float | None = 1.0  # max gradient L2 norm; None: no clipping
    dtype: Literal["auto", "fp32", "bf16"] = "auto"  # auto: bf16 where the hardware has it
    device: str = "auto"  # auto: cuda if available, else cpu
    # --- validation, checkpoints, early stopping ---
    validate_every: int = 1000  # steps between validations (and checkpoints)
    valid_max_tokens: int = 8000
    valid_bleu: bool = True  # greedy-decode dev for BLEU/chrF (slower than the dev loss)
    valid_bleu_sentences: int | None = None  # decode only the first N dev sentences
    best_metric: Literal["bleu", "loss"] = "bleu"  # loss when valid_bleu is off
    patience: int | None = None  # stop after this many validations without improvement
    keep_last: int = 5  # step checkpoints kept (for averaging); best is always kept
    # --- run ---
    seed: int = 1
    threads: int | None = None  # intra-op threads per process (default: cores / processes)
    # Collate the next step's batches on a thread while this step trains, pinned on CUDA so the
    # copy to the device does not wait (train/prefetch.py). auto: on CUDA, not on the CPU.
    prefetch: Literal["auto", "always", "never"] = "auto"
    # torch.compile of the training forward and backward (TorchInductor fuses the elementwise
    # work between the matrix products). On an H100, transformer-base trained 1.34x faster
    # (docs/gpu.md); the first steps pay a compile of a minute or so, and the second batch shape
    # a recompile for dynamic sizes. Off by default: minutes of compile outweigh a short run.
    compile: bool = False
    log_every: int = 100
    progress: bool = True  # tqdm bar (rank 0)

    def __post_init__(self) -> None:
        for name in (
            "max_tokens",
            "accumulation",
            "max_steps",
            "warmup",
            "validate_every",
            "log_every",
            "keep_last",
        ):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.max_minutes is not None and self.max_minutes <= 0:
            raise ValueError(f"max_minutes must be positive, got {self.max_minutes}")
        if not 0.0 <= self.subword_alpha <= 1.0:
            raise ValueError(f"subword_alpha must be in [0, 1], got {self.subword_alpha}")
        if not 0.0 <= self.label_smoothing < 1.0:
            raise ValueError(f"label_smoothing must be in [0, 1), got {self.label_smoothing}")
        if self.best_metric == "bleu" and not self.valid_bleu:
            raise ValueError("best_metric: bleu needs valid_bleu: true (or use best_metric: loss)")
