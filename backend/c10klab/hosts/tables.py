"""The hosts domain's table: every runner host that has served this store, and what it last
said about itself in its heartbeat."""

from sqlalchemy import Column, Float, Table, Text

from c10klab.db import metadata

runners = Table(
    "runners",
    metadata,
    Column("id", Text, primary_key=True),  # C10K_RUNNER_ID, or the host's name
    Column("host", Text, nullable=False),
    Column("server_cpus", Text, nullable=False),  # the CPUs it pins servers to
    Column("loadgen_cpus", Text, nullable=False),
    Column("docker", Text, nullable=False),  # JSON: {reachable, version, error}
    Column("images", Text, nullable=False),  # JSON: {tag: present}
    Column("state", Text, nullable=False),  # idle | running | stopped (lost: a stale heartbeat)
    Column("run_id", Text),  # the run it is running
    Column("started_at", Text, nullable=False),
    Column("heartbeat_unix", Float, nullable=False),
    Column("noise", Text),  # JSON: its host's run-to-run spread (uncertainty.HostNoise), or null
)
