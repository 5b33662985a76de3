"""The ``README.md`` model card of every export: what the model is, the data it learned from and
their licences, its scores with sacreBLEU's signatures (the ``scores`` section of its
``config.yaml``, where there is one), the exact preprocessing (``preprocess.py``, shipped beside
it) and how to load it. What Hugging Face Hub users expect to find, and what a licence asks for."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from .. import config as config_io
from ..data.build.cedict import LICENSE as CEDICT_LICENSE
from ..data.build.download import REGISTRY
from ..data.build.hsk import LICENSE as HSK_LICENSE
from ..data.build.hsk import PACKAGE as HSK_PACKAGE
from ..data.build.monolingual import (
    LEIPZIG_REPOSITORY,
    LEIPZIG_TERMS,
    NEWS_REPOSITORY,
    NEWS_TERMS,
)
from ..data.build.registry import SOURCES
from ..filenames import CONFIG_FILE, MODEL_CARD_FILE, PREPROCESS_FILE
from ..sections import Checkpoint, read_yaml
from . import preprocess

SHARE_ALIKE = "CC-BY-SA-4.0"
HSK_URL = "https://github.com/no7z/hsk-sentences-audio"
CEDICT_URL = "https://cc-cedict.org/wiki/"
EXAMPLES = {
    "zh": "你叫什麼名字？",  # Traditional script: the normalisation makes it the model's
    "en": "Where is the train station?",
    "de": "Wo ist der Bahnhof?",
}
LIBRARIES = {"ctranslate2": "ctranslate2", "huggingface": "transformers"}


@dataclass
class Score:
    """One line of a model's ``scores`` section: a test set scored as sacreBLEU scores it."""

    direction: str  # zh→en
    test_set: str
    decoding: str  # how the translations were made (engine, beam, α, λ, dtype)
    bleu: float
    bleu_signature: str
    chrf: float | None = None
    chrf_signature: str | None = None


@dataclass(frozen=True)
class Corpus:
    """A corpus a model may have been trained on: its name (``fanyi data NAME``, a config's
    ``trained_on``), recognised in a training file's path by ``marker``, and its terms."""

    name: str
    marker: str
    title: str
    licence: str

    @property
    def share_alike(self) -> bool:
        """Whether a model trained on it is shared under the same licence (CC BY-SA)."""
        return "BY-SA" in self.licence.upper().replace(" ", "-")

    @property
    def research_only(self) -> bool:
        """Whether its terms allow research use only (WMT's, Multi30k's Flickr terms)."""
        return any(term in self.licence.lower() for term in ("research use", "non-commercial"))


def _source(name: str) -> Corpus:
    """A real-text source of ``fanyi data``, as its folder under ``data/sources`` holds it."""
    source = SOURCES[name]
    return Corpus(name, f"sources/{name}/", f"{source.description} <{source.url}>", source.license)


CORPORA = [
    *(Corpus(name, name, s.description, s.license) for name, s in REGISTRY.items()),
    Corpus("hsk", "hsk", f"HSK graded sentences ({HSK_PACKAGE}, <{HSK_URL}>)", HSK_LICENSE),
    *(_source(name) for name in SOURCES),
    Corpus(
        "cedict", "sources/cedict/", f"CC-CEDICT words and phrases <{CEDICT_URL}>", CEDICT_LICENSE
    ),
    Corpus(
        "news-bt",
        "sources/news-bt/",
        "English news of the WMT test sets of other language pairs, 2008-2018 "
        f"<{NEWS_REPOSITORY}>, back-translated into Chinese by fanyi",
        NEWS_TERMS,
    ),
    Corpus(
        "leipzig-bt",
        "sources/leipzig-bt/",
        "Chinese news of 2020, the Leipzig Corpora Collection's 10K sample "
        f"<{LEIPZIG_REPOSITORY}>, back-translated into English by fanyi",
        LEIPZIG_TERMS,
    ),
]


def write_model_card(
    checkpoint: Checkpoint, into: Path, kind: str, parameters: int, out: Path
) -> None:
    """``README.md`` (and ``preprocess.py`` where the model normalises its input) in ``into``,
    the directory being written for export ``out`` of ``checkpoint`` to ``kind`` (ctranslate2,
    huggingface); the card's code loads ``out``, the name the export ends up with."""
    (into / MODEL_CARD_FILE).write_text(
        model_card(checkpoint, out, kind, parameters), encoding="utf-8"
    )
    if checkpoint.data.nfkc or checkpoint.data.t2s:
        shutil.copyfile(preprocess.__file__, into / PREPROCESS_FILE)


def model_card(checkpoint: Checkpoint, out: Path, kind: str, parameters: int) -> str:
    data = checkpoint.data
    directions = f"{data.src_lang}→{data.tgt_lang}" + (" and back" if data.bidirectional else "")
    c = checkpoint.model
    sections = [
        front_matter(checkpoint, kind),
        f"# {checkpoint.path.name}: {directions} ({kind})",
        f"A Transformer trained with fanyi: d_model {c.d_model}, d_ff {c.d_ff}, h {c.h}, "
        f"{c.N_enc}+{c.N_dec} layers, {c.norm}-norm, {parameters / 1e6:.1f}M parameters, "
        f"exported by `fanyi export --format {kind}`.",
        "## Data and licence\n\n" + data_section(checkpoint),
        "## Scores\n\n" + scores_section(checkpoint),
        "## Preprocessing\n\n" + preprocessing_section(checkpoint),
        "## How to load it\n\n" + loading_section(checkpoint, out, kind),
    ]
    return "\n\n".join(sections) + "\n"


def front_matter(checkpoint: Checkpoint, kind: str) -> str:
    """The YAML header the Hugging Face Hub reads."""
    lines = ["---", f"language: [{', '.join(checkpoint.data.langs)}]"]
    found = corpora(checkpoint)[0]
    if any(corpus.research_only for corpus in found):
        lines.append("license: other")  # research use, as its data (the card's Data and licence)
    elif any(corpus.share_alike for corpus in found):
        lines.append(f"license: {SHARE_ALIKE.lower()}")
    tags = ["translation", "fanyi", LIBRARIES[kind]]
    lines += [f"library_name: {LIBRARIES[kind]}", f"tags: [{', '.join(tags)}]", "---"]
    return "\n".join(lines)


def corpora(checkpoint: Checkpoint) -> tuple[list[Corpus], list[str]]:
    """(the known corpora the model learnt from, what it learnt from that fanyi does not know):
    those of its training files, and those its ``config.yaml`` names in ``trained_on`` (the
    corpora of earlier training stages, which its data section no longer lists)."""
    data = checkpoint.data
    files = [f for f in [data.train, *data.extra_train] if f]
    known = {f: next((c for c in CORPORA if c.marker in f), None) for f in files}
    named = trained_on(checkpoint)
    known.update({name: next((c for c in CORPORA if c.name == name), None) for name in named})
    found = list(dict.fromkeys(c for c in known.values() if c is not None))
    return found, [f for f, c in known.items() if c is None]


def trained_on(checkpoint: Checkpoint) -> list[str]:
    """The corpus names of the ``trained_on`` list of the model's ``config.yaml`` (none: [])."""
    config = checkpoint.path / CONFIG_FILE
    names = read_yaml(config).get("trained_on") or []
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"{config}: trained_on must be a list of corpus names")
    return names


def data_section(checkpoint: Checkpoint) -> str:
    source = checkpoint.info.converted_from
    if source:
        return (
            f"Converted by `fanyi convert` from `{source}`: its training data, licence and "
            "scores are the original model's; see its own model card."
        )
    found, unknown = corpora(checkpoint)
    lines = [f"- {c.title}: {c.licence}" for c in found]
    lines += [
        f"- `{f}`: not a corpus fanyi knows, so its source and licence are not recorded here; "
        "name them before you share this model"
        for f in unknown
    ]
    return "Trained on:\n\n" + "\n".join(lines) + "\n\n" + terms(found)


def terms(found: list[Corpus]) -> str:
    """What the corpora ``found`` ask of a model trained on them."""
    text = "fanyi's code is MIT-licensed; the weights come under the terms of their data. "
    text += "Credit every corpus above when you share or use this model."
    if alike := [c.name for c in found if c.share_alike]:
        text += f" Share-alike ({', '.join(alike)}): share this model under CC BY-SA 4.0."
    if research := [c.name for c in found if c.research_only]:
        text += f" Research use only ({', '.join(research)}): so is this model."
    return text


def scores(checkpoint: Checkpoint) -> list[Score]:
    """The ``scores`` section of the model's ``config.yaml`` (none: [])."""
    config = checkpoint.path / CONFIG_FILE
    found = read_yaml(config).get("scores") or []
    if not isinstance(found, list) or not all(isinstance(s, dict) for s in found):
        raise ValueError(f"{config}: scores must be a list of mappings")
    try:
        return [config_io.from_dict(Score, s) for s in found]
    except (TypeError, ValueError) as error:
        raise ValueError(f"{config}: scores: {error}") from None


def scores_section(checkpoint: Checkpoint) -> str:
    found = scores(checkpoint)
    if not found:
        return "No scores are recorded in this model's `config.yaml`: `fanyi evaluate` scores it."
    rows = [
        f"| {s.direction} | {s.test_set} | {s.decoding} | {s.bleu:.2f} | "
        f"{'' if s.chrf is None else f'{s.chrf:.2f}'} | `{s.bleu_signature}` | "
        f"{'' if s.chrf_signature is None else f'`{s.chrf_signature}`'} |"
        for s in found
    ]
    header = "| direction | test set | decoding | BLEU | chrF | BLEU signature | chrF signature |"
    return "\n".join([header, "| --- | --- | --- | ---: | ---: | --- | --- |", *rows])


def normalise_call(checkpoint: Checkpoint, text: str, lang: str) -> str:
    """The ``preprocess.normalise`` call for ``text`` under the model's settings."""
    data = checkpoint.data
    flags = "" if data.nfkc and data.t2s else f", nfkc={data.nfkc}, t2s={data.t2s}"
    return f"normalise({literal(text)}, {literal(lang)}{flags})"


def literal(text: str) -> str:
    """``text`` as a Python string literal in double quotes."""
    return json.dumps(text, ensure_ascii=False)


def preprocessing_section(checkpoint: Checkpoint) -> str:
    data = checkpoint.data
    if not (data.nfkc or data.t2s):
        return "None: text goes to the SentencePiece model as it is (as MarianTokenizer reads it)."
    src = data.src_lang
    example = EXAMPLES.get(src, "Hello.")
    return (
        "The model was trained on normalised text; feed it text normalised the same way, or it "
        "scores lower (Traditional Chinese, full-width Latin letters and digits). "
        f"`{PREPROCESS_FILE}`, beside this card, is fanyi's normalisation without fanyi (needs "
        "`pip install opencc`): NFKC everywhere except the full-width punctuation of Chinese "
        "(，？！：…), whitespace and zero-width runs to one space, and Chinese converted "
        f"Traditional → Simplified (OpenCC `t2s`): `{normalise_call(checkpoint, example, src)}`, "
        f"or `python {PREPROCESS_FILE} {src} < raw.txt`. fanyi also translates each sentence of a "
        "line on its own (split after 。！？ and . ! ?): the model learned from single sentences."
    )


def loading_section(checkpoint: Checkpoint, out: Path, kind: str) -> str:
    data = checkpoint.data
    if kind == "ctranslate2":
        code = ctranslate2_code(checkpoint, str(out))
        notes = ["The source ends with `</s>`, as in training: CTranslate2 does not add it here."]
        if data.lang_tags:
            notes.append(f"Its first token, `<2{data.tgt_lang}>`, names the target language.")
        notes.append(
            "\n\nWith fanyi (its normalisation, sentence splitting and the search of the scores "
            f"above): `fanyi translate --engine ctranslate2 -m {out}`."
        )
    else:
        code = huggingface_code(checkpoint, str(out))
        notes = ["`generate` searches with the model's beam, up to 512 tokens (generation_config)."]
        if data.lang_tags:
            notes.append(f"`>>{data.tgt_lang}<<` names the target language.")
        notes.append(f"\n\nBack into fanyi: `fanyi convert {out} -o DIR`.")
    return f"```python\n{code}\n```\n\n" + " ".join(notes).replace(" \n", "\n")


def source_text(checkpoint: Checkpoint) -> str:
    """The example source of the loading code, normalised as the model needs."""
    data = checkpoint.data
    text = EXAMPLES.get(data.src_lang, "Hello.")
    if data.nfkc or data.t2s:
        return normalise_call(checkpoint, text, data.src_lang)
    return literal(text)


def preamble(checkpoint: Checkpoint, imports: list[str], model: str) -> list[str]:
    """Imports and ``MODEL`` of the loading code (``preprocess`` where the model normalises)."""
    if not (checkpoint.data.nfkc or checkpoint.data.t2s):
        return [*imports, "", f"MODEL = {literal(model)}"]
    return [
        "import sys",
        "",
        *imports,
        "",
        f"MODEL = {literal(model)}",
        f"sys.path.insert(0, MODEL)  # {PREPROCESS_FILE}",
        "from preprocess import normalise",
        "",
    ]


def ctranslate2_code(checkpoint: Checkpoint, model: str) -> str:
    vocab, data = checkpoint.vocab, checkpoint.data
    imports = ["import ctranslate2", "import sentencepiece as spm"]
    tag = f'"<2{data.tgt_lang}>", ' if data.lang_tags else ""
    lines = [
        *preamble(checkpoint, imports, model),
        *sentencepiece_models(vocab.src_model, vocab.tgt_model),
        "translator = ctranslate2.Translator(MODEL)",
        f'tokens = [{tag}*source.encode({source_text(checkpoint)}, out_type=str), "</s>"]',
        f"result = translator.translate_batch([tokens], beam_size={beam(checkpoint)})",
        "print(target.decode(result[0].hypotheses[0]))",
    ]
    return "\n".join(lines)


def sentencepiece_models(source: str, target: str) -> list[str]:
    """The loading code's ``source`` and ``target`` SentencePiece models (one, if joint)."""
    load = 'spm.SentencePieceProcessor(model_file=f"{{MODEL}}/{}")'
    if source == target:
        return [f"source = target = {load.format(source)}"]
    return [f"source = {load.format(source)}", f"target = {load.format(target)}"]


def huggingface_code(checkpoint: Checkpoint, model: str) -> str:
    data = checkpoint.data
    # export_hf: a pre-norm model is exported as Pegasus, with MarianTokenizer's files
    tokenizer, architecture = ("MarianTokenizer", "MarianMTModel")
    if checkpoint.model.norm == "pre":
        tokenizer, architecture = ("AutoTokenizer", "PegasusForConditionalGeneration")
    imports = [f"from transformers import {', '.join(sorted([architecture, tokenizer]))}"]
    tag = f'">>{data.tgt_lang}<< " + ' if data.lang_tags else ""
    lines = [
        *preamble(checkpoint, imports, model),
        f"tokenizer = {tokenizer}.from_pretrained(MODEL)",
        f"model = {architecture}.from_pretrained(MODEL)",
        f'batch = tokenizer([{tag}{source_text(checkpoint)}], return_tensors="pt")',
        "print(tokenizer.batch_decode(model.generate(**batch), skip_special_tokens=True)[0])",
    ]
    return "\n".join(lines)


def beam(checkpoint: Checkpoint) -> int:
    """The model's beam: its ``decode`` section's, else fanyi's default (DecodeConfig's 5)."""
    return int(checkpoint.decode.get("beam", 5))
