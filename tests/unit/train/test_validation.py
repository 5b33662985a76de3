"""Validation's greedy translations are the decoder's: SearchOptions' greedy search within its
length limits (max_len_a · |src| + max_len_b), not a limit of validation's own."""

import torch

from fanyi.data import EOS_ID, ParallelDataset
from fanyi.decode import SearchOptions, decode
from fanyi.train import LabelSmoothingLoss, StepSettings, TrainContext
from fanyi.train.distributed import Distributed
from fanyi.train.step import adam
from fanyi.train.validate import dev_translations
from tiny_model import tiny_model

SOURCES = [[5, 6, 7, 8, 9, 10, 11, 12], [13], [14, 15, 16]]  # the batches add EOS


def test_validation_decodes_as_the_decoder_does_within_its_limits():
    model = tiny_model(vocab=40)  # random weights: EOS is rarely chosen, so the limit decides
    ctx = TrainContext(
        model,
        adam(model.parameters()),
        LabelSmoothingLoss(0.1, model.config.pad_id),
        StepSettings(model.config.d_model, 4000),
        Distributed(),
    )
    dev = ParallelDataset(SOURCES, [[4]] * len(SOURCES))
    found = dev_translations(ctx, dev, None, max_tokens=1)  # one source per batch
    config = SearchOptions(beam=1, length_penalty=0.0)
    rows = [[*source, EOS_ID] for source in SOURCES]
    limits = [int(config.max_len_a * len(row) + config.max_len_b) for row in rows]
    for row, tokens, limit in zip(rows, found, limits, strict=True):
        assert tokens == decode(model, torch.tensor([row]), config)[0][0].tokens
        assert len(tokens) <= limit
    assert any(len(t) == limit for t, limit in zip(found, limits, strict=True))  # cut there
