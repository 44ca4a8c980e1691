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
