"""The people tests' classroom browsers, for variants in a class."""

from tests.people.conftest import browser, classroom, people  # noqa: F401
