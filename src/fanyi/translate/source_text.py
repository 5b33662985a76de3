"""What a model reads for a text: normalised as its training data, read by the text transforms
(``text/``), cut into sentences, each tagged ``<2xx>`` when the model translates both ways, and
in pieces that fit its positions; with what each sentence's translation must hold."""

from __future__ import annotations

from ..decode.constraints import Spellings
from ..decode.long_input import TooLong, tagged_pieces
from ..decode.options import LongInput
from ..filenames import TRUECASE_FILE
from ..sections import Checkpoint
from ..text import pipeline
from ..text.lang import Normalizer, add_tag
from ..text.languages import Languages, in_chinese_script
from ..text.options import TextOptions
from ..text.recase import read_lowercase
from ..text.transform import Context
from .pending import Pending
from .request import Request
from .target_text import TargetText
from .translation import unicode_problem

Pieces = tuple[list[list[int]], list[list[Spellings]]]  # ids of each piece, its constraints


class SourceText:
    """A model directory's text settings: languages, normalisation, vocabularies, special ids."""

    def __init__(self, checkpoint: Checkpoint) -> None:
        self.checkpoint, self.model, data = checkpoint, checkpoint.model, checkpoint.data
        self.languages = Languages(data.src_lang, data.tgt_lang, data.bidirectional)
        self.src_vocab, self.tgt_vocab = checkpoint.vocabularies()
        self.target = TargetText(checkpoint, self.tgt_vocab)
        self.tags = {lang: self.ids("", lang)[:-1] for lang in self.languages.targets}
        own, first = checkpoint.path, checkpoint.model_dirs[0]  # else an ensemble's first member's
        self.lowercase = read_lowercase(own / TRUECASE_FILE, first / TRUECASE_FILE)

    def ids(self, text: str, to: str) -> list[int]:
        """The ids the model reads for ``text`` (one sentence) into ``to``: tag, pieces, EOS."""
        if problem := unicode_problem(text):
            raise ValueError(problem)
        if self.checkpoint.data.lang_tags:
            text = add_tag(text, to)
        return [*self.src_vocab.encode(text), self.model.eos_id]

    def reading(
        self, text: str, to: str, options: TextOptions, prefixed: bool = False
    ) -> pipeline.Reading:
        """``text`` normalised as the source side of the training data, then read by the text
        transforms (``prefixed``: its translation starts with a target prefix)."""
        data, source = self.checkpoint.data, self.languages.source_of(to)
        context = Context(source, to, options, self.lowercase)
        normalized = Normalizer(source, nfkc=data.nfkc, t2s=data.t2s)(text)
        return pipeline.read(normalized, context, prefixed)

    def prepare(
        self, request: Request, options: TextOptions, long: LongInput, hold: bool
    ) -> Pending:
        """``request`` on its way: its direction (a text in the language asked kept as it is),
        pieces (``long``: a sentence too long split, or an error), target prefix and constraints
        (the user's; with ``hold``, the transforms'), or why it is not translated."""
        way = self.languages.direction(request.text, request.to, request.source_lang)
        lang, error, forced = way.to, unicode_problem(request.text), []
        if way.chinese_script is not None:  # zh-TW: this text's translation in Taiwan's characters
            options = options.replace(chinese_script=way.chinese_script)
        if way.unchanged and error is None:  # in the language asked already: no model
            kept = in_chinese_script(request.text, way.chinese_script)
            return Pending(request.text, lang, [], [], source_lang=way.source, unchanged=kept)
        held: Pieces = ([], [])
        reading = None if error else self.reading(request.text, lang, options, bool(request.prefix))
        try:
            if reading is not None:
                held = self._pieces(reading, long, request.constraints, hold)
        except TooLong as too:
            error = str(too)
        except ValueError as bad:  # constraints that cannot hold
            error = f"constraints: {bad}"
        try:
            forced = self.target.prefix(request.prefix, lang)
        except ValueError as bad:  # a prefix that cannot start a translation
            error = error or f"target prefix: {bad}"
        pieces, phrases = held  # Pending starts each piece's hypotheses at None
        return Pending(request.text, lang, pieces, [], error, forced, phrases, reading, way.source)

    def pieces(
        self, text: str, to: str, options: TextOptions, long: LongInput = "split"
    ) -> list[list[int]]:
        """The ids of each sentence of ``text``, in pieces that fit the model (``TooLong`` for a
        sentence that does not, with ``long: error``); none when it is not Unicode."""
        if unicode_problem(text):
            return []
        return self._pieces(self.reading(text, to, options), long, (), False)[0]

    def _pieces(
        self, reading: pipeline.Reading, long: LongInput, phrases: tuple[str, ...], hold: bool
    ) -> Pieces:
        """The pieces of the text read and the constraints of each: the user's phrases (one
        sentence, one piece), and with ``hold`` the transforms' (a sentence in one piece)."""
        sentences, to = reading.sentences(), reading.context.to
        if phrases and len(sentences) > 1:
            raise ValueError(f"they hold for one sentence; this text has {len(sentences)}")
        pieces: list[list[int]] = []
        constraints: list[list[Spellings]] = []
        for sentence in sentences:
            fit = self.fitting(sentence, to, long)
            if phrases and len(fit) > 1:
                raise ValueError("the sentence is too long to hold them: it is cut in pieces")
            mine = [self.target.constraint(p, to) for p in phrases]
            found = self.target.held(reading.held(sentence), to) if hold and len(fit) == 1 else []
            pieces += fit
            constraints += [mine + found] + [[] for _ in fit[1:]]
        return pieces, constraints

    def fitting(self, sentence: str, to: str, long: LongInput) -> list[list[int]]:
        """The ids of ``sentence``, cut (``long: split``) into near-equal pieces that each fit
        the model with the tag and EOS when they do not fit whole."""
        ids, tag = self.ids(sentence, to), len(self.tags[to])
        return tagged_pieces(ids, tag, self.model.max_len, long == "split")
