"""`python -m c10klab up`: the API and the runner as two supervised processes.

- A child that dies is started again after a back-off; the other one keeps running. The runner
  may crash or be killed in the middle of a run: the API stays up and says so at /api/health,
  the run is failed when its lease runs out (the API's job, see main.py), and the new runner
  removes the old one's containers before it takes the next run.
- Started as root (`make up` on a fresh machine), the API runs as an unprivileged user with no
  way to the Docker socket; only the runner, which starts the benchmark containers, keeps root.
  A hole in the API is then not root on the host.
- Where the host has CPUs to spare beyond the benchmark's pinned ones, both children keep off
  the benchmark's CPUs (each moves itself: `keep_off_benchmark`), and this moves the Docker
  engine off them too.
- Ctrl-C or SIGTERM stops both, waiting a bounded time before killing what is left.
"""

import os
import pwd
import signal
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from c10klab.config import Settings, get_settings, host_spare_cpus
from c10klab.db import Database, share_with_folder_owner
from c10klab.people.join_links import is_loopback, machine_addresses

# The unprivileged account the API runs as when the course is started as root.
API_USER = "c10klab"
BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 30.0
# A child that ran this long before dying starts again without waiting.
STABLE_S = 60.0
STOP_GRACE_S = 10.0


# The Docker engine's processes, kept off the benchmark's CPUs with the course's own.
ENGINE_PROCESSES = frozenset({"dockerd", "containerd"})


def engine_threads(proc: Path = Path("/proc")) -> list[int]:
    """Every thread of the Docker engine's processes on this host (none in a container)."""
    threads = []
    for status in proc.glob("[0-9]*/comm"):
        try:
            if status.read_text().strip() in ENGINE_PROCESSES:
                threads += [int(t.name) for t in (status.parent / "task").iterdir()]
        except OSError:
            continue  # gone meanwhile, or not ours to read
    return threads


def pin_engine(cpus: set[int]) -> int:
    """Move the engine's threads to `cpus`; returns how many moved. Threads it starts later
    inherit the mask; a container's processes get their cpuset from their cgroup."""
    moved = 0
    for tid in engine_threads():
        try:
            os.sched_setaffinity(tid, cpus)
            moved += 1
        except OSError:
            continue
    return moved


def keep_off_benchmark(settings: Settings) -> set[int] | None:
    """Move this process (before it starts threads: they inherit the mask) to the host's spare
    CPUs, if it has any; returns them. The API and the runner call it as they start, however
    they were started: `make up`, `make runner`, or a compose service."""
    spare = host_spare_cpus(settings)
    # within what it may use already (a container's cpuset may be narrower)
    allowed = (spare or set()) & os.sched_getaffinity(0)
    if allowed:
        os.sched_setaffinity(0, allowed)
    return spare


@dataclass(frozen=True)
class Account:
    uid: int
    gid: int
    name: str


def ensure_api_account(name: str = API_USER) -> Account:
    """The API's account, made as a system user without a home or a shell if missing."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
            check=True,
        )
        entry = pwd.getpwnam(name)
    return Account(entry.pw_uid, entry.pw_gid, name)


def hand_store_to(account: Account, db_path: Path) -> None:
    """The store's folder and files belong to the API's account: it writes runs and events,
    and SQLite makes its -wal and -shm files there (db.share_with_folder_owner says how the
    root runner's files stay writable for it). The folder must be the store's own: a shared
    one such as /tmp cannot be handed over."""
    folder = db_path.parent
    folder.mkdir(parents=True, exist_ok=True)
    if folder.stat().st_mode & stat.S_ISVTX:
        raise SystemExit(
            f"C10K Lab: the store {db_path} sits in the shared folder {folder}; give it a "
            f"folder of its own (e.g. C10K_DB_PATH={folder}/c10klab/store.sqlite3)"
        )
    os.chown(folder, account.uid, account.gid)
    share_with_folder_owner(db_path)


def check_readable_by(account: Account, settings: Settings) -> None:
    """Fail now, with what to do, if the API's account cannot read the course's files (a
    checkout under /root is a common case); otherwise the API would crash at every start."""
    probe = (
        "import os, sys; import c10klab; "
        "sys.exit(0 if all(os.access(p, os.R_OK) for p in sys.argv[1:]) else 3)"
    )
    paths = [settings.content_dir, settings.sandboxes_dir / "catalog.json"]
    if settings.store_is_file:
        paths.append(settings.db_path.parent)
    result = subprocess.run(
        [sys.executable, "-c", probe, *map(str, paths)],
        user=account.uid,
        group=account.gid,
        extra_groups=[],
        capture_output=True,
    )
    if result.returncode != 0:
        raise SystemExit(
            f"C10K Lab: started as root, the API runs as the unprivileged user {account.name!r}, "
            f"which cannot read {settings.repo_root} or its Python environment "
            f"({result.stderr.decode(errors='replace').strip()[-200:] or 'permission denied'}). "
            "Put the checkout where other users can read it (e.g. /opt or /srv), or start "
            "the course as a non-root user who is in the docker group."
        )


@dataclass
class Child:
    name: str
    argv: list[str]
    account: Account | None = None
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    backoff_s: float = BACKOFF_FIRST_S
    restart_at: float | None = None
    restarts: int = 0

    def start(self) -> None:
        as_user = (
            {"user": self.account.uid, "group": self.account.gid, "extra_groups": []}
            if self.account
            else {}
        )
        self.process = subprocess.Popen(self.argv, **as_user)  # type: ignore[call-overload]
        self.started, self.restart_at = time.monotonic(), None

    def check(self) -> None:
        """Start again a child that died, after its back-off."""
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restarts += 1
                self.start()
            return
        assert self.process is not None
        code = self.process.poll()
        if code is None:
            return
        if now - self.started >= STABLE_S:
            self.backoff_s = BACKOFF_FIRST_S
        print(
            f"C10K Lab: the {self.name} exited with code {code}; starting it again in "
            f"{self.backoff_s:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        self.restart_at = now + self.backoff_s
        self.backoff_s = min(self.backoff_s * 2, BACKOFF_MAX_S)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()

    def wait_or_kill(self, deadline: float) -> None:
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            print(f"C10K Lab: the {self.name} did not stop in time; killing it", file=sys.stderr)
            self.process.kill()
            self.process.wait()


def children(settings: Settings) -> list[Child]:
    command = [sys.executable, "-m", "c10klab"]
    api_account = None
    if os.geteuid() == 0:
        api_account = ensure_api_account()
        if settings.store_is_file:
            # Made here, then handed over: a store file the root runner made first would be
            # read-only for the API.
            Database(settings.db_path)
            hand_store_to(api_account, settings.db_path)
        check_readable_by(api_account, settings)
    return [
        Child("runner", [*command, "runner"]),
        Child("api", [*command, "api"], account=api_account),
    ]


def room_address_note(settings: Settings) -> str:
    """Where a room reaches a classroom course started with `make up`, or why it cannot."""
    if settings.public_url:
        return f"C10K Lab: students open {settings.public_url}"
    if is_loopback(settings.listen_host):
        return (
            f"C10K Lab: listening on {settings.listen_host} only, so no other machine can open "
            "the class: leave C10K_HOST unset (or 0.0.0.0) to serve a room"
        )
    found = [
        f"http://{a if ':' not in a else f'[{a}]'}:{settings.port}" for a in machine_addresses()
    ]
    if not found:
        return "C10K Lab: this machine has no network address students could reach"
    return (
        f"C10K Lab: students open {' or '.join(found)} (allow TCP port {settings.port} "
        "through the firewall)"
    )


def supervise() -> int:
    settings = get_settings()  # validate once here, so a bad setting fails before anything starts
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    kids = children(settings)
    for kid in kids:
        kid.start()
    spare = host_spare_cpus(settings)
    if spare and os.geteuid() == 0:
        moved = pin_engine(spare)
        print(f"C10K Lab: the course and {moved} engine threads keep off the benchmark's CPUs")
    who = f" (API as user {kids[1].account.name})" if kids[1].account else ""
    print(f"C10K Lab: http://localhost:{settings.port}{who}  (Ctrl-C stops it)", flush=True)
    if settings.mode == "classroom":
        print(room_address_note(settings), flush=True)
    while not stopping:
        for kid in kids:
            kid.check()
        time.sleep(0.2)
    for kid in kids:
        kid.stop()
    deadline = time.monotonic() + STOP_GRACE_S
    for kid in kids:
        kid.wait_or_kill(deadline)
    return 0
