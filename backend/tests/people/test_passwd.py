"""`python -m c10klab instructor passwd NAME`: the host's owner resets a lost password."""

import subprocess
import sys
from pathlib import Path

from c10klab.people.service import PASSWORDS, add_instructor
from c10klab.people.store import PeopleStore
from tests.people.conftest import PASSWORD


def _passwd(store: Path, name: str, password: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "c10klab", "instructor", "passwd", name],
        input=password + "\n",
        capture_output=True,
        text=True,
        env={"C10K_DB_PATH": str(store), "PATH": "/usr/bin:/bin"},
        check=False,
    )


def test_a_new_password_replaces_the_old_and_ends_every_session(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    people = PeopleStore(path)
    grace = add_instructor(people, "Grace", PASSWORD)
    people.add_session("a" * 64, grace.id, 3600)

    done = _passwd(path, "grace", "a much newer password")
    assert done.returncode == 0, done.stderr
    assert "'Grace' has a new password" in done.stdout
    assert people.session_owner("a" * 64) is None
    found = people.instructor_login("Grace")
    assert found is not None and PASSWORDS.verify("a much newer password", found[1])
    assert not PASSWORDS.verify(PASSWORD, found[1])

    unknown = _passwd(path, "Linus", "whatever it is")
    assert unknown.returncode != 0 and "no instructor is named 'Linus'" in unknown.stderr
    short = _passwd(path, "Grace", "short")
    assert short.returncode != 0 and "at least 8 characters" in short.stderr
