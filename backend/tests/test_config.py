import pytest
from pydantic import ValidationError

from c10klab.config import Settings, parse_cpus


def test_cpu_lists_are_parsed() -> None:
    assert parse_cpus("0") == {0}
    assert parse_cpus("0,2-4") == {0, 2, 3, 4}


def test_overlapping_cpus_are_refused() -> None:
    with pytest.raises(ValidationError, match="overlap"):
        Settings(server_cpus="0-1", loadgen_cpus="1")


def test_long_runs_are_refused_in_production_only() -> None:
    Settings(env="development", max_duration_s=300)
    with pytest.raises(ValidationError, match="C10K_MAX_DURATION_S"):
        Settings(env="production", max_duration_s=300)


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("C10K_MAX_CONNECTIONS", "500")
    assert Settings().max_connections == 500
