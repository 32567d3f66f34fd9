"""`quizhost play | run | web | validate | export | import | stats | results | chats | bench`: parsing and
wiring only."""

from __future__ import annotations

import argparse
import asyncio
import sys
from importlib import metadata
from pathlib import Path

from bot.app.logs import setup_logging
from bot.app.settings import Settings, SettingsError, load_settings
from bot.domain.model import LANGUAGES
from storage.dburl import StoreUnavailable


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="quizhost", description="Quizzes for Telegram and Discord groups.")
    parser.add_argument("--version", action="version", version=f"quizhost {_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play a quiz in this terminal (no token needed)")
    play.add_argument("topic", nargs="*", help="quiz id, alias, title word or tag")
    play.add_argument(
        "--lang", choices=LANGUAGES, help="the terminal chat's language; like /language, it is kept for the next games"
    )
    play.add_argument("--as", dest="name", help="your name on the leaderboard (default: You, in the chat's language)")
    sub.add_parser("run", help="host quizzes on every platform whose token is set")
    web = sub.add_parser("web", help="serve the chats' web pages over the local database (no token needed)")
    web.add_argument(
        "--listen", metavar="ADDR", help="host:port to listen on (default: QUIZHOST_WEB_LISTEN, 127.0.0.1:8080)"
    )
    validate = sub.add_parser("validate", help="check quiz files and report every problem")
    validate.add_argument("paths", nargs="*", type=Path, help="files or folders (default: the quiz folders)")
    validate.add_argument("--strict", action="store_true", help="also fail on any missing translation")
    export = sub.add_parser("export", help="print a quiz as plain data (json) or as its quiz file (yaml)")
    export.add_argument("topic", nargs="+")
    export.add_argument("--lang", choices=LANGUAGES, default="en")
    export.add_argument("--format", choices=["json", "yaml"], default="json")
    export.add_argument("--chat", help="a chat's own quiz, by id: the chat's key (telegram:123, discord:456…)")
    export.add_argument("--db", help="the database, with --chat (default: QUIZHOST_DB)")
    export.add_argument(
        "--output", "-o", type=Path, help="write it here, a YAML quiz's pictures beside it (default: standard output)"
    )
    imports = sub.add_parser("import", help="turn a GIFT, Aiken, Open Trivia DB, Kahoot or Quizizz file into a quiz")
    imports.add_argument("file", type=Path)
    imports.add_argument(
        "--format",
        dest="source_format",
        default="auto",
        choices=["auto", "gift", "aiken", "opentdb", "kahoot", "quizizz"],
        help="the file's format (default: from its extension and content)",
    )
    imports.add_argument("--id", dest="quiz_id", help="the quiz id (default: from the file name)")
    imports.add_argument("--title", help="the quiz title (default: from the file)")
    imports.add_argument(
        "--language",
        "--lang",
        dest="lang",
        default="en",
        metavar="TAG",
        help="the language the texts are in, any BCP 47 tag: es, vi, de, ar, pt-BR (default: en)",
    )
    imports.add_argument("-o", dest="out", type=Path, help="write the quiz here (default: standard output)")
    move = sub.add_parser("migrate-db", help="copy a SQLite database into an empty PostgreSQL one")
    move.add_argument("--from", dest="source", required=True, help="sqlite:///path (or a path) of the database")
    move.add_argument("--to", dest="target", required=True, help="postgresql://user:password@host:5432/db, empty")
    from bot.app.chats_cli import add_arguments as chats_arguments
    from bot.app.results_cli import add_arguments as results_arguments
    from bot.app.stats_cli import add_arguments as stats_arguments
    from bot.bench import add_arguments as bench_arguments

    chats_arguments(sub.add_parser("chats", help="the chats in the database: their keys, names and quizzes played"))
    stats_arguments(sub.add_parser("stats", help="question statistics: share right, split, flags to fix"))
    results_arguments(
        sub.add_parser("results", help="every answer of a chat as CSV or .xlsx (points add up to the boards)")
    )

    bench_arguments(sub.add_parser("bench", help="load-test the engine and the database; print the figures"))
    return parser


def _version() -> str:
    """The installed package's version, from its metadata (pyproject.toml's, once installed)."""
    try:
        return metadata.version("quizhost")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        settings = load_settings()
    except SettingsError as exc:
        print(f"quizhost: {exc}", file=sys.stderr)
        return 2
    secrets = [
        s.get_secret_value()
        for s in (
            settings.telegram_bot_token,
            settings.discord_bot_token,
            settings.telegram_webhook_secret,
            settings.quizhost_web_secret,
        )
        if s
    ]
    setup_logging(settings.log_level if args.command == "run" else "WARNING", secrets)
    commands = {
        "play": _play,
        "run": _run,
        "validate": _validate,
        "export": _export,
        "bench": _bench,
        "import": _import,
        "migrate-db": _migrate_db,
        "web": _web,
        "stats": _stats,
        "results": _results,
        "chats": _chats,
    }
    try:
        return commands[args.command](args, settings)
    except SettingsError as exc:  # a setting found wrong only when used (QUIZHOST_DB's kind of database)
        print(f"quizhost: {exc}", file=sys.stderr)
        return 2
    except StoreUnavailable as exc:  # QUIZHOST_DB names a database that cannot be used: one line
        print(f"quizhost: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `quizhost play | head`: the reader left; nothing more to say
        sys.stderr.close()
        return 0


def _play(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.wiring import play

    return asyncio.run(play(settings, " ".join(args.topic), args.lang, args.name))


def _web(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.web import serve_web
    from bot.app.wiring import listen_address

    if args.listen:
        try:
            listen_address(args.listen)
        except ValueError as exc:
            print(f"quizhost web: --listen: {exc}", file=sys.stderr)
            return 2
        settings = settings.model_copy(update={"quizhost_web_listen": args.listen})
    return asyncio.run(serve_web(settings))


# what the platforms' libraries raise for a token they refuse; the adapter has logged why
_REFUSED_TOKEN = ("InvalidToken", "LoginFailure")


def _run(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.wiring import run

    malformed = settings.malformed_tokens()
    if malformed:  # before any connection: a platform would only refuse it, after retries
        print("\n".join(f"quizhost: {problem}" for problem in malformed), file=sys.stderr)
        return 2
    try:
        return asyncio.run(run(settings))
    except Exception as exc:
        if type(exc).__name__ in _REFUSED_TOKEN:
            print(
                "quizhost: a platform refused its token; check TELEGRAM_BOT_TOKEN / DISCORD_BOT_TOKEN", file=sys.stderr
            )
            return 1
        if not _is_platform_trouble(exc):
            raise
        # the platform could not be reached even after retries: say so in one line (the log
        # above has the attempts); a supervisor such as systemd starts the bot again later
        print(f"quizhost: could not reach the platform: {exc}", file=sys.stderr)
        return 1


def _is_platform_trouble(exc: BaseException) -> bool:
    module = type(exc).__module__.split(".")[0]
    return module in ("telegram", "discord", "aiohttp") or isinstance(exc, OSError)


def _migrate_db(args: argparse.Namespace, settings: Settings) -> int:
    from storage.migrate import MigrationRefused, describe, migrate

    try:
        copied = asyncio.run(migrate(args.source, args.target))
    except MigrationRefused as exc:
        print(f"quizhost migrate-db: {exc}", file=sys.stderr)
        return 1
    print(describe(copied))
    return 0


def _bench(args: argparse.Namespace, settings: Settings) -> int:
    from bot.bench import main as bench

    return bench(args)


def _validate(args: argparse.Namespace, settings: Settings) -> int:
    from bot.content.catalog import default_quiz_folders
    from bot.content.validate import validate

    paths = args.paths or default_quiz_folders() + settings.quiz_folders()
    missing = [p for p in paths if not p.exists()]
    if missing:
        print("\n".join(f"{p}: no such file or folder" for p in missing))
        return 1
    found = validate(paths, strict=args.strict)
    for warning in found.warnings:  # worth fixing, never a failure
        print(f"warning: {warning}")
    for problem in found.problems:
        print(problem)
    if found.problems:
        print(
            f"{found.files} quiz file(s): {found.loaded} loaded, {found.failed} failed; "
            f"{len(found.problems)} problem(s) found" + (" (strict)" if args.strict else ""),
            file=sys.stderr,
        )
        return 1
    # "N quiz file(s) OK" first: scripts grep for it
    print(
        f"{found.files} quiz file(s) OK"
        + (" (strict)" if args.strict else "")
        + f": {found.loaded} loaded, {found.failed} failed"
    )
    return 0


def _stats(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.stats_cli import main as stats_main

    return stats_main(args, settings)


def _results(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.results_cli import main as results_main

    return results_main(args, settings)


def _chats(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.chats_cli import main as chats_main

    return chats_main(args, settings)


def _export(args: argparse.Namespace, settings: Settings) -> int:
    from bot.app.export_cli import main as export_main

    return export_main(args, settings)


def _import(args: argparse.Namespace, settings: Settings) -> int:
    from bot.content.importers import Malformed, import_quiz, to_yaml
    from bot.content.reading import failure

    try:
        imported = import_quiz(
            args.file.read_bytes(),
            args.file.name,
            args.source_format,
            quiz_id=args.quiz_id,
            title=args.title,
            lang=args.lang,
        )
    except OSError as exc:
        print(f"{args.file}: cannot read it: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except Malformed as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # any other failure of an importer: named, without a traceback
        print(f"{args.file}: {failure(type(exc).__name__, str(exc))}", file=sys.stderr)
        return 1
    for skipped in imported.skipped:
        print(f"{args.file}: {skipped.where}: skipped: {skipped.reason}", file=sys.stderr)
    for note in imported.notes:
        print(f"{args.file}: {note.where}: imported, but {note.reason}", file=sys.stderr)
    if imported.quiz is None:
        print(f"{args.file}: no question could be imported", file=sys.stderr)
        return 1
    text = to_yaml(imported)
    if args.out:
        from bot.app.outputs import made_ready

        made_ready(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    print(
        f"{args.file}: {imported.count} question(s) imported as '{imported.quiz.id}', "
        f"{len(imported.skipped)} skipped" + (f", written to {args.out}" if args.out else ""),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
