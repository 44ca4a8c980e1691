"""GET /api/lab/fields: every run field, labelled, within this host's limits."""

from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.lab.fields import NOT_IN_FORM, PRESENTATION
from c10klab.main import create_app
from c10klab.runs.schemas import RunRequest


def test_every_run_field_is_in_the_form_or_set_another_way() -> None:
    assert set(PRESENTATION) | NOT_IN_FORM == set(RunRequest.model_fields)
    assert not set(PRESENTATION) & NOT_IN_FORM


def test_fields_carry_labels_units_bounds_and_the_hosts_limits(settings: Settings) -> None:
    limited = settings.model_copy(update={"max_connections": 5000, "max_duration_s": 30})
    with TestClient(create_app(limited)) as client:
        answer = client.get("/api/lab/fields")
    assert answer.status_code == 200
    body = answer.json()
    fields = {f["name"]: f for f in body["fields"]}
    connections = fields["connections"]
    assert connections["label"] == "Connections"
    assert (connections["unit"], connections["units"]) == ("connection", "connections")
    assert (connections["min"], connections["max"], connections["default"]) == (1, 5000, 100)
    assert connections["kind"] == "int" and connections["sweepable"] is True
    assert connections["help"] == RunRequest.model_fields["connections"].description
    duration = fields["duration_s"]
    assert duration["min"] == 0 and duration["min_exclusive"] is True and duration["max"] == 30
    assert fields["protocol"]["choices"] == ["echo", "http"]
    assert fields["new_connection_per_request"]["kind"] == "bool"
    assert fields["rate"]["max"] == 10_000_000 and fields["rate"]["sweepable"] is True
    assert fields["profile"]["choices"] == ["throughput", "syscalls", "cpu", "offcpu"]
    assert body["max_sweep_points"] == settings.max_sweep_points
    # The limits across fields the runs service applies, for the form to check before Run.
    assert body["max_total_connections"] == 5000
    assert body["profile_max_repetitions"] == {"syscalls": 1}
    # Nothing raw: every field has a help sentence of its own, not just its label.
    assert all(f["help"] != f["label"] for f in body["fields"])
