"""The people tests' classroom browsers, for the history of a person in a class."""

from tests.people.conftest import browser, classroom, people  # noqa: F401
