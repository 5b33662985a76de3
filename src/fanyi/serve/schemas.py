"""The JSON of ``POST /translate`` and ``GET /health``, as pydantic models (documented in OpenAPI)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from ..decode.options import ChineseScript

Number = StrictFloat | StrictInt


class TranslateRequest(BaseModel):
    """Texts to translate, and how."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": ["你好。", "Good morning."], "beam": 5}]},
    )

    text: list[StrictStr] = Field(description="texts to translate, one translation each")
    beam: StrictInt | None = Field(
        None, ge=1, description="beam size (1 = greedy); default: the server's"
    )
    n_best: StrictInt | None = Field(
        None, ge=1, description="candidates per one-sentence text, best first (≤ beam); default 1"
    )
    to: str | None = Field(
        None,
        description="target language, one of /health's targets; default: detected per text "
        "from its script",
    )
    target_prefix: StrictStr | list[StrictStr | None] | None = Field(
        None,
        description="text each translation must start with (the search continues from it): one "
        "for every text, or a list with one per text (null: none)",
    )
    constraints: list[list[StrictStr] | None] | None = Field(
        None,
        description="per text (of one sentence), phrases its translation holds as written "
        "(null: none)",
    )
    attention: StrictBool = Field(
        False, description="include pieces and cross-attention (last layer, mean of heads)"
    )
    # The search options below default to the server's (its model's); each is bounded as the
    # flag of the same name is (422 beyond: the bounds are SearchOptions').
    length_penalty: Number | None = Field(None, description="GNMT α (into every language)")
    constrained_length_penalty: Number | None = Field(
        None, description="GNMT α of a search held to constraints"
    )
    rerank_backward: Number | None = Field(None, description="λ of the backward score, ≥ 0")
    max_len_a: Number | None = Field(None, description="output tokens at most a·|src| + b")
    max_len_b: StrictInt | None = Field(None, description="output tokens at most a·|src| + b")
    min_len: StrictInt | None = Field(None, description="output tokens at least")
    sampling: StrictBool | None = Field(None, description="draw tokens instead of searching")
    temperature: Number | None = Field(None, description="sampling temperature, > 0")
    top_k: StrictInt | None = Field(None, description="sample among the k likeliest; 0 = all")
    top_p: Number | None = Field(None, description="nucleus sampling, 0 < top_p ≤ 1")
    seed: StrictInt | None = Field(None, description="sampling seed")
    repetition_penalty: Number | None = Field(
        None, description="a token already produced: its log-probability × this; 1 = off"
    )
    no_repeat_ngram_size: StrictInt | None = Field(
        None, description="no n-gram of this size twice; 0 = off"
    )
    target_script_only: StrictBool | None = Field(
        None, description="only the target language's script: no Han characters in English"
    )
    script_penalty: Number | None = Field(
        None, description="β ≥ 0 each piece in the other script loses (Latin in Chinese)"
    )
    allowed_softmax: StrictBool | None = Field(
        None, description="softmax over the pieces not suppressed only: faster into English"
    )
    recase_headlines: StrictBool | None = Field(
        None,
        description="a sentence in Title Case read in sentence case (the model's truecase.txt)",
    )
    keep_numbers: StrictBool | None = Field(
        None, description="1,400,000 read as plain digits and written back as the source wrote it"
    )
    keep_code: StrictBool | None = Field(
        None, description="`code` read without its backticks, given them back where it is copied"
    )
    chinese_script: ChineseScript | None = Field(
        None,
        description="into Chinese: Simplified (hans), Traditional (hant), Taiwan's, Hong Kong's",
    )
    keep_list_markers: StrictBool | None = Field(
        None, description="a list item's marker (1. a) 一、) read apart, written back in front"
    )
    hold_numbers: StrictBool | None = Field(
        None, description="a translation that misses a number of its sentence held to them"
    )
    hold_dates: StrictBool | None = Field(
        None, description="a date held as the target writes it (8月11日 ⇄ August 11)"
    )
    keep_links: StrictBool | None = Field(
        None, description="web and e-mail addresses copied as written (a constrained search)"
    )
    hold_code: StrictBool | None = Field(
        None, description="with keep_code, `code` copied as written (a constrained search)"
    )


class Candidate(BaseModel):
    """One translation of one text."""

    text: str
    score: float = Field(description="log-probability / GNMT length penalty (the search's rank)")
    log_prob: float = Field(description="log P(translation | text)")
    tokens: list[str] | None = Field(None, description="target pieces then </s> (with attention)")
    attention: list[list[float]] | None = Field(
        None, description="len(tokens) × len(source_tokens) cross-attention weights"
    )


class Translation(BaseModel):
    """The candidates for one text."""

    text: str = Field(description="the best translation")
    to: str = Field(description="the language translated into")
    candidates: list[Candidate]
    source_tokens: list[str] | None = Field(
        None, description="the pieces the model read: tag, text, </s> (with attention)"
    )


class TranslateResponse(BaseModel):
    """One entry per input text, in order."""

    translations: list[Translation]


class Health(BaseModel):
    """The service is up; what it serves."""

    status: Literal["ok"] = "ok"
    model: str = Field(description="the model directory's name (with its run's, for a checkpoint)")
    targets: list[str] = Field(description="the languages the model translates into")
    beam: int = Field(description="the beam size of a request that gives none")
    waiting: int = Field(description="texts queued or being decoded")
    busy: bool = Field(description="whether a batch is being decoded now")
    decoding: int = Field(description="batches being decoded (they take turns, step by step)")
    decoding_s: float = Field(description="seconds the oldest batch now decoding has taken")
