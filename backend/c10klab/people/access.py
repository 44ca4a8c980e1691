"""Who may see and cancel what, and which limits a person's runs are admitted under.

- solo mode: one implicit person who owns and sees everything;
- a student: their own runs and sweeps only;
- an instructor: their own, and everything of the classes they teach.
"""

from c10klab.config import Settings
from c10klab.errors import Forbidden, NotFound
from c10klab.people.store import Class, PeopleStore, Person
from c10klab.runs.store import Admission, Scope


def class_ids_taught(people: PeopleStore, person: Person) -> tuple[str, ...]:
    if person.kind != "instructor":
        return ()
    return tuple(c.id for c in people.classes_of(person.id))


def scope_for(people: PeopleStore, person: Person) -> Scope:
    if person.kind == "solo":
        return Scope(everyone=True)
    return Scope(owner_id=person.id, class_ids=class_ids_taught(people, person))


def require_visible(
    people: PeopleStore, person: Person, owner_id: str, class_id: str | None, what: str
) -> None:
    """Refuse (403) a person who may not see or cancel a run or sweep of `owner_id`."""
    if person.kind == "solo" or owner_id == person.id:
        return
    if class_id is not None and class_id in class_ids_taught(people, person):
        return
    raise Forbidden(f"this {what} belongs to someone else: you can see and cancel only your own")


def require_instructor(person: Person) -> None:
    if person.kind != "instructor":
        raise Forbidden("only an instructor can do this; log in as one")


def taught_class(people: PeopleStore, person: Person, class_id: str) -> Class:
    """The class, for its own instructor: 403 for a student, 404 for anyone else's class."""
    require_instructor(person)
    klass = people.get_class(class_id)
    if klass is None or klass.instructor_id != person.id:
        raise NotFound(f"you teach no class {class_id!r}; GET /api/classes lists yours")
    return klass


def member_class(people: PeopleStore, person: Person, class_id: str) -> Class:
    """The class, for its instructor and its students (403 for a student of another)."""
    if person.kind == "student":
        if person.class_id != class_id:
            raise Forbidden("that is another class: you can see only your own")
        klass = people.get_class(class_id)
        assert klass is not None  # a student's class exists: classes are never deleted
        return klass
    return taught_class(people, person, class_id)


def admission_for(person: Person, settings: Settings) -> Admission:
    """Solo mode has the site's cap only; in a class every person has their own limits, and
    an instructor's runs are claimed before the students'."""
    if person.kind == "solo":
        return Admission(owner_id=person.id, queued_site=settings.max_queued_runs)
    return Admission(
        owner_id=person.id,
        class_id=person.class_id,
        priority=1 if person.kind == "instructor" else 0,
        queued_per_person=settings.max_queued_per_person,
        runs_per_minute=settings.max_runs_per_minute,
        queued_site=settings.max_queued_runs,
    )
