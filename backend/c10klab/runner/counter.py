"""The containers that watch a server from beside it with perf: a syscall profile's counter
(sandboxes/counter/count-syscalls.sh), counting the server's system calls at full speed, and
the base the stack profiler (profiler.py) shares with it.

The counter joins the server's PID namespace once the server says it is listening (so it counts the
serving, not the start-up, and every process and thread the server has by then, with what
they start later), and the load generator starts only once it counts. When the load has
ended it gets SIGINT and its log holds the counts. A host that will not count (no tracefs,
an engine that refuses the capability, perf refused) gives a profile that says why; the run
itself goes on and keeps its figures.
"""

import dataclasses
import time
from collections.abc import Callable

from docker.errors import ImageNotFound
from docker.models.containers import Container

from c10klab.results.schemas import Syscalls
from c10klab.runner import measure
from c10klab.runner.docker_engine import Engine, EngineError
from c10klab.runner.plan import (
    BEFORE_PERFMON,
    COUNTER_IMAGE,
    WAIT_READY_S,
    ContainerOptions,
    ContainerSpec,
)

# Every server's start-up line, printed once it accepts (the conformance suite checks it).
LISTENING = "listening on "
POLL_S = 0.05
# perf prints its first counts 250 ms after it has attached; it takes a moment to start.
COUNTING_WAIT_S = 10
STOP_WAIT_S = 10


class Beside:
    """A container of ours that joins the server's PID namespace once the server says it is
    listening (so it watches the serving, not the start-up), with perf: the counter and the
    stack profiler. A host that will not have it (no tracefs, an engine that refuses the
    capability, perf refused) leaves a reason in `refused`; the run goes on without it."""

    what = "the counter"

    def __init__(self, engine: Engine, spec: ContainerSpec) -> None:
        self.engine, self.spec = engine, spec
        self.container: Container | None = None
        self.refused: str | None = None

    def start(self, server: Container) -> None:
        if not self.wait_for(
            server, lambda: any(LISTENING in line for line in Engine.log_tail(server, 50))
        ):
            self.refused = "the server did not say it was listening, so nothing was recorded"
            return
        self.container = self.launch(server)
        if self.container is not None and not self.wait_for(self.container, self.ready):
            tail = Engine.log_tail(self.container, 5)
            self.refused = f"perf did not start: {' / '.join(tail) or 'no output'}"

    def ready(self) -> bool:
        raise NotImplementedError

    def launch(self, server: Container) -> Container | None:
        namespace = ContainerOptions(pid_mode=f"container:{server.id}")
        try:
            return self.engine.start(self.spec, **namespace)
        except ImageNotFound:
            self.refused = f"the image {COUNTER_IMAGE} is missing: `make images` builds it"
            return None
        except EngineError as exc:
            if "PERFMON" not in str(exc):
                self.refused = f"{self.what} did not start: {first_line(exc)}"
                return None
        # An engine older than the name CAP_PERFMON: CAP_SYS_ADMIN covers what perf needs.
        asked = self.spec.kwargs.get("cap_add", [])
        older = [BEFORE_PERFMON if cap == "PERFMON" else cap for cap in asked]
        kwargs = self.spec.kwargs | ContainerOptions(cap_add=older)
        try:
            return self.engine.start(dataclasses.replace(self.spec, kwargs=kwargs), **namespace)
        except EngineError as exc:
            self.refused = f"{self.what} did not start with {asked} or {older}: {first_line(exc)}"
            return None

    @staticmethod
    def wait_for(container: Container, check: Callable[[], bool]) -> bool:
        """Polls `check` while `container` runs, up to the servers' start-up allowance."""
        deadline = time.monotonic() + max(WAIT_READY_S, COUNTING_WAIT_S)
        while time.monotonic() < deadline:
            if check():
                return True
            if not Engine.is_running(container)[0]:
                return check()
            time.sleep(POLL_S)
        return False


class Counter(Beside):
    """A syscall profile's counter (sandboxes/counter/count-syscalls.sh)."""

    def ready(self) -> bool:
        assert self.container is not None
        return bool(measure.parse_perf_counts(Engine.log_tail(self.container, 50)))

    def stop(self, requests: int) -> Syscalls:
        """Stop counting; the profile per request served (or why there is none)."""
        if self.container is None or self.refused is not None:
            return measure.refused_profile(self.refused or "nothing was counted")
        Engine.interrupt(self.container)
        Engine.wait(self.container, STOP_WAIT_S)
        counts = measure.parse_perf_counts(Engine.log_tail(self.container, "all"))
        profile = measure.syscall_profile(counts, requests)
        if profile is None:
            tail = Engine.log_tail(self.container, 5)
            return measure.refused_profile(
                f"perf printed no counts: {' / '.join(tail) or 'no output'}"
            )
        return profile


def first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
