"""Export a fanyi model directory as a Hugging Face directory that ``transformers`` loads and
``generate``s with: MarianMT for a post-norm model, Pegasus for a pre-norm one (``pegasus.py``),
both read by ``MarianTokenizer`` (``AutoTokenizer`` finds it).

An interleaved model's features are permuted into the sines-then-cosines layout both use
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
from typing import TYPE_CHECKING

from ..atomic import staged_dir
from ..filenames import SOURCE_SPM, TARGET_SPM, VOCAB_JSON
from ..model import Transformer
from ..model_dir import load_model
from ..outputs import claim_dir, publish_dir
from ..sections import Checkpoint
from .layout import to_concat_layout
from .marian import generation_config, marian_config, marian_state
from .model_card import write_model_card
from .pegasus import pegasus_config, pegasus_state

if TYPE_CHECKING:
    from transformers import PreTrainedModel


def export_huggingface(
    model_dir: str | Path, out: str | Path, beam: int = 5, overwrite: bool = False
) -> Path:
    """Write the Hugging Face directory ``out`` for fanyi model directory ``model_dir``, which
    ``generate`` decodes with ``beam`` (fanyi's default; the CLI gives the model's own); over an
    export fanyi wrote only with ``overwrite`` (``outputs.claim_dir``)."""
    out = claim_dir(out, overwrite)
    model, checkpoint = load_model(model_dir)
    table = piece_table(checkpoint)
    exported = transformers_model(model)
    for key, value in generation_config(model.config, beam).items():
        setattr(exported.generation_config, key, value)
    with staged_dir(out) as tmp:  # written whole under a temporary name, then renamed
        saved(exported.save_pretrained, tmp)
        write_tokenizer(checkpoint, table, tmp, model.config.max_len)
        parameters = sum(p.numel() for p in model.parameters())
        write_model_card(checkpoint, tmp, "huggingface", parameters, out)
        publish_dir(tmp, out)
    return out


def transformers_model(model: Transformer) -> PreTrainedModel:
    """The transformers model (eval mode) computing what ``model`` computes: MarianMT for a
    post-norm model, Pegasus for a pre-norm one."""
    from transformers import (
        MarianConfig,
        MarianMTModel,
        PegasusConfig,
        PegasusForConditionalGeneration,
    )

    c = model.config
    state = dict(model.state_dict())
    if c.sinusoid_layout == "interleaved":
        state = to_concat_layout(state, c.d_model)
    exported: PreTrainedModel
    if c.norm == "pre":
        exported = PegasusForConditionalGeneration(PegasusConfig(**pegasus_config(c)))
        weights = pegasus_state(state, c)
    else:
        exported = MarianMTModel(MarianConfig(**marian_config(c)))
        weights = marian_state(state, c)
    missing, unexpected = exported.load_state_dict(weights, strict=False)
    assert not unexpected and all("embed_positions" in k for k in missing), (missing, unexpected)
    return exported.eval()


def write_tokenizer(checkpoint: Checkpoint, table: dict[str, int], into: Path, length: int) -> None:
    """MarianTokenizer's files in ``into``: the SentencePiece models, ``vocab.json`` (``table``)
    and ``tokenizer_config.json``, which names MarianTokenizer for ``AutoTokenizer``."""
    from transformers import MarianTokenizer

    shutil.copyfile(checkpoint.src_spm, into / SOURCE_SPM)
    shutil.copyfile(checkpoint.tgt_spm, into / TARGET_SPM)
    (into / VOCAB_JSON).write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")
    files = [str(into / name) for name in (SOURCE_SPM, TARGET_SPM, VOCAB_JSON)]
    tokenizer = MarianTokenizer(  # type: ignore[misc]  # its files are positional
        *files,  # type: ignore[arg-type]
        source_lang=checkpoint.data.src_lang,
        target_lang=checkpoint.data.tgt_lang,
        model_max_length=length,
    )
    tokenizer.save_pretrained(into)


def saved(save: Callable[[Path], object], directory: Path) -> None:
    """``save(directory)``, its failure to write (a full disk) an ``OSError``: safetensors
    reports one as its own ``SafetensorError``."""
    from safetensors import SafetensorError

    try:
        save(directory)
    except SafetensorError as error:
        raise OSError(errno.EIO, str(error)) from error


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
