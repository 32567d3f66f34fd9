"""Fakes shared by the tests: a recording chat adapter and small quizzes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.domain.model import ChatRef, LocalText, MessageRef, Player, Question, QuestionCard, Quiz, Reply, Reveal
from bot.ports.chat import DeliveryUncertain, MembershipUnknown


def text(en: str, **others: str) -> LocalText:
    return LocalText({"en": en, **others})


def make_quiz(
    quiz_id: str = "demo",
    questions: int = 4,
    options: int = 4,
    title: str = "Demo quiz",
    aliases: tuple[str, ...] = (),
    tags: tuple[str, ...] = (),
) -> Quiz:
    """A quiz whose right answer is option index (i % options) for question i."""
    qs = tuple(
        Question(
            id=f"q{i + 1}",
            prompt=text(f"Question {i + 1}?"),
            options=tuple(text(f"option {i + 1}.{j}") for j in range(options)),
            answer=i % options,
            explanation=text(f"Because {i + 1}. It is so."),
        )
        for i in range(questions)
    )
    return Quiz(quiz_id, text(title), text("A quiz for tests."), qs, aliases, tags, "easy", f"{quiz_id}.yaml")


@dataclass
class RecordingAdapter:
    """A chat platform that records what the engine shows, as a test would read it.

    Faults: `fail_posts` posts fail; every call fails while `down()` says so (the platform
    certainly did nothing); every call fails while `unsure()` says so, with DeliveryUncertain
    (a dropped connection: nothing was done, but the engine cannot know); a call named in
    `lose_replies` (post_question, close_question, send) is done and then its reply is lost
    (DeliveryUncertain), once per mention.
    """

    platform: str = "test"
    questions: list[QuestionCard] = field(default_factory=list)
    reveals: list[tuple[MessageRef | None, Reveal]] = field(default_factory=list)
    sent: list[tuple[ChatRef, Reply]] = field(default_factory=list)
    edits: list[tuple[MessageRef, Reply]] = field(default_factory=list)  # MessageBoard.edit
    fail_posts: int = 0
    down: Callable[[], bool] = lambda: False
    unsure: Callable[[], bool] = lambda: False
    lose_replies: list[str] = field(default_factory=list)
    refused: int = 0  # calls that failed while down
    outsiders: set[str] = field(default_factory=set)  # player keys in no group (everyone else is in all)
    members_unknown: bool = False  # is_member cannot ask the platform (MembershipUnknown)

    async def post_question(self, card: QuestionCard) -> MessageRef:
        self._check_up()
        if self.fail_posts:
            self.fail_posts -= 1
            raise ConnectionError("platform down")
        self.questions.append(card)
        self._reply_lost("post_question")
        return MessageRef(card.chat, f"m{len(self.questions)}")

    async def close_question(self, message: MessageRef | None, reveal: Reveal) -> None:
        self._check_up()
        self.reveals.append((message, reveal))
        self._reply_lost("close_question")

    async def send(self, chat: ChatRef, reply: Reply) -> None:
        self._check_up()
        self.sent.append((chat, reply))
        self._reply_lost("send")

    async def post(self, chat: ChatRef, reply: Reply) -> MessageRef:
        await self.send(chat, reply)
        return MessageRef(chat, f"s{len(self.sent)}")

    async def edit(self, message: MessageRef, reply: Reply) -> None:
        self._check_up()
        self.edits.append((message, reply))

    async def is_member(self, group: ChatRef, player: Player) -> bool:
        if self.members_unknown or self.down():
            raise MembershipUnknown("the platform is down")
        return player.key not in self.outsiders

    def _check_up(self) -> None:
        if self.down():
            self.refused += 1
            raise ConnectionRefusedError("the platform is down")
        if self.unsure():
            self.refused += 1
            raise DeliveryUncertain("the connection dropped")

    def _reply_lost(self, call: str) -> None:
        if call in self.lose_replies:
            self.lose_replies.remove(call)
            raise DeliveryUncertain(f"{call}: the reply was lost")

    def token(self, letter: str, card: QuestionCard | None = None) -> str:
        card = card or self.questions[-1]
        return next(o.token for o in card.options if o.letter == letter)

    def right_letter(self, quiz: Quiz, card: QuestionCard | None = None) -> str:
        """The letter of the right option on a card (tests know the key; players don't)."""
        card = card or self.questions[-1]
        question = quiz.questions[[q.prompt.get("en") for q in quiz.questions].index(card.prompt)]
        right = question.options[question.answer].get(card.language)
        return next(o.letter for o in card.options if o.text == right)

    def wrong_letter(self, quiz: Quiz, card: QuestionCard | None = None) -> str:
        card = card or self.questions[-1]
        right = self.right_letter(quiz, card)
        return next(o.letter for o in card.options if o.letter != right)


def group(chat_id: str = "g1") -> ChatRef:
    return ChatRef("test", chat_id, is_private=False, title="Group")


def private(chat_id: str = "p1") -> ChatRef:
    return ChatRef("test", chat_id, is_private=True)


def player(n: int, name: str | None = None, lang: str | None = None) -> Player:
    return Player("test", f"u{n}", name or f"Player {n}", lang)
