"""A cpu or offcpu profile's recorder: perf record in a container beside the server
(sandboxes/counter/profile-stacks.sh), over the measured phase only.

It starts like the syscall counter (counter.py: once the server listens, in its PID
namespace) with its events off; `enable` turns them on (SIGUSR1) when the load generator begins
its measured phase, and `stop`, once the load has ended, interrupts it and reads the folded stacks
it prints: names only, never an address. A host that will not profile gives a profile that
says why and what its owner can change; the run itself goes on and keeps its figures.
"""

import time

from c10klab.results.schemas import Stacks
from c10klab.runner import stacks
from c10klab.runner.counter import Beside
from c10klab.runner.docker_engine import Engine
from c10klab.runner.plan import PROFILE_FREQUENCY_HZ, ContainerSpec

# perf script names every frame after the recording: tens of thousands of stacks in a few
# seconds on the watcher's CPU.
STOP_WAIT_S = 60
# What the host's owner can change where the kernel refuses perf its events.
HOST_ADVICE = (
    "the host's owner can allow it: a Docker engine that grants CAP_PERFMON, CAP_SYSLOG and "
    "CAP_SYS_PTRACE to a container (not --privileged), kernel.perf_event_paranoid at most 2, "
    "and tracefs mounted at /sys/kernel/tracing (make up does so)"
)


class Profiler(Beside):
    what = "the profiler"

    def __init__(self, engine: Engine, spec: ContainerSpec, mode: str) -> None:
        super().__init__(engine, spec)
        self.mode = mode
        self.enabled_at: float | None = None

    def ready(self) -> bool:
        assert self.container is not None
        return any(stacks.READY in line for line in Engine.log_tail(self.container, 20))

    def enable(self) -> None:
        """Recording on, now: the measured phase has begun. A signal, not a command run in the
        container: on a busy host starting one took longer than a 1 s measured phase."""
        if self.container is None or self.refused is not None or self.enabled_at is not None:
            return
        Engine.interrupt(self.container, "SIGUSR1")
        self.enabled_at = time.monotonic()

    def stop(self, requests: int) -> Stacks:
        """End the recording; the profile (or why there is none)."""
        if self.container is None or self.refused is not None:
            return self.refusal(self.refused or "nothing was recorded")
        if self.enabled_at is None:
            return self.refusal("the measured phase never began, so nothing was recorded")
        window_s = time.monotonic() - self.enabled_at
        Engine.interrupt(self.container)
        Engine.wait(self.container, STOP_WAIT_S)
        lines = Engine.log_tail(self.container, "all")
        profile = stacks.profile(
            self.mode,
            lines,
            frequency_hz=PROFILE_FREQUENCY_HZ,
            window_s=window_s,
            requests=requests,
        )
        if profile is None:
            tail = [line for line in lines if not line.startswith("stack ")][-5:]
            return self.refusal(f"perf printed no stacks: {' / '.join(tail) or 'no output'}")
        return profile

    def refusal(self, reason: str) -> Stacks:
        return stacks.refused(self.mode, f"{reason}; {HOST_ADVICE}")
