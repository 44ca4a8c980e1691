"""The hosts domain's queries: each runner host registers itself and heartbeats every few
seconds; the API reads who is there, what each runs, and which share CPUs (its table is
declared in tables.py)."""

import json
from dataclasses import dataclass
from typing import Any, TypedDict

from sqlalchemy import Connection, Row, select

from c10klab.config import parse_cpus
from c10klab.db import Database, from_row, unix_now
from c10klab.hosts.tables import runners
from c10klab.uncertainty import HostNoise

# A runner writes a heartbeat every few seconds; one silent longer than this is lost.
STALE_AFTER_S = 12.0


class DockerState(TypedDict):
    """Whether a runner's Docker engine answers (runner.docker_engine.Engine.probe): its
    version, or why not."""

    reachable: bool
    version: str | None
    error: str | None


@dataclass(frozen=True)
class RunnerHost:
    id: str
    host: str
    server_cpus: str
    loadgen_cpus: str
    docker: DockerState
    images: dict[str, bool]
    state: str  # idle | running | stopped
    run_id: str | None
    started_at: str
    heartbeat_unix: float = 0.0
    noise: HostNoise | None = None  # its host's run-to-run spread, once measured

    def age_s(self) -> float:
        return unix_now() - self.heartbeat_unix

    @property
    def alive(self) -> bool:
        return self.state != "stopped" and self.age_s() <= STALE_AFTER_S

    @property
    def cpus(self) -> set[int]:
        return parse_cpus(self.server_cpus) | parse_cpus(self.loadgen_cpus)


def _host(row: Row[Any]) -> RunnerHost:
    return from_row(
        RunnerHost,
        row,
        docker=json.loads(row.docker),
        images=json.loads(row.images),
        noise=HostNoise.model_validate_json(row.noise) if row.noise else None,
    )


def sharing_cpus(runner: RunnerHost, others: list[RunnerHost]) -> list[str]:
    """The live runners on the same host whose CPUs overlap this one's: their benchmarks
    and this one's may run at once on the same cores, and disturb each other's figures."""
    return sorted(
        other.id
        for other in others
        if other.id != runner.id
        and other.alive
        and other.host == runner.host
        and other.cpus & runner.cpus
    )


class RunnerStore(Database):
    def beat(self, runner: RunnerHost) -> None:
        """Register or refresh a runner: what it is, and that it is alive now."""
        values = {
            "id": runner.id,
            "host": runner.host,
            "server_cpus": runner.server_cpus,
            "loadgen_cpus": runner.loadgen_cpus,
            "docker": json.dumps(runner.docker),
            "images": json.dumps(runner.images),
            "state": runner.state,
            "run_id": runner.run_id,
            "started_at": runner.started_at,
            "heartbeat_unix": unix_now(),
            "noise": runner.noise.model_dump_json() if runner.noise else None,
        }
        with self.write() as db:
            db.execute(self.upsert(runners, values, key=["id"]))

    def count_live(self, db: Connection) -> int:
        """How many runners are alive now, read in the caller's transaction (a second
        connection opened inside one could wait forever for a pool that transaction holds)."""
        return sum(1 for host in self._hosts(db) if host.alive)

    def hosts(self) -> list[RunnerHost]:
        """Every runner that has served this store, the latest heard from first."""
        with self.connect() as db:
            return self._hosts(db)

    @staticmethod
    def _hosts(db: Connection) -> list[RunnerHost]:
        rows = db.execute(select(runners).order_by(runners.c.heartbeat_unix.desc()))
        return [_host(r) for r in rows]
