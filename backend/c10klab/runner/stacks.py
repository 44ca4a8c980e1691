"""A cpu or offcpu profile from profile-stacks.sh's lines: the folded stacks, names only, and
what they add up to (where the CPU time went; how long threads were off the CPU).

The profiler container prints names only; this checks it again, since a frame is shown to
whoever may see the run: anything that reads as an address is dropped to "[unknown]".
"""

import re

from c10klab.results.schemas import CpuShares, FoldedStack, OffCpuTotals, Stacks

READY = "profiler: ready"
KERNEL = "_[k]"
BLOCKED, RUNNABLE = "[blocked]", "[runnable]"
OTHER_STACKS = "[other stacks]"
# The most stacks a result keeps, heaviest first; the rest become one OTHER_STACKS line. A
# busy event loop has a few hundred distinct stacks; this bounds what a run stores.
KEPT_STACKS = 1500
# A hexadecimal run long enough to be an address (kernel or user), alone or with 0x.
ADDRESS = re.compile(r"(?<![0-9A-Za-z_])(?:0x)?[0-9a-fA-F]{8,}(?![0-9A-Za-z_])")
# Kernel frames that run the network's deferred work: softirq, whoever's time it is on.
SOFTIRQ = re.compile(r"softirq|net_rx_action|net_tx_action")
COUNTS = ("samples", "idle", "other", "switches")
SYSCALL_ENTRY = re.compile(r"^(entry_SYSCALL|do_syscall_|__x64_sys_|__do_sys_|io_uring_)")


def parse(lines: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """The `stack WEIGHT FRAMES` lines, merged by stack, and the closing counts (`samples`,
    `idle` and `other` of a cpu profile, `switches` of an offcpu one); other lines (perf's
    own, the ready line) are skipped."""
    weights: dict[str, int] = {}
    counts: dict[str, int] = {}
    for line in lines:
        kind, _, rest = line.strip().partition(" ")
        if kind == "stack":
            weight, _, stack = rest.partition(" ")
            if weight.isdigit() and stack:
                clean = scrub(stack)
                weights[clean] = weights.get(clean, 0) + int(weight)
        elif kind in COUNTS and rest.isdigit():
            counts[kind] = int(rest)
    return weights, counts


def scrub(stack: str) -> str:
    """The stack with any frame that holds an address replaced by "[unknown]"."""
    return ";".join("[unknown]" if ADDRESS.search(frame) else frame for frame in stack.split(";"))


def kept(weights: dict[str, int]) -> tuple[list[FoldedStack], int]:
    """The heaviest KEPT_STACKS stacks, the rest as one line; and how many were merged."""
    ranked = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
    stacks = [FoldedStack(stack=s, weight=w) for s, w in ranked[:KEPT_STACKS]]
    rest = ranked[KEPT_STACKS:]
    if rest:
        stacks.append(FoldedStack(stack=OTHER_STACKS, weight=sum(w for _, w in rest)))
    return stacks, len(rest)


def kind_of(stack: str) -> str:
    """Where a sampled stack's time went: softirq, syscalls, other_kernel or user."""
    kernel = [f.removesuffix(KERNEL) for f in stack.split(";") if f.endswith(KERNEL)]
    if not kernel:
        return "user"
    if any(SOFTIRQ.search(f) for f in kernel):
        return "softirq"
    if any(SYSCALL_ENTRY.search(f) for f in kernel):
        return "syscalls"
    return "other_kernel"


def cpu_shares(weights: dict[str, int], idle: int, other: int) -> CpuShares:
    """The server's samples by kind, and the idle task's and everyone else's, as shares of
    every sample taken on the server's CPUs: the clock samples each CPU `frequency` times a
    second whatever runs there, so these are shares of the CPUs' time."""
    by_kind = dict.fromkeys(("user", "syscalls", "softirq", "other_kernel"), 0)
    for stack, weight in weights.items():
        by_kind[kind_of(stack)] += weight
    every = max(sum(by_kind.values()) + idle + other, 1)
    shares = {kind: round(weight / every, 4) for kind, weight in by_kind.items()}
    return CpuShares(**shares, idle=round(idle / every, 4), other_work=round(other / every, 4))


def offcpu_totals(weights: dict[str, int], switches: int, requests: int) -> OffCpuTotals:
    blocked = sum(w for s, w in weights.items() if s.endswith(BLOCKED))
    runnable = sum(w for s, w in weights.items() if s.endswith(RUNNABLE))
    return OffCpuTotals(
        blocked_s=round(blocked / 1e6, 3),
        runnable_s=round(runnable / 1e6, 3),
        switches=switches,
        switches_per_request=round(switches / requests, 4) if requests > 0 else None,
    )


def profile(
    mode: str, lines: list[str], *, frequency_hz: int, window_s: float, requests: int
) -> Stacks | None:
    """The profile the lines hold, or None if perf recorded nothing (no closing count)."""
    weights, counts = parse(lines)
    cpu = mode == "cpu"
    if ("samples" if cpu else "switches") not in counts:
        return None
    stacks, merged = kept(weights)
    return Stacks(
        mode="cpu" if cpu else "offcpu",
        refused=None,
        unit="samples" if cpu else "microseconds",
        frequency_hz=frequency_hz if cpu else None,
        window_s=round(window_s, 3),
        total=sum(weights.values()),
        stacks=stacks,
        merged=merged,
        shares=cpu_shares(weights, counts.get("idle", 0), counts.get("other", 0)) if cpu else None,
        offcpu=None if cpu else offcpu_totals(weights, counts["switches"], requests),
    )


def refused(mode: str, reason: str) -> Stacks:
    """A profile the host would not record: why, instead of any stack."""
    return Stacks(
        mode="cpu" if mode == "cpu" else "offcpu",
        refused=reason,
        unit="samples" if mode == "cpu" else "microseconds",
        frequency_hz=None,
        window_s=None,
        total=0,
        stacks=[],
    )
