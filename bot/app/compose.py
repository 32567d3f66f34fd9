"""The composition root: every object of one process built here, once, each handed only what it
uses (the store's roles, the catalog, the clock, the collaborators it calls).

Nothing else builds the engine's collaborators, the services or the command groups; nothing else
holds the whole store, except the wiring that opens and closes it (bot/app/wiring.py).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from bot.commands.assign import AssignCommands
from bot.commands.authoring import Authoring
from bot.commands.boards import BoardCommands
from bot.commands.budget import ReplyBudgets
from bot.commands.chatsettings import SettingsCommands
from bot.commands.core import CommandGroups, Commands
from bot.commands.deeplinks import DeepLinks
from bot.commands.extra import ExtraTimeSettings
from bot.commands.finding import QuizFinder
from bot.commands.hosting import HostCommands
from bot.commands.learning import LearningCommands
from bot.commands.quizzes import QuizCommands
from bot.commands.results import ResultSource
from bot.commands.sharing import Shelf
from bot.commands.suggestions import SuggestionDesk
from bot.commands.teams import TeamCommands
from bot.commands.typed import TypedAnswers
from bot.commands.web import WebCommands
from bot.commands.weblinks import WebAddress
from bot.commands.writing import WritingCommands
from bot.content.catalog import Catalog
from bot.content.chatquizzes import ChatQuizzes
from bot.engine.assignments import Assignments
from bot.engine.chats import Chats
from bot.engine.core import Engine
from bot.engine.host_panel import HostPanels
from bot.engine.hosting import Hosting
from bot.engine.live import Broadcast
from bot.engine.presses import Presses
from bot.engine.remote_press import RemoteRuns, RunQuizzes, answer_elsewhere, text_elsewhere
from bot.engine.review import ReviewDesk
from bot.engine.run_lifecycle import RunLifecycle
from bot.engine.run_start import EngineSettings, RunStarter
from bot.engine.run_steps import RunSteps
from bot.engine.run_table import RunTable
from bot.engine.scheduler import Scheduler
from bot.engine.sender import Sender
from bot.engine.standings import Standings
from bot.engine.teams import Teams
from bot.ports.chat import ChatAdapter
from bot.ports.clock import Clock, SystemClock
from bot.ports.live import LiveEvents, SharedLive
from bot.ports.offload import Offload
from bot.ports.store import CoreStore, RunLeases, RunWakeups
from storage.shared.live import LiveChannels


@dataclass(frozen=True)
class Runs:
    """The engine and the collaborators others are handed beside it."""

    engine: Engine
    sender: Sender
    chats: Chats
    press_outcomes: dict[str, int]  # for /metrics (bot/adapters/ops/metrics.py)
    adapters: dict[str, ChatAdapter]  # by platform: Engine.attach fills it, the others read it
    teams: Teams  # the chats' line-ups, which their runs adopt
    live: LiveEvents  # the runs' events for the big screen
    panels: HostPanels  # the hosts' panels, whose buttons the commands' links sign


@dataclass(frozen=True)
class House:
    """One process's objects: what the wiring, the adapters, the bench and the tests reach."""

    store: CoreStore
    catalog: Catalog
    clock: Clock
    settings: EngineSettings
    chat_quizzes: ChatQuizzes
    chats: Chats
    standings: Standings
    results: ResultSource
    engine: Engine
    adapters: Mapping[str, ChatAdapter]  # by platform, as attached to the engine
    sender: Sender
    press_outcomes: dict[str, int]
    review: ReviewDesk
    scheduler: Scheduler
    assignments: Assignments
    web: WebCommands
    commands: Commands
    live: LiveEvents  # the runs' events, which the big screen follows (bot/adapters/web/screen.py)


@dataclass(frozen=True)
class _Parts:
    """What most pieces are built from: the composition root's own, never handed on whole."""

    store: CoreStore
    catalog: Catalog
    clock: Clock
    settings: EngineSettings
    chat_quizzes: ChatQuizzes
    runs: Runs


def compose(
    catalog: Catalog,
    store: CoreStore,
    clock: Clock | None = None,
    settings: EngineSettings | None = None,
    web: WebAddress | None = None,
    offload: Offload | None = None,
    rng: random.Random | None = None,
) -> House:
    """`offload`: where uploaded files are read (the wiring's reader processes), here by default;
    `rng`: what draws a run's questions and option orders (a test seeds its own)."""
    clock = clock or SystemClock()
    settings = settings or EngineSettings()
    chat_quizzes = ChatQuizzes(store, catalog, clock, offload)
    runs = build_runs(catalog, store, clock, settings, chat_quizzes, rng or random.Random())
    parts = _Parts(store, catalog, clock, settings, chat_quizzes, runs)
    review = ReviewDesk(
        store=store,
        catalog=catalog,
        chat_quizzes=chat_quizzes,
        clock=clock,
        chats=runs.chats,
        adapters=runs.adapters,
        sender=runs.sender,
    )
    scheduler = Scheduler(
        store=store,
        engine=runs.engine,
        chat_quizzes=chat_quizzes,
        clock=clock,
        chats=runs.chats,
        adapters=runs.adapters,
        sender=runs.sender,
    )
    assignments = Assignments(
        store=store,
        engine=runs.engine,
        chat_quizzes=chat_quizzes,
        clock=clock,
        chats=runs.chats,
        adapters=runs.adapters,
        settings=settings,
    )
    web_commands = WebCommands(store, clock, web or WebAddress())
    standings = Standings(store, clock)
    commands = build_commands(parts, review, scheduler, assignments, web_commands, standings)
    return House(
        store=store,
        catalog=catalog,
        clock=clock,
        settings=settings,
        chat_quizzes=chat_quizzes,
        chats=runs.chats,
        standings=standings,
        results=ResultSource(store, catalog, chat_quizzes),
        engine=runs.engine,
        adapters=runs.adapters,
        sender=runs.sender,
        press_outcomes=runs.press_outcomes,
        review=review,
        scheduler=scheduler,
        assignments=assignments,
        web=web_commands,
        commands=commands,
        live=runs.live,
    )


def build_commands(
    parts: _Parts,
    review: ReviewDesk,
    scheduler: Scheduler,
    assignments: Assignments,
    web: WebCommands,
    standings: Standings,
) -> Commands:
    """The command groups, and the facade that dispatches to them."""
    store, catalog, clock, chat_quizzes, runs = parts.store, parts.catalog, parts.clock, parts.chat_quizzes, parts.runs
    engine, chats = runs.engine, runs.chats
    suggestions = SuggestionDesk(
        store=store,
        catalog=catalog,
        chat_quizzes=chat_quizzes,
        clock=clock,
        chats=chats,
        adapters=runs.adapters,
        settings=parts.settings,
    )
    authoring = Authoring(store, clock, suggestions, Shelf(store, catalog, chat_quizzes))
    quizzes = QuizFinder(catalog, chat_quizzes)
    writing = WritingCommands(authoring, chats)
    links = DeepLinks(store, web.address.secret)  # what signs "Answer" deep links and host panels' buttons
    runs.panels.key = links.key  # a panel read back after a restart is signed as it was
    groups = CommandGroups(
        quizzes=QuizCommands(engine, catalog, chat_quizzes, chats, review),
        boards=BoardCommands(catalog, chat_quizzes, standings, web),
        settings=SettingsCommands(chats, parts.settings, web, ExtraTimeSettings(store)),
        learning=LearningCommands(store, quizzes, chats, review, scheduler),
        assign=AssignCommands(assignments, quizzes, clock, chats),
        writing=writing,
        teams=TeamCommands(runs.teams, chats),
        hosting=HostCommands(engine, chats, writing, links),
    )
    return Commands(
        engine=engine,
        chats=chats,
        quizzes=quizzes,
        clock=clock,
        groups=groups,
        review=review,
        typed=TypedAnswers(store, engine, clock, runs.adapters, review),
        links=links,
        budgets=ReplyBudgets(clock),  # what one user's commands and messages may make us say
    )


def build_runs(
    catalog: Catalog,
    store: CoreStore,
    clock: Clock,
    settings: EngineSettings,
    chat_quizzes: ChatQuizzes,
    rng: random.Random,
) -> Runs:
    """The engine over its collaborators. They call each other back (a run's step is due, a
    question was posted), so those calls look `steps` up when they are made."""
    adapters: dict[str, ChatAdapter] = {}  # by platform: Engine.attach fills it, the sender reads it
    runs = RunTable(clock, lambda run_id: steps.step(run_id))
    sender = Sender(
        store, clock, adapters, posted=lambda m, ref: steps.posted(m, ref), refused=lambda m: steps.refused(m)
    )
    # several workers on one database: presses for other workers' runs, sealed closes, /stop for their runs
    shared = store if isinstance(store, RunLeases) else None
    wakeups = store if isinstance(store, RunWakeups) else None
    chats = Chats(store, runs, settings.default_language)
    teams = Teams(store=store, clock=clock, adapters=adapters)
    # the big screen's events: through the database between workers, else in this process's memory
    live = store.live_events() if isinstance(store, SharedLive) else LiveChannels(now=clock.now)
    broadcast = Broadcast(live, store, clock, teams)
    live.watching(lambda chat_key: broadcast.shown(runs.by_chat.get(chat_key)))  # the owner of its open run
    steps = RunSteps(
        store=store,
        clock=clock,
        catalog=catalog,
        sender=sender,
        runs=runs,
        shared=shared,
        chats=chats,
        teams=teams,
        live=broadcast,
    )
    starter = RunStarter(
        catalog=catalog,
        chat_quizzes=chat_quizzes,
        store=store,
        clock=clock,
        settings=settings,
        chats=chats,
        runs=runs,
        rng=rng,
    )
    lifecycle = RunLifecycle(
        catalog=catalog,
        chat_quizzes=chat_quizzes,
        store=store,
        clock=clock,
        sender=sender,
        runs=runs,
        steps=steps,
        wakeups=wakeups,
    )
    remote = None
    if isinstance(store, RunLeases) and isinstance(store, RunWakeups):  # PostgreSQL: both
        remote = RemoteRuns(store, clock, chats, RunQuizzes(chat_quizzes))
    presses = Presses(
        store=store,
        clock=clock,
        runs=runs,
        chats=chats,
        steps=steps,
        elsewhere=partial(answer_elsewhere, remote) if remote is not None else None,
        text_elsewhere=partial(text_elsewhere, remote) if remote is not None else None,
    )
    panels = HostPanels(adapters, clock, runs, store)
    presses.panels = steps.panels = panels
    hosted = Hosting(
        store=store,
        clock=clock,
        sender=sender,
        runs=runs,
        steps=steps,
        lifecycle=lifecycle,
        chats=chats,
        wakeups=wakeups,
        panels=panels,
    )
    engine = Engine(
        store=store,
        clock=clock,
        adapters=adapters,
        runs=runs,
        sender=sender,
        steps=steps,
        starter=starter,
        lifecycle=lifecycle,
        presses=presses,
        remote=remote,
        hosting=hosted,
    )
    return Runs(engine, sender, chats, presses.outcomes, adapters, teams, live, panels)
