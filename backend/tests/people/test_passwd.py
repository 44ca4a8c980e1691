"""`python -m c10klab instructor passwd NAME`: the host's owner resets a lost password."""

from pathlib import Path

from c10klab.people.service import PASSWORDS, add_instructor
from c10klab.people.store import PeopleStore
from tests.people.conftest import PASSWORD, Command


def test_a_new_password_replaces_the_old_and_ends_every_session(
    tmp_path: Path, course_command: Command
) -> None:
    people = PeopleStore(tmp_path / "s.sqlite3")
    grace = add_instructor(people, "Grace", PASSWORD)
    people.add_session("a" * 64, grace.id, 3600)

    done = course_command("instructor", "passwd", "grace", stdin="a much newer password\n")
    assert done.status == 0, done.err
    assert "'Grace' has a new password" in done.out
    assert people.session_owner("a" * 64) is None
    found = people.instructor_login("Grace")
    assert found is not None and PASSWORDS.verify("a much newer password", found[1])
    assert not PASSWORDS.verify(PASSWORD, found[1])

    unknown = course_command("instructor", "passwd", "Linus", stdin="whatever it is\n")
    assert unknown.status != 0 and "no instructor is named 'Linus'" in unknown.err
    short = course_command("instructor", "passwd", "Grace", stdin="short\n")
    assert short.status != 0 and "at least 8 characters" in short.err
