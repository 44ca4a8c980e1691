"""Who may see and cancel what, and which limits a person's runs are admitted under.

- solo mode: one implicit person who owns and sees everything;
- a student: sees their own runs and sweeps and their classmates' (a permalink shared in the
  class opens for everyone in it), cancels only their own;
- an instructor: sees and cancels their own, and everything of the classes they teach, as the
  class's own instructor or on its staff.

Within a class, what an instructor may do follows their role (docs/ARCHITECTURE.md, "Roles"):
its own instructor everything; a co-teacher everything but managing the staff; a teaching
assistant sees everything of it and helps students (lowers hands, hands out a new personal
code, cancels a run) but changes nothing of the class itself.
"""

from typing import Literal

from c10klab.config import Settings
from c10klab.errors import Forbidden, NotFound, Phrase
from c10klab.people.schemas import Ownership
from c10klab.people.store import Class, PeopleStore, Person, StaffRole
from c10klab.runs.store import Admission, Scope

# Someone else's run, sweep or variant: one sentence for each, so each is worded whole.
NOT_YOURS_TO_SEE = {
    "run": Phrase(
        "run-not-yours",
        "this run belongs to someone else: you can see only your own and your class's",
    ),
    "sweep": Phrase(
        "sweep-not-yours",
        "this sweep belongs to someone else: you can see only your own and your class's",
    ),
    "variant": Phrase(
        "variant-not-yours",
        "this variant belongs to someone else: you can see only your own and your class's",
    ),
}
NOT_YOURS_TO_CANCEL = {
    "run": Phrase(
        "run-not-yours-to-cancel",
        "this run belongs to someone else: only its owner or their instructor can cancel it",
    ),
    "sweep": Phrase(
        "sweep-not-yours-to-cancel",
        "this sweep belongs to someone else: only its owner or their instructor can cancel it",
    ),
}
NOT_YOUR_ANSWER = Phrase(
    "answer-not-yours",
    "this answer to an exercise belongs to someone else: only its author and their instructor "
    "can open it",
)
INSTRUCTORS_ONLY = Phrase("instructors-only", "only an instructor can do this; log in as one")
NOT_YOUR_CLASS = Phrase(
    "not-your-class", "you teach no class {class_id!r}; GET /api/classes lists yours"
)
OTHER_CLASS = Phrase("other-class", "that is another class: you can see only your own")


def class_ids_taught(people: PeopleStore, person: Person) -> tuple[str, ...]:
    if person.kind != "instructor":
        return ()
    return tuple(c.id for c in people.classes_of(person.id))


def scope_for(people: PeopleStore, person: Person) -> Scope:
    if person.kind == "solo":
        # everyone's runs but the runners' own A/A runs: those are the machine's, not the learner's
        return Scope(everyone=True, people_only=True)
    return Scope(owner_id=person.id, class_ids=class_ids_taught(people, person))


def may_cancel(people: PeopleStore, person: Person, owner_id: str, class_id: str | None) -> bool:
    """The owner, the instructor of the owner's class, and the solo person."""
    if person.kind == "solo" or owner_id == person.id:
        return True
    return class_id is not None and class_id in class_ids_taught(people, person)


def may_view(people: PeopleStore, person: Person, owner_id: str, class_id: str | None) -> bool:
    """Whoever may cancel, the owner's classmates (a class's results are its members'), and
    the students of an instructor who owns it (what the instructor shows the class)."""
    if may_cancel(people, person, owner_id, class_id):
        return True
    if person.kind != "student" or person.class_id is None:
        return False
    if class_id is not None:
        return person.class_id == class_id
    klass = people.get_class(person.class_id)
    if klass is None:
        return False
    # The class's own instructor's runs, and its staff's: what they show the class.
    return klass.instructor_id == owner_id or people.staff_role(klass, owner_id) is not None


def owner_seen(people: PeopleStore, person: Person, owner_id: str) -> Ownership:
    """Whose something of `owner_id` is, as `person` knows them (see Ownership): a student
    knows their classmates by name (the class's board names them) and their class's teachers
    as its instructor; an instructor knows the students of the classes they teach by name
    (their rosters). Anyone else is nameless to them."""
    if owner_id == person.id:  # solo mode's one person too: everything is theirs
        return Ownership(mine=True, name=None, instructor=False)
    owner = people.get_person(owner_id)
    if owner is None:
        return Ownership(mine=False, name=None, instructor=False)
    if owner.kind == "student":
        classmate = person.kind == "student" and person.class_id == owner.class_id
        known = owner.class_id is not None and (
            classmate or owner.class_id in class_ids_taught(people, person)
        )
        return Ownership(mine=False, name=owner.name if known else None, instructor=False)
    klass = people.get_class(person.class_id) if person.class_id else None
    teaches = klass is not None and people.staff_role(klass, owner.id) is not None
    return Ownership(mine=False, name=None, instructor=person.kind == "student" and teaches)


def require_viewer(
    people: PeopleStore,
    person: Person,
    owner_id: str,
    class_id: str | None,
    what: Literal["run", "sweep", "variant"],
) -> None:
    """Refuse (403) a person who may not see a run or sweep of `owner_id` (its permalink)."""
    if not may_view(people, person, owner_id, class_id):
        raise Forbidden(NOT_YOURS_TO_SEE[what]())


def require_answer_reader(
    people: PeopleStore, person: Person, owner_id: str, class_id: str | None
) -> None:
    """Refuse (403) anyone but its author and their instructor an answer to an exercise:
    a classmate who could open it could hand in a passing answer as their own."""
    if not may_cancel(people, person, owner_id, class_id):
        raise Forbidden(NOT_YOUR_ANSWER())


def require_canceller(
    people: PeopleStore,
    person: Person,
    owner_id: str,
    class_id: str | None,
    what: Literal["run", "sweep"],
) -> None:
    """Refuse (403) a person who may not cancel a run or sweep of `owner_id`."""
    if not may_cancel(people, person, owner_id, class_id):
        raise Forbidden(NOT_YOURS_TO_CANCEL[what]())


def require_instructor(person: Person) -> None:
    if person.kind != "instructor":
        raise Forbidden(INSTRUCTORS_ONLY())


# Who may do what in a class, by role.
OWNER: frozenset[StaffRole] = frozenset({"owner"})
TEACHERS: frozenset[StaffRole] = frozenset({"owner", "co-teacher"})
STAFF: frozenset[StaffRole] = frozenset({"owner", "co-teacher", "assistant"})

# What staff are told when their role may not: the roles nest (an assistant's within a
# co-teacher's within the owner's), so these are every role a narrower set refuses.
ROLE_REFUSED: dict[tuple[StaffRole, frozenset[StaffRole]], Phrase] = {
    ("co-teacher", OWNER): Phrase(
        "co-teacher-not-owner",
        "you are a co-teacher of this class: only its instructor can do this",
    ),
    ("assistant", OWNER): Phrase(
        "assistant-not-owner",
        "you are a teaching assistant of this class: only its instructor can do this",
    ),
    ("assistant", TEACHERS): Phrase(
        "assistant-not-teacher",
        "you are a teaching assistant of this class: only a co-teacher or its instructor can "
        "do this",
    ),
}


def taught_class(
    people: PeopleStore, person: Person, class_id: str, allowed: frozenset[StaffRole] = TEACHERS
) -> Class:
    """The class, for those who teach it in a role `allowed`: 403 for a student, 404 for an
    instructor who has no part in it, 403 naming the role for staff whose role may not."""
    require_instructor(person)
    klass = people.get_class(class_id)
    role = people.staff_role(klass, person.id) if klass else None
    if klass is None or role is None:
        raise NotFound(NOT_YOUR_CLASS(class_id=class_id))
    if role not in allowed:
        raise Forbidden(ROLE_REFUSED[role, allowed]())
    return klass


def member_class(people: PeopleStore, person: Person, class_id: str) -> Class:
    """The class, for its instructor and its students (403 for a student of another)."""
    if person.kind == "student":
        if person.class_id != class_id:
            raise Forbidden(OTHER_CLASS())
        klass = people.get_class(class_id)
        assert klass is not None  # a student's class exists: classes are never deleted
        return klass
    return taught_class(people, person, class_id, STAFF)


def admission_for(person: Person, settings: Settings) -> Admission:
    """Solo mode has the site's cap only; in a class every person has their own limits, and
    an instructor's runs are claimed before the students'."""
    if person.kind == "solo":
        return Admission(
            owner_id=person.id, browser=person.browser, queued_site=settings.max_queued_runs
        )
    return Admission(
        owner_id=person.id,
        class_id=person.class_id,
        priority=1 if person.kind == "instructor" else 0,
        queued_per_person=settings.max_queued_per_person,
        queued_per_class=settings.max_queued_per_class if person.kind == "student" else None,
        runs_per_minute=settings.max_runs_per_minute,
        queued_site=settings.max_queued_runs,
    )
