import json

from c10klab.runner import measure


def test_lines_are_reassembled_from_arbitrary_chunks() -> None:
    text = b'{"type":"a"}\n{"type":"b"}\npartial'
    chunks = [text[i : i + 5] for i in range(0, len(text), 5)]
    assert list(measure.split_lines(chunks)) == ['{"type":"a"}', '{"type":"b"}', "partial"]


def test_only_typed_json_objects_are_taken() -> None:
    assert measure.parse_line('{"type": "progress", "qps": 1}') == {"type": "progress", "qps": 1}
    assert measure.parse_line("warning: something") is None
    assert measure.parse_line("{not json") is None
    assert measure.parse_line('{"no_type": 1}') is None


def stats(cpu: int, pre_cpu: int, system: int, pre_system: int, cpus: int = 2) -> dict:  # type: ignore[type-arg]
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
    v2 = {"memory_stats": {"usage": 5_000, "stats": {"inactive_file": 1_000}}}
    assert measure.memory_bytes(v2) == 4_000
    assert measure.memory_bytes({"memory_stats": {}}) is None


def test_server_cpu_mean_counts_only_the_measured_part() -> None:
    s = measure.ServerStats()
    for t, cpu, mem in ((0.5, 5.0, 100), (1.5, 90.0, 300), (2.5, 100.0, 200)):
        s.samples.append({"t_s": t, "cpu_percent": cpu, "memory_bytes": mem, "pids": 1})
    s.measure_from_s = 1.0
    assert s.summary() == {
        "cpu_percent_mean": 95.0,
        "memory_peak_bytes": 300,
        "pids_peak": 1,
        "samples": 3,
    }


def summary(requests: int, errors: dict[str, int]) -> dict:  # type: ignore[type-arg]
    return {"requests": requests, "errors": errors, "error_total": sum(errors.values())}


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


def test_progress_events_keep_the_fields_the_charts_use() -> None:
    line = json.loads(
        '{"type":"progress","phase":"measure","elapsed_s":3,"interval_s":1,'
        '"requests":100,"qps":100.0,"errors":0,"latency_us":{"p50":1,"p90":2,'
        '"p99":3,"p999":4,"max":5}}'
    )
    event = measure.progress_event(line, 4.12345)
    assert event == {
        "t_s": 4.123,
        "phase": "measure",
        "qps": 100.0,
        "requests": 100,
        "errors": 0,
        "latency_us": {"p50": 1, "p90": 2, "p99": 3, "p999": 4, "max": 5},
    }


def test_an_open_loop_run_that_misses_its_rate_is_invalid() -> None:
    base = summary(50_000, {})
    met = base | {"open_loop": {"target_qps": 10_000, "achieved_qps": 9_900.0,
                                "achieved_fraction": 0.99}}  # fmt: skip
    assert measure.judge(met, 0.01, 0.9) is None
    missed = base | {"open_loop": {"target_qps": 100_000, "achieved_qps": 61_000.0,
                                   "achieved_fraction": 0.61}}  # fmt: skip
    reason = measure.judge(missed, 0.01, 0.9)
    assert reason is not None and "61,000 of the 100,000" in reason and "61%" in reason


def test_progress_events_pass_open_loop_digests_and_the_process_profile_through() -> None:
    digest = {"p50": 1, "p90": 2, "p99": 3, "p999": 4, "max": 5}
    procs = {"processes": 1, "threads": 1, "rss_bytes": 4096, "voluntary_ctxt_switches": 7,
             "nonvoluntary_ctxt_switches": 0}  # fmt: skip
    line = {"phase": "measure", "qps": 1.0, "requests": 1, "errors": 0, "latency_us": digest,
            "latency_actual_us": digest, "send_lag_us": digest, "idle_dropped": 2,
            "procs": procs}  # fmt: skip
    event = measure.progress_event(line, 1.0)
    assert event["send_lag_us"] == digest and event["latency_actual_us"] == digest
    assert event["idle_dropped"] == 2 and event["procs"] == procs
    closed = measure.progress_event(line | {"latency_actual_us": None, "idle_dropped": 0}, 1.0)
    assert "latency_actual_us" not in closed and "idle_dropped" not in closed


def outcome(repetition: int, qps: float, p99: int, valid: bool = True) -> dict:  # type: ignore[type-arg]
    return {
        "repetition": repetition,
        "summary": {"qps": qps, "latency_us": {"p99": p99}},
        "server": {"cpu_percent_mean": 90.0},
        "valid": valid,
        "invalid_reason": None if valid else "too many errors",
    }


def test_repetitions_combine_into_median_spread_and_a_noisy_flag() -> None:
    combined = measure.combine([outcome(1, 100.0, 30), outcome(2, 120.0, 10),
                                outcome(3, 105.0, 20)], 0.10)  # fmt: skip
    agg = combined["aggregate"]
    assert combined["summary"]["qps"] == 105.0 and agg["median_repetition"] == 3
    assert agg["qps"] == {"median": 105.0, "min": 100.0, "max": 120.0, "spread": 0.1905}
    assert agg["p99_us"] == {"median": 20.0, "min": 10.0, "max": 30.0}
    assert agg["noisy"] and combined["valid"] and len(combined["repetitions"]) == 3
    quiet = measure.combine([outcome(1, 100.0, 9), outcome(2, 104.0, 9)], 0.10)
    assert not quiet["aggregate"]["noisy"]
    assert not measure.combine([outcome(1, 100.0, 9)], 0.0)["aggregate"]["noisy"]


def test_one_invalid_repetition_makes_the_result_invalid_and_says_which() -> None:
    combined = measure.combine([outcome(1, 100.0, 9), outcome(2, 99.0, 9, valid=False)], 0.1)
    assert not combined["valid"]
    assert combined["invalid_reason"] == "repetition 2 of 2: too many errors"


STRACE_LOG = """c-epoll: listening on 0.0.0.0:9000 protocol=echo trigger=lt
c-epoll: SIGTERM received: closed 0 connections (101 accepted in all), exiting
% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 52.10    0.120000           1    100000           write
 40.00    0.092000           0    100000           read
  7.80    0.018000           0     50000           epoll_wait
  0.10    0.000230           2       101         1 accept4
------ ----------- ----------- --------- --------- ----------------
100.00    0.230230           0    250101         1 total""".splitlines()


def test_the_strace_table_is_read_and_divided_by_requests() -> None:
    table = measure.parse_strace(STRACE_LOG)
    assert table is not None
    assert table["total"] == {"syscall": "total", "calls": 250101, "errors": 1,
                              "seconds": 0.23023, "percent_time": 100.0}  # fmt: skip
    assert [r["syscall"] for r in table["rows"]] == ["write", "read", "epoll_wait", "accept4"]
    assert table["rows"][3]["errors"] == 1 and table["rows"][0]["errors"] == 0
    profile = measure.per_request(table, 100_000)
    assert profile["calls_per_request"] == 2.501
    assert profile["rows"][2] | {} == table["rows"][2] | {"per_request": 0.5}
    assert measure.parse_strace(["no table here"]) is None
    assert measure.parse_strace(STRACE_LOG[:-1]) is None  # cut before the total: incomplete


def test_judge_rejects_connections_starved_through_the_whole_measurement() -> None:
    reason = measure.judge(summary(50_000, {}) | {"starved": 9}, 0.01)
    assert reason is not None and reason.startswith("9 connections got no reply")
    assert measure.judge(summary(50_000, {}) | {"starved": 0}, 0.01) is None
