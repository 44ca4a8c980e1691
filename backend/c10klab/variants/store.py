"""The variants domain's queries. A variant is stored together with the run that builds and
checks it, in one transaction: the person's limits on runs are its limits too, and a variant
refused by them (429) leaves nothing behind."""

import hashlib
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from sqlalchemy import insert, select

from c10klab.db import Database, from_row, now_iso
from c10klab.errors import Phrase, QueueFull
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import Admission, Mine, Place, RunStore
from c10klab.variants.tables import variants

# The newest variants looked at for builds still under way: more than the limit can ever be.
RECENT_BUILDS = 200
BUILD_RETRY_S = 10  # a check run takes about this long
TOO_MANY_BUILDS = Phrase(
    "too-many-builds",
    "you already have {building} builds waiting or under way (at most {most}); wait for one "
    "to finish",
)


@dataclass(frozen=True)
class Variant:
    id: str
    server: str
    source: str
    source_sha256: str
    exercise: str | None
    check_run_id: str
    created_at: str
    owner_id: str = "solo"
    class_id: str | None = None
    # The file edited, relative to sandboxes/, when it is not the server's model file.
    file: str | None = None


def source_digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


class VariantStore(Database):
    def __init__(self, where: str | Path) -> None:
        super().__init__(where)
        self.runs = RunStore(where)

    def create(
        self,
        server: str,
        source: str,
        exercise: str | None,
        check_request: RunRequest,
        admission: Admission,
        builds_per_person: int,
        file: str | None = None,
    ) -> tuple[Variant, Place | None]:
        """Store a variant and queue its check run (`check_request`, whose `variant` is
        replaced by the new variant's id), or neither: 429 when the person already has
        `builds_per_person` builds waiting or under way, or when the runs' admission refuses."""
        variant = Variant(
            id=uuid.uuid4().hex,
            server=server,
            source=source,
            source_sha256=source_digest(source),
            exercise=exercise,
            check_run_id=uuid.uuid4().hex,
            created_at=now_iso(),
            owner_id=admission.owner_id,
            class_id=admission.class_id,
            file=file,
        )
        request = check_request.model_copy(update={"variant": variant.id})
        mine = Mine(admission.owner_id, admission.browser)
        with self.write() as db:
            recent = db.execute(
                mine.newest(variants, variants.c.check_run_id).limit(RECENT_BUILDS)
            ).scalars()
            building = self.runs.unfinished_among(db, list(recent))
            if building >= builds_per_person:
                raise QueueFull(
                    TOO_MANY_BUILDS(building=building, most=builds_per_person),
                    retry_after_s=BUILD_RETRY_S,
                )
            self.runs.queue(db, admission, [(variant.check_run_id, request)])
            # its row: the Variant's fields, and the browser that made it (solo mode)
            db.execute(insert(variants).values(**asdict(variant), browser=admission.browser))
        run = self.runs.get_run(variant.check_run_id)
        return variant, self.runs.queue_place(run) if run else None

    def get(self, variant_id: str) -> Variant | None:
        row = self.first_row(select(variants).where(variants.c.id == variant_id))
        return from_row(Variant, row) if row else None

    def answers_in_class(self, class_id: str, exercises: list[str]) -> list[Variant]:
        """A class's answers to these exercises, oldest first: a gradebook's attempts."""
        query = (
            select(variants)
            .where(variants.c.class_id == class_id, variants.c.exercise.in_(exercises))
            .order_by(variants.c.created_at, variants.c.id)
        )
        return [from_row(Variant, r) for r in self.rows(query)]

    def history(self, mine: Mine, limit: int) -> list[Variant]:
        """One learner's newest variants: see runs.store.Mine."""
        return [from_row(Variant, r) for r in self.rows(mine.newest(variants).limit(limit))]
