"""Each kind of question in one module (choice, multi, truefalse, typed, numeric, poll, ordering).

A kind module defines one `Kind` (bot/kinds/base.py) as `KIND`, which says:

- its quiz file entry: what `answer` holds (`answer_shape`), how it and the options are checked
  (`check_answer`, `check_options`, `check_keys`: `FileProblem`s naming the kind, which the content
  layer reports), the keys only it takes (`own_keys`), the Question fields it gives
  (`question_fields`) and writes back (`file_answer`);
- how it is posted and answered, as data the adapters render: options pressed once
  (`has_options`), toggled picks with "Done" in private chats (`collects_picks`), or a typed text
  (`accepts_text` for what it can judge); the options the bot supplies (`fixed_options`) and what
  its card says to do (`instruction_for`, message ids the texts layer translates);
- how an answer is judged and scored (`judge`, the domain's `KindRules`), and whether it scores
  at all (`is_scored`);
- its reveal (`right_answer`, `reveal_title`, `answered_label`, `common_responses`), its chart and
  statistics (`chosen_options`, `one_option`, `is_right_response`) and its answer key (`key_text`).

Adding a kind: a module here, its entry in `registry.KINDS`, its `QuestionKind` value
(bot/domain/model.py), and the translations of its message ids. This folder imports only the
domain (an import-linter contract): words, pydantic models and I/O stay in the layers above.
"""

from bot.kinds.base import AnswerWay, FileProblem, Kind
from bot.kinds.registry import DEFAULT, KINDS, by_right_options, check_keys, kind_of
from bot.kinds.worths import records, scored_count, standing_records, worth_of_answer

__all__ = [
    "DEFAULT",
    "KINDS",
    "AnswerWay",
    "FileProblem",
    "Kind",
    "by_right_options",
    "check_keys",
    "kind_of",
    "records",
    "scored_count",
    "standing_records",
    "worth_of_answer",
]
