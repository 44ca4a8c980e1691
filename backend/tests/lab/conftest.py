"""The lab tests' browsers: a solo course's, and the people tests' classroom ones for the
history of a person in a class."""

from collections.abc import Iterator

import pytest

from c10klab.config import Settings
from tests.people.conftest import Browser, browser, browsers, classroom, people  # noqa: F401


@pytest.fixture
def solo_browsers(settings: Settings) -> Iterator[Browser]:
    """Browsers of one solo course: each its own cookie jar."""
    yield from browsers(settings)
