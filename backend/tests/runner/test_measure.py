from c10klab.results.schemas import (
    Client,
    CpuUse,
    Drift,
    Interference,
    LatencySummary,
    OpenLoop,
    Repetition,
    RunResult,
    ServerFigures,
    ServerStatsData,
    Summary,
    Window,
)
from c10klab.runner import measure
from c10klab.runner.lines import ProgressLine, parse_line
from c10klab.runner.measure import DockerStats, Interval


def test_lines_are_reassembled_from_arbitrary_chunks() -> None:
    text = b'{"type":"a"}\n{"type":"b"}\npartial'
    chunks = [text[i : i + 5] for i in range(0, len(text), 5)]
    assert list(measure.split_lines(chunks)) == ['{"type":"a"}', '{"type":"b"}', "partial"]


def stats(cpu: int, pre_cpu: int, system: int, pre_system: int, cpus: int = 2) -> DockerStats:
    return {
        "cpu_stats": {
            "cpu_usage": {"total_usage": cpu},
            "system_cpu_usage": system,
            "online_cpus": cpus,
        },
        "precpu_stats": {"cpu_usage": {"total_usage": pre_cpu}, "system_cpu_usage": pre_system},
        "memory_stats": {"usage": 10_000_000, "stats": {"total_inactive_file": 2_000_000}},
        "pids_stats": {"current": 3},
    }


def test_cpu_percent_is_docker_stats_percent() -> None:
    # One busy core out of two: the container used half of all CPU time in the interval.
    assert measure.cpu_percent(stats(1_500, 500, 4_000, 2_000)) == 100.0
    assert measure.cpu_percent({"cpu_stats": {}, "precpu_stats": {}}) is None
    assert measure.cpu_percent(stats(1_000, 500, 2_000, 2_000)) is None  # no time passed


def test_memory_leaves_out_reclaimable_cache() -> None:
    assert measure.memory_bytes(stats(1, 0, 2, 1)) == 8_000_000
    v2: DockerStats = {"memory_stats": {"usage": 5_000, "stats": {"inactive_file": 1_000}}}
    assert measure.memory_bytes(v2) == 4_000
    assert measure.memory_bytes({"memory_stats": {}}) is None


def test_a_docker_sample_is_a_server_stats_event() -> None:
    sample = measure.server_sample(stats(1_500, 500, 4_000, 2_000), 1.23456)
    assert sample == ServerStatsData(t_s=1.235, cpu_percent=100.0, memory_bytes=8_000_000, pids=3)
    assert measure.server_sample({"cpu_stats": {}, "precpu_stats": {}}, 1.0) is None


def test_server_cpu_mean_counts_only_the_measured_part() -> None:
    s = measure.ServerStats()
    for t, cpu, mem in ((0.5, 5.0, 100), (1.5, 90.0, 300), (2.5, 100.0, 200)):
        s.samples.append(ServerStatsData(t_s=t, cpu_percent=cpu, memory_bytes=mem, pids=1))
    s.measure_from_s = 1.0
    assert s.summary() == ServerFigures(
        cpu_percent_mean=95.0, memory_peak_bytes=300, pids_peak=1, samples=3
    )


LATENCY = LatencySummary(p50=10.0, p90=20.0, p99=30.0, p999=40.0, max=50.0)


def summary(requests: int, errors: dict[str, int], **more: object) -> Summary:
    return Summary.model_validate(
        {
            "qps": requests / 10,
            "requests": requests,
            "duration_s": 10.0,
            "errors": errors,
            "error_total": sum(errors.values()),
            "latency_us": LATENCY,
        }
        | more
    )


def test_a_result_with_too_many_errors_is_invalid() -> None:
    assert measure.judge(summary(1000, {"reset": 5}), 0.01) is None
    reason = measure.judge(summary(1000, {"reset": 50, "timeout": 0}), 0.01)
    assert reason is not None and "4.8%" in reason and "reset: 50" in reason
    assert "timeout" not in reason
    assert "no request" in (measure.judge(summary(0, {}), 0.01) or "")


def test_judge_rejects_any_timeout_since_its_latency_is_missing() -> None:
    reason = measure.judge(summary(100_000, {"timeout": 1}), 0.01)
    assert reason is not None and reason.startswith("1 request got no reply in time")
    assert "missing from the percentiles" in reason


def test_only_the_load_generators_lines_are_taken() -> None:
    line = parse_line('{"type": "phase", "phase": "measure"}')
    assert line is not None and line.type == "phase"
    assert parse_line("warning: something") is None
    assert parse_line("{not json") is None
    assert parse_line('{"no_type": 1}') is None
    assert parse_line('{"type": "progress", "qps": 1}') is None  # a progress line lacks its figures


def test_progress_events_keep_the_fields_the_charts_use() -> None:
    line = ProgressLine.model_validate_json(
        '{"type":"progress","phase":"measure","elapsed_s":3,"interval_s":1,'
        '"requests":100,"qps":100.0,"errors":0,"idle_dropped":0,"latency_us":{"p50":1,"p90":2,'
        '"p99":3,"p999":4,"max":5}}'
    )
    event = measure.progress_event(line, 4.12345)
    assert event.model_dump(exclude_none=True) == {
        "t_s": 4.123,
        "phase": "measure",
        "qps": 100.0,
        "requests": 100,
        "errors": 0,
        "latency_us": {"p50": 1, "p90": 2, "p99": 3, "p999": 4, "max": 5},
    }


def open_loop(target: float, achieved: float) -> OpenLoop:
    return OpenLoop(
        target_qps=target,
        achieved_qps=achieved,
        achieved_fraction=achieved / target,
        short_of_target=achieved / target < 0.95,
        latency_actual_us=LATENCY,
        send_lag_us=LATENCY,
    )


def test_an_open_loop_run_that_misses_its_rate_is_invalid() -> None:
    met = summary(50_000, {}, open_loop=open_loop(10_000, 9_900.0))
    assert measure.judge(met, 0.01, 0.9) is None
    missed = summary(50_000, {}, open_loop=open_loop(100_000, 61_000.0))
    reason = measure.judge(missed, 0.01, 0.9)
    assert reason is not None and "61,000 of the 100,000" in reason and "61%" in reason


def test_progress_events_pass_open_loop_digests_and_the_process_profile_through() -> None:
    digest = {"p50": 1, "p90": 2, "p99": 3, "p999": 4, "max": 5}
    procs = {"processes": 1, "threads": 1, "rss_bytes": 4096, "voluntary_ctxt_switches": 7,
             "nonvoluntary_ctxt_switches": 0}  # fmt: skip
    line = {"type": "progress", "phase": "measure", "qps": 1.0, "requests": 1, "errors": 0,
            "latency_us": digest, "latency_actual_us": digest, "send_lag_us": digest,
            "idle_dropped": 2, "procs": procs}  # fmt: skip
    event = measure.progress_event(ProgressLine.model_validate(line), 1.0)
    assert event.send_lag_us is not None and event.send_lag_us.model_dump() == digest
    assert event.latency_actual_us is not None and event.latency_actual_us.model_dump() == digest
    assert event.idle_dropped == 2 and event.procs is not None
    assert event.procs.model_dump() == procs
    closed_line = ProgressLine.model_validate(line | {"latency_actual_us": None, "idle_dropped": 0})
    closed = measure.progress_event(closed_line, 1.0)
    assert closed.latency_actual_us is None and closed.idle_dropped is None


def outcome(
    repetition: int, qps: float, p99: float, valid: bool = True, stable: bool = True
) -> Repetition:
    """A repetition's figures; its interference and drift carry its number (as their window
    and their count of intervals) to tell whose a combined result shows."""
    unjudged = CpuUse(cpus="0", judged=False)
    return Repetition(
        repetition=repetition,
        summary=summary(int(qps * 10), {}).model_copy(
            update={"qps": qps, "latency_us": LATENCY.model_copy(update={"p99": p99})}
        ),
        server=ServerFigures(cpu_percent_mean=90.0),
        valid=valid,
        invalid_reason=None if valid else "too many errors",
        stable=stable,
        unstable_reason=None if stable else "other processes used 38% of the server's CPU 0",
        interference=Interference(
            limit=0.1,
            measure_phase=Window(from_s=repetition, to_s=repetition),
            server=unjudged,
            loadgen=unjudged,
        ),
        drift=Drift(limit=0.25, judged=False, intervals=repetition),
    )


def test_repetitions_combine_into_median_spread_and_a_noisy_flag() -> None:
    combined = measure.combine([outcome(1, 100.0, 30), outcome(2, 120.0, 10),
                                outcome(3, 105.0, 20)], 0.10)  # fmt: skip
    agg = combined.aggregate
    assert agg is not None
    assert combined.summary.qps == 105.0 and agg.median_repetition == 3
    assert agg.qps.model_dump() == {"median": 105.0, "min": 100.0, "max": 120.0, "spread": 0.1905}
    assert agg.p99_us is not None
    assert agg.p99_us.model_dump(exclude_none=True) == {"median": 20.0, "min": 10.0, "max": 30.0}
    assert agg.noisy and combined.valid and len(combined.repetitions) == 3
    quiet = measure.combine([outcome(1, 100.0, 9), outcome(2, 104.0, 9)], 0.10)
    assert quiet.aggregate is not None and not quiet.aggregate.noisy
    single = measure.combine([outcome(1, 100.0, 9)], 0.0)
    assert single.aggregate is not None and not single.aggregate.noisy


def test_one_invalid_repetition_makes_the_result_invalid_and_says_which() -> None:
    combined = measure.combine([outcome(1, 100.0, 9), outcome(2, 99.0, 9, valid=False)], 0.1)
    assert not combined.valid
    assert combined.invalid_reason == "repetition 2 of 2: too many errors"
    assert combined.stable and combined.unstable_reason is None  # invalid is not unstable


def whose(result: RunResult) -> tuple[int | None, int | None, int | None]:
    """Which repetition's interference and drift a combined result shows, and the number it
    marks them with."""
    assert result.interference is not None and result.drift is not None
    window = result.interference.measure_phase
    assert window is not None
    return int(window.from_s), result.drift.intervals, result.interference.repetition


def test_one_unstable_repetition_makes_the_result_unstable_with_its_figures() -> None:
    steady = measure.combine([outcome(1, 100.0, 9), outcome(2, 99.0, 9), outcome(3, 98.0, 9)], 0.1)
    assert steady.stable and steady.unstable_reason is None
    assert whose(steady) == (2, 2, 2)  # the median's
    combined = measure.combine(
        [outcome(1, 100.0, 9), outcome(2, 60.0, 9, stable=False), outcome(3, 98.0, 9)], 0.1
    )
    assert not combined.stable and combined.valid
    assert combined.unstable_reason == (
        "repetition 2 of 3: other processes used 38% of the server's CPU 0"
    )
    assert combined.drift is not None and combined.drift.repetition == 2
    assert whose(combined) == (2, 2, 2)
    single = measure.combine([outcome(1, 60.0, 9, stable=False)], 0.1)
    assert single.unstable_reason == "other processes used 38% of the server's CPU 0"
    # Results recorded before the stability checks have no figures and count as stable.
    old = outcome(1, 100.0, 9).model_copy(update={"stable": None, "interference": None})
    assert measure.combine([old], 0.1).stable and measure.combine([old], 0.1).interference is None


def cpu_of(container: float, cpus: str = "1") -> CpuUse:
    return CpuUse(judged=True, cpus=cpus, container=container)


def use_of(server: CpuUse, loadgen: CpuUse) -> Interference:
    return Interference(limit=0.1, server=server, loadgen=loadgen)


def test_a_saturated_client_beside_an_unsaturated_server_is_client_bound() -> None:
    bound = measure.client_use(use_of(cpu_of(0.72, "0"), cpu_of(0.97)))
    assert bound.bound and bound.cpu == 0.97
    assert bound.reason == (
        "the load generator used 97% of its CPU 1 and the server only 72% of its CPU 0: "
        "this measures the load generator, not the server"
    )
    both = measure.client_use(use_of(cpu_of(0.99, "0"), cpu_of(0.97)))
    assert both.bound is False and both.reason is None  # the server was saturated too
    idle = measure.client_use(use_of(cpu_of(0.4, "0"), cpu_of(0.5, "1-2")))
    assert idle.bound is False
    unjudged = use_of(CpuUse(judged=False, cpus="0"), cpu_of(0.97))
    assert measure.client_use(unjudged).bound is None


def test_one_client_bound_repetition_makes_the_result_client_bound() -> None:
    reps = [outcome(1, 100.0, 9), outcome(2, 98.0, 9), outcome(3, 90.0, 9)]
    for rep in reps:
        rep.client = Client(cpu=0.5, bound=rep.repetition == 3, reason=None)
    combined = measure.combine(reps, 0.1)
    assert combined.client is not None
    assert combined.client.bound and combined.client.repetition == 3
    for rep in reps:
        assert rep.client is not None
        rep.client.bound = False
    unbound = measure.combine(reps, 0.1)
    assert unbound.client is not None and unbound.client.repetition == 2  # the median's


# Two of perf stat's 250 ms intervals, as count-syscalls.sh makes it print them (-x, -I).
PERF_LOG = """     0.250382069,<not counted>,,raw_syscalls:sys_enter,0,100.00,,
     0.250382069,<not counted>,,syscalls:sys_enter_read,0,100.00,,
     0.250382069,<not counted>,,syscalls:sys_exit_read,0,100.00,,
     0.500811223,150051,,raw_syscalls:sys_enter,250000000,100.00,,
     0.500811223,75000,,syscalls:sys_enter_read,250000000,100.00,,
     0.500811223,50000,,syscalls:sys_enter_write,250000000,100.00,,
     0.500811223,25000,,syscalls:sys_enter_epoll_wait,250000000,100.00,,
     0.500811223,25000,,syscalls:sys_exit_read,250000000,100.00,,
     0.750811223,100050,,raw_syscalls:sys_enter,250000000,100.00,,
     0.750811223,25000,,syscalls:sys_enter_read,250000000,100.00,,
     0.750811223,50000,,syscalls:sys_enter_write,250000000,100.00,,
     0.750811223,25000,,syscalls:sys_enter_epoll_wait,250000000,100.00,,
     0.750811223,0,,syscalls:sys_exit_read,250000000,100.00,,""".splitlines()


def test_perfs_counts_are_summed_and_divided_by_requests() -> None:
    counts = measure.parse_perf_counts([*PERF_LOG, "perf: some warning", ""])
    assert counts["raw_syscalls:sys_enter"] == 250101 and counts["syscalls:sys_exit_read"] == 25000
    profile = measure.syscall_profile(counts, 100_000)
    assert profile is not None
    assert profile.total is not None
    assert profile.calls_per_request == 2.501 and profile.total.calls == 250101
    rows = {row.syscall: row for row in profile.rows}
    assert list(rows) == ["read", "write", "epoll_wait", "other"]  # most calls first
    read = {"syscall": "read", "calls": 100000, "errors": 25000, "per_request": 1.0}
    assert rows["read"].model_dump() == read
    assert rows["write"].errors is None  # not counted, unlike read's (EAGAIN is the lesson)
    assert rows["other"].calls == 101  # the total's calls no name was counted for
    assert sum(row.calls for row in profile.rows) == profile.total.calls
    assert measure.syscall_profile(measure.parse_perf_counts(["no counts here"]), 10) is None


def test_a_refused_count_says_why_and_gives_no_figure() -> None:
    refused = measure.refused_profile("perf did not start counting: permission denied")
    assert refused.refused is not None and refused.refused.startswith("perf did not start")
    assert refused.calls_per_request is None and refused.rows == []


def test_judge_rejects_connections_starved_through_the_whole_measurement() -> None:
    reason = measure.judge(summary(50_000, {}, starved=9), 0.01)
    assert reason is not None and reason.startswith("9 connections got no reply")
    assert measure.judge(summary(50_000, {}, starved=0), 0.01) is None


PROC_STAT = """cpu  300 0 150 900 5 0 40 2 0 0
cpu0 200 0 100 400 2 0 30 1 0 0
cpu1 100 0 50 500 3 0 10 1 0 0
intr 783630 0 0 0
ctxt 123
"""


def test_proc_stat_rows_are_read_per_cpu() -> None:
    rows = measure.parse_proc_stat(PROC_STAT)
    assert set(rows) == {0, 1}  # the `cpu` total row is not a CPU
    assert rows[0] == {"user": 200, "nice": 0, "system": 100, "idle": 400, "iowait": 2,
                       "irq": 0, "softirq": 30, "steal": 1}  # fmt: skip
    assert set(measure.parse_proc_stat(PROC_STAT, {1})) == {1}


def cpu_row(user: int, system: int = 0, softirq: int = 0, steal: int = 0) -> dict[str, int]:
    return {"user": user, "nice": 0, "system": system, "idle": 0, "iowait": 0, "irq": 0,
            "softirq": softirq, "steal": steal}  # fmt: skip


def sample(t_s: float, usage_s: float, **row: int) -> measure.CpuSample:
    return measure.CpuSample(t_s, int(usage_s * 1e9), {0: cpu_row(**row)})


def test_interference_is_busy_time_beyond_the_containers_own_over_samples_inside_the_window() -> (
    None
):
    samples = [
        sample(0.5, 0.0, user=0),  # before the measure phase: left out
        sample(1.2, 0.1, user=10),
        sample(2.2, 0.6, user=80, steal=1),  # ticks of 10 ms: 0.7 s busy in this second
        sample(3.2, 1.1, user=150, steal=2),
        sample(4.5, 9.9, user=999),  # after the summary: left out
    ]
    use = measure.cpu_use(samples, "0", (1.0, 4.0), 100)
    assert use.judged and use.samples == 3
    assert (use.from_s, use.to_s, use.seconds) == (1.2, 3.2, 2.0)
    assert use.busy == 0.7 and use.container == 0.5
    assert use.others == 0.2 and use.steal == 0.01 and use.interference == 0.21
    assert use.busy_columns == "user+nice+system"


def test_busy_time_never_counts_below_the_containers_own_and_needs_two_samples() -> None:
    samples = [sample(1.0, 0.0, user=0), sample(2.0, 0.9, user=50, softirq=40)]
    quiet = measure.cpu_use(samples, "0", (0.0, 3.0), 100)
    assert quiet.others == 0.0 and quiet.irq == 0.4
    # On a kernel that charges softirq to the task it interrupted, busy includes it.
    with_irq = measure.cpu_use(samples, "0", (0.0, 3.0), 100, measure.busy_columns(False))
    assert with_irq.busy == 0.9 and with_irq.others == 0.0
    one = measure.cpu_use(samples, "0", (1.5, 3.0), 100)
    assert not one.judged and one.samples == 1 and "fewer than two" in (one.note or "")


def test_capacity_is_every_cpu_of_the_set() -> None:
    rows = {0: cpu_row(0), 2: cpu_row(0)}
    later = {0: cpu_row(100), 2: cpu_row(60)}  # 1.6 s busy of 2 CPUs over 1 s
    samples = [measure.CpuSample(0.0, 0, rows), measure.CpuSample(1.0, int(1.2e9), later)]
    use = measure.cpu_use(samples, "0,2", (0.0, 1.0), 100)
    assert use.busy == 0.8 and use.container == 0.6 and use.interference == 0.2


def test_irq_time_accounting_is_read_from_the_kernel_config() -> None:
    assert measure.irq_time_accounted("CONFIG_IRQ_TIME_ACCOUNTING=y\n", "quiet") is True
    off = "# CONFIG_IRQ_TIME_ACCOUNTING is not set\n"
    assert measure.irq_time_accounted(off, "quiet") is False
    assert measure.irq_time_accounted("CONFIG_IRQ_TIME_ACCOUNTING=y", "tsc=noirqtime") is False
    assert measure.irq_time_accounted(None, "quiet") is None
    assert measure.busy_columns(False) == ("user", "nice", "system", "irq", "softirq")
    assert measure.busy_columns(True) == measure.busy_columns(None) == ("user", "nice", "system")


def intervals(*qps: float) -> list[Interval]:
    return [Interval(t_s=2.0 + i, qps=q, interval_s=1.0) for i, q in enumerate(qps)]


def test_drift_lists_every_interval_far_from_the_median() -> None:
    figures = measure.drift(intervals(105_000, 104_000, 37_000, 106_000, 150_000), 0.25, False)
    assert figures.judged and figures.median_qps == 105_000.0
    assert [d.model_dump() for d in figures.drifted] == [
        {"t_s": 4.0, "qps": 37_000, "departure": -0.6476},
        {"t_s": 6.0, "qps": 150_000, "departure": 0.4286},
    ]
    steady = measure.drift(intervals(100, 110, 90, 100), 0.25, False)
    assert steady.judged and steady.drifted == []


def test_drift_needs_three_full_intervals_and_some_requests() -> None:
    two = measure.drift(intervals(100, 10), 0.25, False)
    assert not two.judged and "at least 3" in (two.note or "")
    # A last interval cut short (duration 2.2 s) does not count towards the three.
    short = [*intervals(100, 100), Interval(t_s=4.2, qps=10, interval_s=0.2)]
    assert not measure.drift(short, 0.25, False).judged
    assert not measure.drift(intervals(0, 0, 5), 0.25, False).judged


def interference(server: float, loadgen: float, steal: float = 0.0) -> Interference:
    def use(cpus: str, others: float) -> CpuUse:
        return CpuUse(cpus=cpus, judged=True, others=others, steal=steal,
                      interference=others + steal)  # fmt: skip

    return use_of(use("0", server), use("1", loadgen))


def test_stability_names_the_disturbed_cpus_with_the_figures() -> None:
    steady = measure.drift(intervals(100, 100, 100), 0.25, False)
    assert measure.judge_stability(interference(0.03, 0.05), steady) is None
    reason = measure.judge_stability(interference(0.38, 0.0), steady)
    assert reason == (
        "other processes used 38% of the server's CPU 0 while it was measured (limit 10%): "
        "the server lost that time, so its figures may not be what it does undisturbed. "
        "To measure it undisturbed: close what else runs on this machine (another tab drawing "
        "charts, a build, a second benchmark), wait for it to finish, and run again"
    )
    loadgen = measure.judge_stability(interference(0.0, 0.2), steady) or ""
    assert loadgen.startswith("other processes used 20% of the load generator's CPU 1")
    stolen = measure.judge_stability(interference(0.05, 0.0, steal=0.08), steady) or ""
    assert "took 13% of the server's CPU 0" in stolen and "5% + 8% steal" in stolen


def test_each_cpu_set_is_judged_by_its_own_limit_when_it_has_one() -> None:
    steady = measure.drift(intervals(100, 100, 100), 0.25, False)
    sets = interference(0.08, 0.08)
    sets.server.limit, sets.loadgen.limit = 0.07, 0.09
    reason = measure.judge_stability(sets, steady) or ""
    assert reason.startswith("other processes used 8% of the server's CPU 0")
    assert "limit 7%" in reason
    sets.server.limit = 0.085
    assert measure.judge_stability(sets, steady) is None  # the loadgen's 8 % is under its 9 %


def test_drift_makes_a_run_unstable_and_an_open_loop_says_it_fell_behind() -> None:
    quiet = interference(0.0, 0.0)
    moved = measure.drift(intervals(105_000, 104_000, 37_000, 106_000, 105_500), 0.25, False)
    reason = measure.judge_stability(quiet, moved) or ""
    assert reason.startswith(
        "the throughput left the run's median of 105,000 requests/s by more than 25% in 1 of "
        "its 5 measured intervals (37,000 at 4.0 s)"
    )
    assert "something disturbed the run" in reason
    open_loop = measure.drift(intervals(20_000, 20_000, 9_000), 0.25, True)
    assert "fell behind the load generator's schedule" in (
        measure.judge_stability(quiet, open_loop) or ""
    )
    unjudged = quiet.model_copy(update={"server": CpuUse(cpus="0", judged=False, note="…")})
    assert measure.judge_stability(unjudged, measure.drift(intervals(1, 1), 0.25, False)) is None


def test_the_observers_own_time_on_the_load_generators_cpus_is_not_interference() -> None:
    samples = [sample(1.0, 0.0, user=0), sample(2.0, 0.5, user=70)]
    plain = measure.cpu_use(samples, "0", (0.0, 3.0), 100)
    assert plain.others == 0.2 and plain.helper is None
    helped = measure.cpu_use(samples, "0", (0.0, 3.0), 100, ours=lambda a, b: 0.15 * (b - a))
    assert helped.helper == 0.15 and round(helped.others or 0.0, 4) == 0.05
