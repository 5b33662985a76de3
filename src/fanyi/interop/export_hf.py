"""Export a fanyi model directory as a Hugging Face MarianMT directory (``transformers`` loads it
and ``generate``s with it; ``MarianTokenizer`` reads its vocabulary).

An interleaved model's features are permuted into Marian's sines-then-cosines layout
(``layout.py``), so the exported model computes exactly what fanyi computes. The tokenizer gets
fanyi's SentencePiece model(s) and a ``vocab.json`` of fanyi's ids; a language tag ``<2en>`` is
also listed as ``>>en<<``, the form MarianTokenizer recognises at the start of a text
(``">>en<< 你好。"``). MarianTokenizer does not apply fanyi's normalisation (NFKC, Traditional →
Simplified): the export's README.md model card says how, with ``preprocess.py`` beside it.
"""

from __future__ import annotations

import errno
import json
import shutil
from collections.abc import Callable
from pathlib import Path

from torch import Tensor

from ..atomic import staged_dir
from ..filenames import SOURCE_SPM, TARGET_SPM, VOCAB_JSON
from ..model import Transformer
from ..model_dir import load_model
from ..outputs import claim_dir, publish_dir
from ..sections import Checkpoint
from .layout import to_concat_layout
from .marian import generation_config, marian_config, marian_state
from .model_card import write_model_card


def export_huggingface(
    model_dir: str | Path, out: str | Path, beam: int = 5, overwrite: bool = False
) -> Path:
    """Write the MarianMT directory ``out`` for fanyi model directory ``model_dir``, which
    ``generate`` decodes with ``beam`` (fanyi's default; the CLI gives the model's own); over an
    export fanyi wrote only with ``overwrite`` (``outputs.claim_dir``)."""
    out = claim_dir(out, overwrite)
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    model, checkpoint = load_model(model_dir)
    config = MarianConfig(**marian_config(model.config))
    table = piece_table(checkpoint)
    marian = MarianMTModel(config).eval()
    missing, unexpected = marian.load_state_dict(marian_weights(model), strict=False)
    assert not unexpected and all("embed_positions" in k for k in missing), (missing, unexpected)
    for key, value in generation_config(model.config, beam).items():
        setattr(marian.generation_config, key, value)
    with staged_dir(out) as tmp:  # written whole under a temporary name, then renamed
        saved(marian.save_pretrained, tmp)
        shutil.copyfile(checkpoint.src_spm, tmp / SOURCE_SPM)
        shutil.copyfile(checkpoint.tgt_spm, tmp / TARGET_SPM)
        (tmp / VOCAB_JSON).write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
        files = [str(tmp / name) for name in (SOURCE_SPM, TARGET_SPM, VOCAB_JSON)]
        data = checkpoint.data
        tokenizer = MarianTokenizer(  # type: ignore[misc]  # its files are positional
            *files,  # type: ignore[arg-type]
            source_lang=data.src_lang,
            target_lang=data.tgt_lang,
            model_max_length=config.max_position_embeddings,
        )
        tokenizer.save_pretrained(tmp)
        parameters = sum(p.numel() for p in model.parameters())
        write_model_card(checkpoint, tmp, "huggingface", parameters, out)
        publish_dir(tmp, out)
    return out


def saved(save: Callable[[Path], object], directory: Path) -> None:
    """``save(directory)``, its failure to write (a full disk) an ``OSError``: safetensors
    reports one as its own ``SafetensorError``."""
    from safetensors import SafetensorError

    try:
        save(directory)
    except SafetensorError as error:
        raise OSError(errno.EIO, str(error)) from error


def marian_weights(model: Transformer) -> dict[str, Tensor]:
    """``model``'s weights under MarianMT's names, in Marian's sinusoid layout."""
    state = dict(model.state_dict())
    if model.config.sinusoid_layout == "interleaved":
        state = to_concat_layout(state, model.config.d_model)
    return marian_state(state, model.config)


def piece_table(checkpoint: Checkpoint) -> dict[str, int]:
    """Piece → id over the model's vocabulary, each tag ``<2xx>`` also as ``>>xx<<`` (listed
    first: MarianTokenizer names an id by its last piece)."""
    source, target = checkpoint.vocabularies()
    if target.table is not None:
        return target.table
    if source is not target:
        raise ValueError("this model has separate vocabularies, which MarianMT cannot read")
    aliases = {f">>{tag[2:-1]}<<": i for tag, i in target.tags.items()}
    return {**aliases, **{target.id_to_piece(i): i for i in range(len(target))}}
