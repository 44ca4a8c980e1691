"""The wait for a quiet machine gives up, naming what kept it busy."""

import re
import subprocess
import sys

import pytest

from tests import settle


def test_a_machine_kept_busy_is_not_settled_and_the_failure_names_the_busiest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(settle, "SETTLE_TIMEOUT_S", 2)
    burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])  # half of 2 CPUs
    try:
        with pytest.raises(pytest.fail.Exception) as failed:
            settle.wait_until_settled()
    finally:
        burner.kill()
        burner.wait()
    # The burner need not be the busiest: beside make test's other lane, a compiler or the
    # kernel's writeback may be busier. The message names whichever were.
    message = str(failed.value)
    assert "was not quiet for 2 s" in message, message
    assert re.search(r"busiest: \d+ .+ \(\d+ ticks\)", message), message


def test_the_busiest_are_those_that_used_the_most_ticks_meanwhile() -> None:
    before = {"1 init": 10, "7 cc1": 100, "9 dockerd": 50}
    after = {"1 init": 10, "7 cc1": 180, "9 dockerd": 55, "12 new": 3}
    assert (
        settle.busiest(before, after) == "7 cc1 (80 ticks), 9 dockerd (5 ticks), 12 new (3 ticks)"
    )
    assert settle.busiest(before, before) == "none"
