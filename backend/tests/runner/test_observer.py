"""The observer's lines turned into the server's process profile and the traffic check."""

from c10klab.results.schemas import LatencySummary, Summary
from c10klab.runner import observer
from c10klab.runner.lines import NetCounters, ObserveLine, ServerProcesses, parse_line
from c10klab.runner.observer import Observation
from c10klab.runs.schemas import RunRequest

ECHO = RunRequest(server="c-epoll", protocol="echo", payload_bytes=64)
HTTP = RunRequest(server="c-epoll", protocol="http", payload_bytes=64)
LATENCY = LatencySummary(p50=10.0, p90=20.0, p99=30.0, p999=40.0, max=50.0)


def summary(requests: int, requests_total: int | None = None, **more: float) -> Summary:
    """A load generator's summary: `requests` measured over 5 s, `requests_total` with the
    warm-up's."""
    figures = {"qps": requests / 5, "duration_s": 5.0, "latency_us": LATENCY} | more
    return Summary(requests=requests, requests_total=requests_total, **figures)


def line(
    t_s: float,
    rx_bytes: int = 0,
    *,
    last: bool = False,
    cpu_s: float = 0.0,
    threads: int = 1,
    switches: int = 0,
) -> Observation:
    procs = ServerProcesses(
        processes=1,
        threads=threads,
        rss_bytes=4096 * threads,
        voluntary_ctxt_switches=switches,
        nonvoluntary_ctxt_switches=0,
    )
    packets = rx_bytes // 100
    net = NetCounters(rx_bytes=rx_bytes, rx_packets=packets, tx_bytes=rx_bytes, tx_packets=packets)
    return Observation(t_s, 1.0, last, procs, net, cpu_s)


def test_a_line_is_read_or_left_out() -> None:
    raw = {
        "type": "observe",
        "elapsed_s": 1.0,
        "interval_s": 1.0,
        "final": True,
        "procs": None,
        "net": {"rx_bytes": 5, "rx_packets": 1, "tx_bytes": 5, "tx_packets": 1},
        "cpu_s": 0.25,
    }
    parsed = Observation.of(ObserveLine.model_validate(raw), 3.5)
    assert parsed.last and parsed.net == NetCounters(
        rx_bytes=5, rx_packets=1, tx_bytes=5, tx_packets=1
    )
    assert parsed.t_s == 3.5 and parsed.procs is None
    assert parse_line('{"type": "observe", "interval_s": "x"}') is None


def test_the_profile_counts_the_lines_inside_the_measured_time() -> None:
    lines = [
        line(0.5, threads=1, switches=999),  # before the load: the baseline, left out
        line(2.0, threads=4, switches=100),
        line(3.0, threads=8, switches=300),
        line(4.0, threads=2, switches=200),
        line(9.0, threads=50, switches=999),  # after the summary: left out
    ]
    profile = observer.process_profile(lines, (1.5, 4.0))
    assert profile is not None and profile.model_dump() == {
        "samples": 3,
        "processes_peak": 1,
        "threads_peak": 8,
        "rss_peak_bytes": 8 * 4096,
        "rss_mean_bytes": 14 * 4096 // 3,
        "voluntary_ctxt_switches_per_s": 200.0,
        "nonvoluntary_ctxt_switches_per_s": 0.0,
    }
    assert observer.process_profile(lines, (4.5, 8.0)) is None


def test_honest_figures_fit_in_the_traffic_counted() -> None:
    # 10,000 echo requests of 64 bytes (and loadgen's verification) need 1,280,128 bytes.
    lines = [line(0.0, 1000), line(3.0, 900_000), line(6.0, 2_000_000, last=True)]
    figures = observer.traffic(lines, ECHO, summary(8000, 10000))
    assert figures.model_dump() == {
        "judged": True,
        "requests": 10001,
        "least_bytes": 10001 * 128,
        "bytes": 1_999_000,
        "packets": 19_990,
    }
    assert observer.traffic_problem(figures) is None


def test_a_summary_claiming_more_than_the_network_carried_fails_the_run() -> None:
    forged = summary(49_382_715, 49_382_715)
    lines = [line(0.0, 1000), line(6.0, 2_000_000, last=True)]
    figures = observer.traffic(lines, ECHO, forged)
    problem = observer.traffic_problem(figures)
    assert problem is not None
    assert problem.startswith("the figures disagree with the traffic counted on the server")
    assert "49,382,716 requests need at least 6,320,987,648 bytes" in problem
    # An http request and its reply are at least 30 bytes.
    http = observer.traffic(lines, HTTP, summary(70_000, 70_000))
    assert observer.traffic_problem(http) is not None


def test_without_the_last_line_nothing_confirms_the_figures() -> None:
    cut = observer.traffic([line(0.0), line(3.0, 10**9)], ECHO, summary(1))
    assert not cut.judged
    problem = observer.traffic_problem(cut)
    assert problem is not None and "could not be counted" in problem


def test_a_summary_that_contradicts_itself_is_refused() -> None:
    honest = summary(500_000)
    assert observer.summary_problem(honest) is None
    inflated = summary(500_000, qps=9_876_543.0)
    assert "are not 9,876,543.0 requests/s" in (observer.summary_problem(inflated) or "")
    shuffled = honest.model_copy(update={"latency_us": LATENCY.model_copy(update={"p99": 1.0})})
    assert "out of order" in (observer.summary_problem(shuffled) or "")


def test_the_observers_own_cpu_time_is_read_between_its_lines() -> None:
    lines = [line(1.0, cpu_s=0.0), line(2.0, cpu_s=0.1), line(3.0, cpu_s=0.3)]
    assert observer.cpu_between(lines, 1.0, 3.0) == 0.3
    assert abs(observer.cpu_between(lines, 1.5, 2.5) - 0.15) < 1e-9
    assert observer.cpu_between([], 1.0, 2.0) == 0.0
