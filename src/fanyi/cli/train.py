"""``fanyi train --config train.yaml [--key value ...] [--resume DIR]``: train a model.

It runs under tcmalloc where the system has it (``allocator.py``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import config as config_io
from ..filenames import INDEX_FILE
from ..outputs import is_free
from ..train.config import TrainConfig


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train",
        help="train a Transformer on a prepared data directory",
        description="Every TrainConfig key is also a flag; flags override the --config file. "
        "Run under `torchrun --nproc-per-node P` for data-parallel training, with `--nnodes N "
        "--rdzv-backend c10d --rdzv-endpoint HOST:PORT` on several machines (docs/training.md).",
    )
    parser.add_argument("--config", help="YAML file of TrainConfig keys")
    parser.add_argument(
        "--resume",
        metavar="DIR",
        help="continue a run (its last checkpoint) or a checkpoint directory, writing into "
        "that run directory (unless --out-dir is given); without --config, the run's own "
        "training config is used",
    )
    config_io.add_arguments(parser, TrainConfig)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import precision, runtime
    from ..model_dir import read_checkpoint, resolve
    from ..train import train
    from ..train.state import saved_train_config

    if args.resume is not None and args.config is None:
        saved = saved_train_config(read_checkpoint(resolve(args.resume, "last"), "last"))
        cfg = config_io.override(saved, _given(args))
    else:
        cfg = config_io.from_arguments(TrainConfig, args, args.config)
    run_dir = None if args.resume is None else run_directory(Path(args.resume))
    if run_dir is not None and args.out_dir is None:  # a run copied elsewhere goes on there
        cfg = config_io.override(cfg, {"out_dir": str(run_dir)})
    rank, world_size = runtime.job_rank()
    if args.resume is None and rank == 0:
        check_new_run(Path(cfg.out_dir))
    try:
        with runtime.training_process(cfg.device, cfg.threads) as device:
            out = train(cfg, args.resume, device, precision.resolve_dtype(cfg.dtype, device))
    except RuntimeError:  # in a job, mostly another process or machine lost: say what to do
        if world_size > 1:
            print(
                f"fanyi train: rank {rank} of {world_size} stopped; when the job's machines "
                f"are back, continue from the last checkpoint: fanyi train --resume "
                f"{cfg.out_dir} (on any number of processes)",
                file=sys.stderr,
            )
        raise
    if rank == 0:
        print(out)
    return 0


def check_new_run(out_dir: Path) -> None:
    """Refuse to start a run in ``out_dir`` unless it is missing or an empty folder: a run, or
    anything else, already there is never written over (a run goes on with --resume)."""
    if is_free(out_dir):
        return
    if (out_dir / INDEX_FILE).is_file():
        raise ValueError(
            f"{out_dir} holds a run; continue it with --resume {out_dir}, or give another --out-dir"
        )
    raise ValueError(f"{out_dir} exists and is not an empty folder; give another --out-dir")


def run_directory(path: Path) -> Path | None:
    """The run directory ``path`` is, or holds the checkpoint ``path`` (None: a lone model)."""
    for candidate in (path, path.parent):
        if (candidate / INDEX_FILE).is_file():
            return candidate
    return None


def _given(args: argparse.Namespace) -> dict[str, object]:
    """The TrainConfig flags given on the command line."""
    names = [f for f in TrainConfig.__dataclass_fields__ if getattr(args, f, None) is not None]
    return {name: getattr(args, name) for name in names}
