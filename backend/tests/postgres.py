"""A real, throwaway PostgreSQL server for the tests, from Debian's `postgresql` package.

Each server lives in a fresh temporary directory: a cluster of its own (initdb), listening only
on 127.0.0.1 on a free port, with every durability setting off since its data dies with it.
`server()` starts one per test process, on first use, and stops it at exit.

Usage:
    with PostgresServer() as pg:
        pg.create_database("store")
        engine = create_engine(pg.url("store"))
"""

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

import psycopg
from psycopg import sql

from tests.serving import free_port

# Where Debian installs each major version's server: /usr/lib/postgresql/<version>/bin.
DEBIAN_ROOT = Path("/usr/lib/postgresql")
USER = "c10k"
HOST = "127.0.0.1"
# PostgreSQL refuses to run as root; as root, the server runs as the user the package creates.
SYSTEM_USER = "postgres"
# Durability buys nothing for data thrown away with the test run, and only slows it.
SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # Room for a test that opens many connections (a pool per store, workers, listeners).
    "max_connections": "200",
}
START_TIMEOUT_S = 30


def debian_bin() -> Path:
    """The bin directory of the newest PostgreSQL the Debian package installed."""
    versions = [
        path
        for path in DEBIAN_ROOT.glob("*")
        if (path / "bin" / "initdb").is_file() and (path / "bin" / "pg_ctl").is_file()
    ]
    if not versions:
        raise RuntimeError(
            f"PostgreSQL's initdb and pg_ctl not found under {DEBIAN_ROOT}/*/bin: "
            "install the Debian package `postgresql` (sudo apt-get install postgresql)"
        )
    # Numerically, so that 15 comes after 9.6.
    newest = max(versions, key=lambda path: [int(part) for part in path.name.split(".")])
    return newest / "bin"


class PostgresServer:
    def __init__(self) -> None:
        self.bin = debian_bin()
        self.port = 0
        self.dir: Path | None = None

    def start(self) -> None:
        """initdb into a fresh directory, then start the server and wait until it accepts
        connections."""
        self.dir = Path(tempfile.mkdtemp(prefix="c10k-postgres-"))
        if os.geteuid() == 0:
            shutil.chown(self.dir, SYSTEM_USER, SYSTEM_USER)
        data = self.dir / "data"
        log = self.dir / "server.log"
        try:
            # Locale C: no dependence on which locales the host generated.
            self._run(
                "initdb",
                "-D",
                str(data),
                "--auth=trust",
                f"--username={USER}",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            )
            # PostgreSQL must be told its port (it names its unix socket after it), so the
            # kernel cannot choose it: chosen just before the server binds it, to keep the
            # window for a race short.
            self.port = free_port()
            settings = {
                **SETTINGS,
                "listen_addresses": HOST,
                "port": str(self.port),
                # Not /var/run/postgresql: it may not exist, and belongs to the system's server.
                "unix_socket_directories": str(self.dir),
            }
            with (data / "postgresql.conf").open("a") as conf:
                # Quoted, as an address or a path must be (and any value may be).
                conf.writelines(f"{name} = '{value}'\n" for name, value in settings.items())
            # -w: pg_ctl returns once the server accepts connections, or fails after -t seconds.
            self._run(
                "pg_ctl", "start", "-D", str(data), "-l", str(log), "-w", "-t", str(START_TIMEOUT_S)
            )
        except RuntimeError as error:
            server_log = log.read_text(errors="replace") if log.exists() else ""
            self.stop()
            raise RuntimeError(f"{error}\n{server_log}".rstrip()) from None

    def stop(self) -> None:
        """Stop the server at once (its data is thrown away) and remove its directory."""
        if self.dir is None:
            return
        data = self.dir / "data"
        try:
            if (data / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-D", str(data), "-m", "immediate")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def conninfo(self, database: str) -> str:
        """A libpq URI, for psycopg.connect."""
        return f"postgresql://{USER}@{HOST}:{self.port}/{database}"

    def url(self, database: str) -> str:
        """A SQLAlchemy URL, with the psycopg (3) driver."""
        return f"postgresql+psycopg://{USER}@{HOST}:{self.port}/{database}"

    def create_database(self, name: str, template: str = "template1") -> None:
        """A new database, a copy of `template` (one already migrated saves each test the
        migrations)."""
        # CREATE DATABASE can't run inside a transaction. FILE_COPY (PostgreSQL 15+) copies the
        # template's files instead of logging every page: twice as fast here, with fsync off.
        create = sql.SQL("CREATE DATABASE {} TEMPLATE {} STRATEGY FILE_COPY").format(
            sql.Identifier(name), sql.Identifier(template)
        )
        with psycopg.connect(self.conninfo("postgres"), autocommit=True) as conn:
            conn.execute(create)

    def __enter__(self) -> "PostgresServer":
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", SYSTEM_USER, "--", *command]
        # cwd: the server's user may not be allowed into ours (/root), which initdb minds.
        done = subprocess.run(
            command, cwd=self.dir, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout}"
            )


_server: PostgresServer | None = None


def server() -> PostgresServer:
    """This process's server, started on first use and stopped when the interpreter exits."""
    global _server
    if _server is None:
        started = PostgresServer()
        started.start()
        owner = os.getpid()

        def stop() -> None:
            # A forked child that exits normally runs its parent's atexit handlers too.
            if os.getpid() == owner:
                started.stop()

        atexit.register(stop)
        _server = started
    return _server
