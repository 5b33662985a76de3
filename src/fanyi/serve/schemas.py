"""The JSON of ``POST /translate`` and ``GET /health``, as pydantic models (documented in OpenAPI)."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    create_model,
    field_validator,
)

from ..decode.options import SEARCH_HELP, SearchOptions
from ..text.registry import text_options


class RequestBase(BaseModel):
    """Texts to translate, and what each translation is held to; the options' fields are added
    from their metadata (``translate_request``)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"text": ["你好。", "Good morning."], "beam": 5}]},
    )

    text: list[StrictStr] = Field(
        description="texts to translate, one translation each (a string: one text)"
    )
    to: str | None = Field(
        None,
        description="target language: a code of one of /health's targets, in any case (en, "
        "en-US, zh, zh-CN, zh-TW: Taiwan's characters, zh-HK, zh-Hant); default: detected per "
        "text from its script; a text already in it is returned as it is",
    )
    source_lang: str | None = Field(
        None,
        alias="from",
        description="the texts' language (any code of one of the model's); default: detected "
        "per text from the script most of its words are written in",
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

    @field_validator("text", mode="before")
    @classmethod
    def _one_text(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    def options(self) -> dict[str, Any]:
        """The search and text options this request sets (those not null)."""
        fixed = set(RequestBase.model_fields)
        return {k: v for k, v in self.model_dump().items() if k not in fixed and v is not None}


# The JSON type of each kind of option value (strict: "1" is not a number, 1 not a boolean)
Number = StrictFloat | StrictInt
_JSON_TYPES: dict[Any, Any] = {
    bool: StrictBool,
    int: StrictInt,
    float: Number,
    list[int]: list[StrictInt],
    dict[str, float]: dict[StrictStr, Number],
}


def translate_request() -> type[RequestBase]:
    """The request model: RequestBase with one optional field per search option and per text
    option of the registry (null: the server's default), each described by its help."""
    fields: dict[str, Any] = {}
    for name, hint in typing.get_type_hints(SearchOptions).items():
        base = (
            [a for a in typing.get_args(hint) if a is not type(None)] if _optional(hint) else [hint]
        )
        kind = _JSON_TYPES.get(base[0], base[0])
        fields[name] = (kind | None, Field(None, description=SEARCH_HELP[name]))
    for option in text_options():
        kind = (
            option.json
            if option.json is not None
            else Literal[option.choices]
            if option.choices
            else StrictBool
        )
        fields[option.name] = (kind | None, Field(None, description=option.help))
    return create_model("TranslateRequest", __base__=RequestBase, **fields)


def _optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


TranslateRequest = translate_request()  # with the transforms registered at import


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

    text: str = Field(description="the best translation (empty where the text failed)")
    to: str | None = Field(
        description="the language translated into (null where it could not be told)"
    )
    candidates: list[Candidate] = Field(description="the n-best list, best first (none: failed)")
    source_tokens: list[str] | None = Field(
        None, description="the pieces the model read: tag, text, </s> (with attention)"
    )
    unplaced: list[tuple[str, str]] = Field(
        [],
        description="the glossary's [term, translation] pairs the text holds and its "
        "translation misses",
    )
    error: str | None = Field(
        None,
        description="why this text was not translated (not Unicode, too long, or failed); the "
        "request's other texts are translated all the same",
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
