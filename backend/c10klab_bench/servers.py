"""`make bench-servers`: every server at several concurrency levels, repeated, into
results/servers.md.

Repetitions are interleaved (every server at every level once, then again) so that the slow
drift of a shared machine spreads over all servers instead of favouring whichever ran first.
"""

import argparse
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from c10klab.config import REPO_ROOT
from c10klab.sandboxes.schemas import Server
from c10klab_bench.harness import Outcome, harness, median_and_spread

LEVELS = (10, 100, 1000)
# Models whose point is many connections on few threads also get a 10,000-connection level.
EVENT_DRIVEN_MODELS = {"poll", "epoll", "epoll-reuseport", "io_uring", "async-runtime"}
EVENT_DRIVEN_LEVEL = 10_000

COLUMNS = ["server", "connections", "QPS", "spread", "p50", "p99", "server CPU", "peak memory",
           "errors", "note"]  # fmt: skip
TABLE_HEAD = ["| " + " | ".join(COLUMNS) + " |", "|---|" + "---:|" * 8 + "---|"]


def levels_for(server: Server) -> tuple[int, ...]:
    if server.model in EVENT_DRIVEN_MODELS:
        return (*LEVELS, EVENT_DRIVEN_LEVEL)
    return LEVELS


def fmt_us(us: float) -> str:
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.0f} µs"


def why_no_figure(outcome: Outcome) -> str:
    if outcome.failure:
        return outcome.failure
    return str((outcome.result or {}).get("invalid_reason"))


def row(server: Server, connections: int, outcomes: list[Outcome]) -> str:
    valid = sorted((o for o in outcomes if o.qps is not None), key=lambda o: o.qps or 0.0)
    stats = median_and_spread([o.qps for o in valid if o.qps is not None])
    if stats is None or not valid:
        reasons = "; ".join(sorted({why_no_figure(o) for o in outcomes}))
        return f"| {server.id} | {connections} | – | – | – | – | – | – | – | {reasons} |"
    median, spread = stats
    middle: dict[str, Any] = valid[len(valid) // 2].result or {}
    latency = middle["summary"]["latency_us"]
    cpu = middle["server"].get("cpu_percent_mean")
    memory = max((o.result or {})["server"].get("memory_peak_bytes") or 0 for o in valid)
    errors = sum((o.result or {})["summary"]["error_total"] for o in valid)
    left_out = len(outcomes) - len(valid)
    note = f"{left_out} of {len(outcomes)} runs invalid or failed" if left_out else ""
    cells = [
        server.id, str(connections), f"{median:,.0f}", f"±{spread:.0%}",
        fmt_us(latency["p50"]), fmt_us(latency["p99"]),
        "–" if cpu is None else f"{cpu:.0f} %", f"{memory / 2**20:.1f} MiB", str(errors), note,
    ]  # fmt: skip
    return "| " + " | ".join(cells) + " |"


def header(args: argparse.Namespace, started: datetime, provenance: dict[str, Any]) -> list[str]:
    return [
        "# Every server, echo 64 B",
        "",
        f"Measured {started:%Y-%m-%d %H:%M} UTC by `make bench-servers`: {args.repetitions} "
        f"interleaved repetitions of {args.duration_s:g} s after {args.warmup_s:g} s of warm-up, "
        "closed loop, server and load generator pinned to separate cores.",
        "",
        f"Host: {provenance.get('cpu_model')}; kernel {provenance.get('kernel')}; Docker "
        f"{provenance.get('docker_version')}; server CPUs {provenance.get('server_cpus')}, "
        f"load generator CPUs {provenance.get('loadgen_cpus')}.",
        "",
        "QPS is the median of the valid repetitions; spread is (max − min) / median. Latency "
        "and CPU come from the median run, memory is the peak over all runs. A run with more "
        "than 1 % errors is invalid and left out of the median; the note says why.",
        "",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--duration-s", type=float, default=5)
    parser.add_argument("--warmup-s", type=float, default=1)
    parser.add_argument("--servers", help="comma-separated ids (default: every server)")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "results" / "servers.md")
    args = parser.parse_args()

    outcomes: dict[tuple[str, int], list[Outcome]] = defaultdict(list)
    provenance: dict[str, Any] = {}
    started = datetime.now(UTC)
    with harness() as h:
        wanted = set(args.servers.split(",")) if args.servers else None
        servers = [s for s in h.catalog.servers if wanted is None or s.id in wanted]
        levels = sorted({c for s in servers for c in levels_for(s)})
        for rep in range(1, args.repetitions + 1):
            for connections in levels:
                for server in (s for s in servers if connections in levels_for(s)):
                    outcome = h.run({
                        "server": server.id, "connections": connections, "payload_bytes": 64,
                        "duration_s": args.duration_s, "warmup_s": args.warmup_s,
                        "protocol": "echo",
                    })  # fmt: skip
                    outcomes[(server.id, connections)].append(outcome)
                    shown = f"{outcome.qps:,.0f} qps" if outcome.qps else why_no_figure(outcome)
                    print(f"[{rep}/{args.repetitions}] {server.id} c={connections}: {shown}")
                    if outcome.result and not provenance:
                        provenance = outcome.result["provenance"]

    lines = header(args, started, provenance) + TABLE_HEAD
    for server in servers:
        lines += [row(server, c, outcomes[(server.id, c)]) for c in levels_for(server)]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
