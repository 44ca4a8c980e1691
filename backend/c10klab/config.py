"""One settings object for the API and the runner, read from C10K_* environment variables.

It is validated once at start-up; values that would make a hosted course unsafe or its numbers
dishonest are refused there rather than discovered during a class.
"""

import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


def parse_cpus(spec: str) -> set[int]:
    """CPUs named by a cpuset string such as "0", "0,2" or "1-3"."""
    cpus: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.strip().partition("-")
        cpus.update(range(int(lo), int(hi or lo) + 1))
    return cpus


def format_cpus(cpus: set[int]) -> str:
    """A cpuset string for these CPUs, e.g. "2,3" (Docker's and taskset's form)."""
    return ",".join(str(c) for c in sorted(cpus))


ONLINE_CPUS = Path("/sys/devices/system/cpu/online")


def online_cpus() -> set[int]:
    """The host's online CPUs (in a container too: sysfs shows the host's, whatever cpuset
    the container itself was given); this process's own mask where sysfs cannot be read."""
    try:
        return parse_cpus(ONLINE_CPUS.read_text().strip())
    except (OSError, ValueError):
        return os.sched_getaffinity(0)


def spare_cpus(online: set[int], settings: "Settings") -> set[int] | None:
    """The CPUs to keep the course's own work on (the API, the runner, the store, the Docker
    engine, and the containers that watch a run), or None to leave it anywhere: only when the
    host has more than two CPUs and some outside the benchmark's pinned ones."""
    pinned = parse_cpus(settings.server_cpus) | parse_cpus(settings.loadgen_cpus)
    spare = online - pinned
    return spare if len(online) > 2 and spare else None


def host_spare_cpus(settings: "Settings") -> set[int] | None:
    """spare_cpus of this host's online CPUs, read now."""
    return spare_cpus(online_cpus(), settings)


def spare_cpuset(settings: "Settings") -> str:
    """This host's spare CPUs as a cpuset string, "" when it has none."""
    return format_cpus(host_spare_cpus(settings) or set())


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="C10K_")

    env: Literal["development", "production"] = "development"
    # solo: one implicit person, no login (`make up`). classroom: instructors log in, students
    # join a class by its code, and every run belongs to someone (the compose stack).
    mode: Literal["solo", "classroom"] = "solo"
    repo_root: Path = REPO_ROOT
    db_path: Path = REPO_ROOT / "var" / "c10klab.sqlite3"
    # The store: the SQLite file above unless a database URL is given, e.g.
    # postgresql://c10k:secret@db-host/c10klab for a class served by several runner hosts.
    database_url: str = Field("", max_length=1000)
    # The address the API listens on. Empty: 127.0.0.1 in solo mode (no other machine may
    # reach a learner's course), every address (0.0.0.0) in classroom mode, whose students
    # come from the room's network; `listen_host` is the one in effect.
    host: str = ""
    port: int = Field(8000, ge=1, le=65535)
    # Where students reach the course, e.g. https://lab.example.org or http://192.0.2.10:8000:
    # the class page builds its join link and QR code on it. Empty: on the address the
    # instructor's browser used, else on this machine's addresses (people/join_links.py).
    public_url: str = Field("", max_length=300, pattern=r"^(https?://[^\s/?#]+(/[^\s?#]*)?)?$")
    # This machine's addresses students may reach, when the API cannot see them itself: in a
    # container it sees only its own network's. `make compose-up` fills it in from the host
    # (`python -m c10klab host-addresses`); unset, the API reads its own interfaces.
    host_addresses: list[str] | None = None

    # Core pinning: the server and the load generator never share a CPU.
    server_cpus: str = Field("0", pattern=r"^\d+(-\d+)?(,\d+(-\d+)?)*$")
    loadgen_cpus: str = Field("1", pattern=r"^\d+(-\d+)?(,\d+(-\d+)?)*$")

    # Limits on what one request may ask for.
    max_connections: int = Field(19_000, ge=1, le=19_000)
    max_payload_bytes: int = Field(1_048_576, ge=1, le=16_777_216)
    max_duration_s: float = Field(60, gt=0, le=600)
    max_warmup_s: float = Field(30, ge=0, le=120)
    max_queued_runs: int = Field(200, ge=1, le=1000)
    max_repetitions: int = Field(5, ge=1, le=20)
    max_sweep_points: int = Field(40, ge=1, le=200)

    # People and fair admission (classroom mode). A person may have this many runs waiting
    # (a sweep's points count one each) and queue this many a minute; beyond, 429 with
    # Retry-After. The site-wide cap is max_queued_runs.
    max_queued_per_person: int = Field(40, ge=1, le=1000)
    max_runs_per_minute: int = Field(60, ge=1, le=10_000)
    # Builds of edited servers one person may have waiting or under way at once (solo mode:
    # one browser). A build is a compile in the sandbox and two short checks.
    max_builds_per_person: int = Field(3, ge=1, le=100)
    # The runs a class's students together may have waiting: a share of max_queued_runs that
    # a student joining under many names (each with a quota of its own) cannot pass.
    max_queued_per_class: int = Field(100, ge=1, le=1000)
    # Joining: codes that match no class, and names joined into one class, per client address
    # within login_window_s (a class behind one NAT joins from one address: raise the second
    # for classes larger than it); and names a class admits in all.
    join_misses_per_address: int = Field(20, ge=1, le=10_000)
    joins_per_address: int = Field(60, ge=1, le=10_000)
    max_students_per_class: int = Field(300, ge=1, le=10_000)
    session_hours: float = Field(12, gt=0, le=24 * 30)
    # Failed logins allowed within login_window_s: per account from browsers it never signed
    # in from, per browser it did (people/service.login), and per client address.
    login_attempts_per_account: int = Field(5, ge=1, le=1000)
    login_attempts_per_address: int = Field(30, ge=1, le=10_000)
    login_window_s: float = Field(900, gt=0, le=86_400)
    # Origins besides the request's own Host that may send mutating requests (for a reverse
    # proxy that rewrites Host), e.g. ["https://lab.example.org"].
    allowed_origins: list[str] = []
    # Host names (and addresses) the course answers to, e.g. ["lab.example.org"]; a request
    # for any other is refused, so a page whose DNS name is rebound to this machine cannot
    # reach it. Empty: solo mode answers localhost, 127.0.0.1, ::1 and C10K_HOST; classroom
    # mode, where students reach it by whatever name the host has, any ("*").
    allowed_hosts: list[str] = []
    # The reverse proxies whose X-Forwarded-For/-Proto are believed: addresses or networks,
    # comma-separated, or `gateway` (the compose stack behind a proxy on its host); the client
    # is the rightmost address not among them (client_address.py). "*" is refused.
    trusted_proxies: str = "127.0.0.1"
    # Secure session cookies over https always; "always" also for http behind a TLS proxy
    # that does not send X-Forwarded-Proto.
    cookie_secure: Literal["auto", "always"] = "auto"

    # The name a runner claims runs under (default: the host's name); a runner that restarts
    # under the same name fails the runs it held before it died.
    runner_id: str = Field("", max_length=100)

    # Container limits (see runner/plan.py).
    nofile_limit: int = Field(20_000, ge=1024, le=1_048_576)
    server_memory_mb: int = Field(1024, ge=64)
    loadgen_memory_mb: int = Field(1024, ge=64)
    # A run whose errors exceed this share of all attempts is marked invalid.
    invalid_error_rate: float = Field(0.01, ge=0, le=1)
    # An open-loop run that achieves less than this share of its target rate is invalid.
    min_rate_fraction: float = Field(0.9, ge=0, le=1)
    # Repetitions whose QPS spread ((max - min) / median) exceeds this are flagged noisy.
    noisy_spread: float = Field(0.10, ge=0)
    # The A/A runs a runner measures its host's noise with when it starts (runner/noise.py):
    # this many runs of this server at a lesson's settings, about 9 s each; 0 skips them
    # (the noise is then known only once identical runs have been measured).
    calibration_runs: int = Field(5, ge=0, le=10)
    calibration_server: str = "c-epoll"

    # --- Stability: a run disturbed while it was measured is "unstable" (runner/measure.py) ---
    # The share of the server's (or the load generator's) CPUs that other processes and the
    # hypervisor's steal may take during the measure phase: the share at which what they take
    # beyond the usual moves the figure by as much as a second run would anyway, usual + sigma
    # / cost. `make bench-noise` measures all three on a host (results/noise.md); on the 2-CPU
    # reference host, c-epoll echo, 5 s: usual 3.6 % and 5.6 %, sigma 5.1 %, and a share taken
    # cost 1.52 and 1.37 times as much QPS (a busy loop pinned to the core at 15 and 30 %).
    max_interference_server: float = Field(0.07, gt=0, le=1)
    max_interference_loadgen: float = Field(0.09, gt=0, le=1)
    # How far one measured interval's QPS may depart from the run's median interval QPS.
    # Quiet runs here departed by up to 22 %, the recorded baselines by up to 41 % (c-threaded
    # still climbing); disturbed runs by 56-150 %. One interval 50 % off also moves a five-second
    # mean by a tenth, the noisy_spread.
    max_drift: float = Field(0.50, gt=0, le=1)

    @property
    def store(self) -> str | Path:
        """Where the store is: a PostgreSQL (or SQLite) URL, or the SQLite file's path."""
        return self.database_url or self.db_path

    @property
    def store_is_file(self) -> bool:
        return not self.database_url

    @property
    def content_dir(self) -> Path:
        return self.repo_root / "content"

    @property
    def sandboxes_dir(self) -> Path:
        return self.repo_root / "sandboxes"

    @property
    def served_hosts(self) -> frozenset[str]:
        """The host names requests may name (lower case, no port); "*" is any."""
        if self.allowed_hosts:
            return frozenset(h.lower().strip("[]") for h in self.allowed_hosts)
        if self.mode == "classroom":
            return frozenset({"*"})
        bound = {self.listen_host.lower().strip("[]")} - {"0.0.0.0", "::"}
        return frozenset({"localhost", "127.0.0.1", "::1"} | bound)

    @property
    def listen_host(self) -> str:
        if self.host:
            return self.host
        return "0.0.0.0" if self.mode == "classroom" else "127.0.0.1"

    @property
    def frontend_dist(self) -> Path:
        return self.repo_root / "frontend" / "dist"

    @model_validator(mode="after")
    def refuse_unsafe(self) -> "Settings":
        if parse_cpus(self.server_cpus) & parse_cpus(self.loadgen_cpus):
            raise ValueError(
                f"C10K_SERVER_CPUS={self.server_cpus} and C10K_LOADGEN_CPUS={self.loadgen_cpus} "
                "overlap: the load generator would steal the server's CPU and every figure would "
                "be wrong. Give them disjoint CPUs."
            )
        scheme = self.database_url.split("://", 1)[0].split("+", 1)[0]
        if self.database_url and scheme not in ("sqlite", "postgresql", "postgres"):
            raise ValueError(
                f"C10K_DATABASE_URL starts with {scheme!r}: give a postgresql://user:password@host"
                "/database URL (or leave it empty for the SQLite file at C10K_DB_PATH)."
            )
        if "*" in (p.strip() for p in self.trusted_proxies.split(",")):
            raise ValueError(
                "C10K_TRUSTED_PROXIES='*' believes every hop of X-Forwarded-For, so a client "
                "names its own address and walks around the limits kept per address. Name the "
                "reverse proxy's address (127.0.0.1 for one on this machine; 'gateway' for the "
                "compose stack behind a proxy on its host)."
            )
        if self.env == "production":
            if self.max_duration_s > 120:
                raise ValueError(
                    "C10K_MAX_DURATION_S over 120 lets one student hold the shared runner for "
                    "minutes; keep it at 120 or less in production."
                )
            if self.max_queued_runs > 200:
                raise ValueError("C10K_MAX_QUEUED_RUNS over 200 is unsafe in production.")
        return self


@lru_cache
def get_settings() -> Settings:
    return Settings()
