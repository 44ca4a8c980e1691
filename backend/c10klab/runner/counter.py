"""A syscall profile's counter: perf in a container of its own beside the server
(sandboxes/counter/count-syscalls.sh), counting the server's system calls at full speed.

It joins the server's PID namespace once the server says it is listening (so it counts the
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
    COUNTER_CAPABILITIES,
    COUNTER_CAPABILITIES_BEFORE_PERFMON,
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


class Counter:
    def __init__(self, engine: Engine, spec: ContainerSpec) -> None:
        self.engine, self.spec = engine, spec
        self.container: Container | None = None
        self.refused: str | None = None

    def start(self, server: Container) -> None:
        """Count the server's calls from now on; a refusal is kept as the profile's reason."""
        if not self.wait_for(
            server, lambda: any(LISTENING in line for line in Engine.log_tail(server, 50))
        ):
            self.refused = "the server did not say it was listening, so nothing was counted"
            return
        self.container = self.launch(server)
        if self.container is not None and not self.wait_for(self.container, self.counting):
            tail = Engine.log_tail(self.container, 5)
            self.refused = f"perf did not start counting: {' / '.join(tail) or 'no output'}"

    def launch(self, server: Container) -> Container | None:
        namespace = ContainerOptions(pid_mode=f"container:{server.id}")
        try:
            return self.engine.start(self.spec, **namespace)
        except ImageNotFound:
            self.refused = (
                f"the counter's image {COUNTER_IMAGE} is missing: `make images` builds it"
            )
            return None
        except EngineError as exc:
            if "PERFMON" not in str(exc):
                self.refused = f"the counter did not start: {first_line(exc)}"
                return None
        # An engine older than the name CAP_PERFMON: CAP_SYS_ADMIN covers what perf needs.
        kwargs = self.spec.kwargs | ContainerOptions(cap_add=COUNTER_CAPABILITIES_BEFORE_PERFMON)
        try:
            return self.engine.start(dataclasses.replace(self.spec, kwargs=kwargs), **namespace)
        except EngineError as exc:
            self.refused = (
                f"the counter did not start with {COUNTER_CAPABILITIES} or "
                f"{COUNTER_CAPABILITIES_BEFORE_PERFMON}: {first_line(exc)}"
            )
            return None

    def counting(self) -> bool:
        assert self.container is not None
        return bool(measure.parse_perf_counts(Engine.log_tail(self.container, 50)))

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
