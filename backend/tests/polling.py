"""Waiting in a test for something another thread or process brings about: a runner's event,
a class stream's frame, a supervisor's child."""

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def poll(check: Callable[[], T], within_s: float, every_s: float = 0.05) -> T | None:
    """The first truthy answer of `check`, asked every `every_s` for `within_s`; None if
    none came. It asks once more when the time is up, so a slow machine's last chance
    counts."""
    deadline = time.monotonic() + within_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            return None
        time.sleep(every_s)
