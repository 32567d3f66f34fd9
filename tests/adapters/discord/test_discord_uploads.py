"""/upload file: on Discord end to end: the real wiring and discord.py against the fake Discord,
which serves the attachment on loopback as Discord's CDN would."""

from __future__ import annotations

from bot.testing.fake_discord import FakeDiscord, FakeUser
from bot.testing.fake_discord_payloads import MANAGE_GUILD, MEMBER_PERMISSIONS, visible_text
from tests.support.discord_harness import (  # noqa: F401 (fixtures)
    button_id,
    fake,
    is_question,
    letter_of,
    make_settings,
    prompt_of,
    running_bot,
    server,
)
from tests.support.heavy_files import deep_json

CAPITALS = b"Capital of France?\nA. Berlin\nB. Paris\nANSWER: B\n\nCapital of Peru?\nA) Lima\nB) Quito\nANSWER: A\n"
CAPITALS_V2 = b"Capital of Chile?\nA. Santiago\nB. Lima\nANSWER: A\n"


async def uploads(
    fake: FakeDiscord, user: FakeUser, channel: int, name: str, data: bytes, size: int | None = None
) -> str:
    shown = await fake.slash(user, channel, "upload", file=fake.attach(channel, name, data, size))
    return visible_text(shown)


def boss(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Boss", permissions=MEMBER_PERMISSIONS | MANAGE_GUILD)


async def test_a_manager_uploads_and_the_channel_plays_it_at_once(fake, clock, server, tmp_path):
    _, channel = server
    manager = boss(fake)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        text = await uploads(fake, manager, channel, "capitals.txt", CAPITALS + b"\nNo answer?\nA. x\nB. y\n")
        assert "Saved capitals: 2 questions." in text
        assert "• line 11: no ANSWER line before the end of the file" in text
        assert len(fake.cdn_fetches) == 1
        listing = visible_text(await fake.slash(manager, channel, "quizzes"))
        assert "This chat's own quizzes:" in listing and "capitals (capitals): 2 questions" in listing
        await fake.slash(manager, channel, "quiz", topic="capitals")
        q1 = await fake.wait_message(channel, is_question(1))
        assert prompt_of(q1) == "Capital of France?"


async def test_a_member_is_refused_and_the_attachment_is_not_fetched(fake, clock, server, tmp_path):
    _, channel = server
    member = fake.add_user("Member")
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        assert (
            await uploads(fake, member, channel, "capitals.txt", CAPITALS)
            == "Only chat admins can add or remove quizzes."
        )
        assert fake.cdn_fetches == []
        assert "No quiz matches" in visible_text(await fake.slash(member, channel, "quiz", topic="capitals"))


async def test_too_big_an_attachment_is_refused_unfetched(fake, clock, server, tmp_path):
    _, channel = server
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        text = await uploads(fake, boss(fake), channel, "big.gift", b"Q?{=a ~b}", size=5_000_000)
        assert "Nothing was saved: big.gift has these problems:" in text and "at most 1,000,000" in text
        assert fake.cdn_fetches == []


async def test_a_hindi_channel_reads_why_a_binary_attachment_was_refused_in_hindi(fake, clock, server, tmp_path):
    _, channel = server
    manager = boss(fake)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        await fake.slash(manager, channel, "language", code="hi")
        text = await uploads(fake, manager, channel, "photo.gift", bytes(range(256)) * 8)
        assert "कुछ भी सहेजा नहीं गया: photo.gift में ये समस्याएँ हैं:" in text
        assert "• file: यह बाइनरी फ़ाइल है, पाठ वाली प्रश्नोत्तरी नहीं" in text


async def test_channels_never_see_each_others_quizzes(fake, clock, server, tmp_path):
    guild, first = server
    second = fake.guilds[guild]["channels"][1]
    manager = boss(fake)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        assert "Saved capitals" in await uploads(fake, manager, first, "capitals.txt", CAPITALS)
        assert "capitals" not in visible_text(await fake.slash(manager, second, "quizzes"))
        assert "No quiz matches “capitals”" in visible_text(await fake.slash(manager, second, "quiz", topic="capitals"))
        removed = visible_text(await fake.slash(manager, second, "remove", quiz="capitals"))
        assert "This chat has no quiz capitals" in removed
        assert visible_text(await fake.slash(manager, first, "remove", quiz="capitals")) == "Removed capitals."


async def test_a_replacement_during_a_run_leaves_the_run_its_version(fake, clock, server, tmp_path):
    user = fake.add_user("Solo")
    dm = fake.dm_channel(user)
    async with running_bot(fake, make_settings(tmp_path, fake, discord_guild_ids=""), clock):  # DMs: global ones
        assert "Saved capitals" in await uploads(fake, user, dm, "capitals.txt", CAPITALS)
        await fake.slash(user, dm, "quiz", topic="capitals")
        q1 = await fake.wait_message(dm, is_question(1))
        replaced = await uploads(fake, user, dm, "capitals.txt", CAPITALS_V2)
        assert "Replaced capitals: 1 question. A quiz already running keeps its old version." in replaced
        await fake.press(user, q1.id, button_id(q1, letter_of(q1, "Paris")))
        q2 = await fake.wait_message(dm, is_question(2))
        assert prompt_of(q2) == "Capital of Peru?"


def long_titled(quiz_id: str) -> bytes:
    title = "Capitals of every country in South America and the islands around it, hardest first"  # 84
    return (
        f"id: {quiz_id}\ntitle: {title}\ndescription: Capitals.\nquestions:\n  - id: q\n    prompt: Lima?\n"
        "    options: [Peru, Chile]\n    answer: 0\n"
    ).encode()


async def test_the_quiz_autocomplete_offers_the_channels_own_quizzes_first(fake, clock, server, tmp_path):
    guild, first = server
    second = fake.guilds[guild]["channels"][1]
    manager = boss(fake)
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        assert "Saved capitals" in await uploads(fake, manager, first, "capitals.txt", CAPITALS)
        assert "Saved south-american-capitals" in await uploads(
            fake, manager, first, "sa.yaml", long_titled("south-american-capitals")
        )
        offered = await fake.autocomplete(manager, first, "quiz", focused="topic", topic="")
        assert [c["value"] for c in offered][:2] == ["capitals", "south-american-capitals"]
        assert "pipeline" in [c["value"] for c in offered]  # the shipped ones follow
        long_name = offered[1]["name"]
        assert len(long_name) == 100 and long_name.startswith("Capitals of every country") and long_name[-1] == "…"
        typed = await fake.autocomplete(manager, first, "quiz", focused="topic", topic="capit")
        assert [c["value"] for c in typed] == ["capitals", "south-american-capitals"]
        assert [
            c["value"] for c in await fake.autocomplete(manager, first, "quiz", focused="topic", topic="america")
        ] == ["south-american-capitals"]
        elsewhere = await fake.autocomplete(manager, second, "quiz", focused="topic", topic="capit")
        assert elsewhere == []  # another channel's quizzes are never offered
        await fake.slash(manager, first, "quiz", topic=typed[0]["value"])  # a picked choice starts that quiz
        q1 = await fake.wait_message(first, is_question(1))
        assert prompt_of(q1) in {"Capital of France?", "Capital of Peru?"}
    assert fake.violations == []


async def test_a_file_nested_too_deep_is_refused_naming_it(fake, clock, server, tmp_path):
    _, channel = server
    async with running_bot(fake, make_settings(tmp_path, fake), clock):
        text = await uploads(fake, boss(fake), channel, "deep.json", deep_json())
        assert text == "Nothing was saved: deep.json has these problems:\n• file: nested too deeply to read"
