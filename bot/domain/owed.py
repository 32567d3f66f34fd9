"""The messages a run owes its chat, as outbox rows: one key per message, so the same
message recorded twice (a step repeated after a restart) is stored and sent once."""

from __future__ import annotations

from bot.domain import outbox_codec as codec
from bot.domain import session
from bot.domain.model import MessageRef, Reply, Reveal
from bot.domain.records import MessageKind, OutboxMessage
from bot.domain.session import Run


def key(run: Run, kind: MessageKind) -> str:
    """The podium is once per run; every other message once per question."""
    where = "end" if kind is MessageKind.PODIUM else str(run.row.index)
    return f"{run.id}:{where}:{kind}"


def question(run: Run, now: float) -> OutboxMessage:
    card = session.card(run)
    return _message(run, MessageKind.QUESTION, codec.dump_card(card), now, card)


def close(run: Run, message: MessageRef | None, reveal: Reveal, now: float) -> OutboxMessage:
    return _message(run, MessageKind.CLOSE, codec.dump_close(message, reveal), now, (message, reveal))


def podium(run: Run, reply: Reply, now: float) -> OutboxMessage:
    return _message(run, MessageKind.PODIUM, codec.dump_reply(run.chat, reply), now, (run.chat, reply))


def notice(run: Run, reply: Reply, now: float) -> OutboxMessage:
    return _message(run, MessageKind.NOTICE, codec.dump_reply(run.chat, reply), now, (run.chat, reply))


def closed_notice(run: Run, reply: Reply, now: float) -> OutboxMessage:
    """The short reply after a closing edit ("Question 3 closed: B") for a chat that asked for it:
    a notice keyed apart from one that ends the run at the same question."""
    payload = codec.dump_reply(run.chat, reply)
    return OutboxMessage(
        f"{key(run, MessageKind.CLOSE)}:notice",
        run.id,
        run.row.chat_key,
        MessageKind.NOTICE,
        payload,
        now,
        made=(run.chat, reply),
    )


def _message(run: Run, kind: MessageKind, payload: str, now: float, made: object) -> OutboxMessage:
    return OutboxMessage(key(run, kind), run.id, run.row.chat_key, kind, payload, now, made=made)


def round_notice(run: Run, reply: Reply, now: float, part: str) -> OutboxMessage:
    """A round's message at this question ("start": its name, before the question; "standings":
    after its close), keyed apart from the question's other notices."""
    payload = codec.dump_reply(run.chat, reply)
    return OutboxMessage(
        f"{key(run, MessageKind.NOTICE)}:round-{part}",
        run.id,
        run.row.chat_key,
        MessageKind.NOTICE,
        payload,
        now,
        made=(run.chat, reply),
    )


def hint_notice(run: Run, reply: Reply, now: float) -> OutboxMessage:
    """The open question's hint (its host asked, or half its time went): once per question,
    keyed apart from the question's other notices."""
    payload = codec.dump_reply(run.chat, reply)
    key_ = f"{key(run, MessageKind.NOTICE)}:hint"
    return OutboxMessage(key_, run.id, run.row.chat_key, MessageKind.NOTICE, payload, now, made=(run.chat, reply))


def host_notice(run: Run, reply: Reply, now: float, what: str) -> OutboxMessage:
    """A notice of the host's (`what`: paused, resumed): a question may be paused and resumed
    more than once, so each is keyed by its moment too."""
    payload = codec.dump_reply(run.chat, reply)
    key_ = f"{key(run, MessageKind.NOTICE)}:{what}:{now!r}"
    return OutboxMessage(key_, run.id, run.row.chat_key, MessageKind.NOTICE, payload, now, made=(run.chat, reply))
