"""Every domain's tables together: what the migrations must produce, and what
`alembic revision --autogenerate` compares the store with."""

from c10klab.classroom import tables as classroom_tables
from c10klab.db import metadata
from c10klab.hosts import tables as runners_tables
from c10klab.people import tables as people_tables
from c10klab.runs import tables as runs_tables
from c10klab.sweeps import tables as sweeps_tables
from c10klab.variants import tables as variants_tables

DOMAINS = (
    classroom_tables,
    people_tables,
    runners_tables,
    runs_tables,
    sweeps_tables,
    variants_tables,
)

__all__ = ["DOMAINS", "metadata"]
