"""The runs domain's tables: each run (the table is also the queue), its events, the queue's
clock, and the classes whose waiting runs are held."""

from sqlalchemy import CheckConstraint, Column, Float, ForeignKey, Index, Integer, Table, Text

from c10klab.db import metadata

STATUSES = ("queued", "running", "done", "failed", "cancelled")

runs = Table(
    "runs",
    metadata,
    Column("id", Text, primary_key=True),
    Column("server", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("request", Text, nullable=False),  # JSON
    Column("result", Text),  # JSON
    Column("error", Text),
    Column("cancel_requested", Integer, nullable=False, server_default="0"),
    Column("created_at", Text, nullable=False),
    Column("started_at", Text),
    Column("finished_at", Text),
    Column("owner_id", Text, nullable=False, server_default="solo"),
    Column("class_id", Text),
    # The fair-share queue (runs/store.py): the instructor's runs first, then by virtual
    # start tag, then arrival.
    Column("priority", Integer, nullable=False, server_default="0"),
    Column("vstart", Float, nullable=False, server_default="0"),
    Column("vfinish", Float, nullable=False, server_default="0"),
    Column("expected_s", Float, nullable=False, server_default="0"),
    Column("queue_seq", Integer, nullable=False, server_default="0"),
    Column("announced_position", Integer),
    Column("created_unix", Float),
    Column("started_unix", Float),
    Column("finished_unix", Float),
    # Which runner holds a running run, and until when unless it renews its lease; how many
    # times the run was claimed (the runner and this number name the hold: runs/store.Lease).
    Column("claimed_by", Text),
    Column("lease_until", Float),
    Column("claims", Integer, nullable=False, server_default="0"),
    # When its load began (a run whose runner is lost before that is queued again, once), and
    # how many times it was.
    Column("measuring_unix", Float),
    Column("requeued", Integer, nullable=False, server_default="0"),
    # Solo mode: the browser that queued it, whose history lists it (see migration 0003).
    Column("browser", Text),
    CheckConstraint(f"status IN {STATUSES}", name="runs_status"),
    Index("runs_queue", "status", "priority", "vstart", "queue_seq"),
    Index("runs_by_owner", "owner_id", "created_unix"),
    Index("runs_by_class", "class_id", "created_at"),
    Index("runs_by_browser", "browser", "created_unix"),
    Index("runs_finished", "status", "finished_unix"),
)

events = Table(
    "events",
    metadata,
    Column("run_id", Text, ForeignKey("runs.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("type", Text, nullable=False),
    Column("data", Text, nullable=False),  # JSON
    Column("created_at", Text, nullable=False),
)

# One row: the queue's virtual clock and the next arrival number. Writers that change the
# queue lock it first (on PostgreSQL; SQLite's write lock already serializes them).
queue_state = Table(
    "queue_state",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("vclock", Float, nullable=False),
    Column("next_seq", Integer, nullable=False),
    CheckConstraint("id = 1", name="queue_state_one_row"),
)

held_classes = Table(
    "held_classes",
    metadata,
    Column("class_id", Text, primary_key=True),
    Column("held_at", Text, nullable=False),
)
