"""Every field of a run as the lab's form shows it. What each field means (its help), its type,
default and lower bound come from RunRequest itself; this module adds only what a form needs
besides (a label and a unit) and this host's upper limits from the settings, so the form can
never offer what POST /api/runs would refuse."""

from typing import Any, Literal, get_args

import annotated_types
from pydantic.fields import FieldInfo

from c10klab.config import Settings
from c10klab.lab.schemas import LabFields, RunField
from c10klab.runs.schemas import RunRequest
from c10klab.runs.service import PROFILE_MOST_REPETITIONS
from c10klab.sweeps.schemas import Varied

# (label, unit of one, unit of several), in the order the form lists them. The fields not
# here are set another way: the server(s) are picked, knobs come from the catalog,
# lesson/experiment tag a lesson's runs, and variant/check_only come from the editor.
PRESENTATION: dict[str, tuple[str, str | None, str | None]] = {
    "protocol": ("Protocol", None, None),
    "connections": ("Connections", "connection", "connections"),
    "payload_bytes": ("Payload", "byte", "bytes"),
    "duration_s": ("Duration", "s", "s"),
    "warmup_s": ("Warm-up", "s", "s"),
    "rate": ("Open-loop rate", "request/s", "requests/s"),
    "idle_connections": ("Idle connections", "connection", "connections"),
    "new_connection_per_request": ("New connection per request", None, None),
    "ramp_s": ("Ramp", "s", "s"),
    "repetitions": ("Repetitions", "repetition", "repetitions"),
    "profile": ("Profile", None, None),
}
NOT_IN_FORM = {"server", "knobs", "lesson", "experiment", "variant", "check_only"}
SWEEP_SERVERS = 12  # SweepRequest.servers' max_length


def host_maxima(settings: Settings) -> dict[str, float]:
    """The most each field may be on this host (service.validate_request says why)."""
    return {
        "connections": settings.max_connections,
        "idle_connections": settings.max_connections - 1,
        "payload_bytes": settings.max_payload_bytes,
        "duration_s": settings.max_duration_s,
        "warmup_s": settings.max_warmup_s,
        "ramp_s": settings.max_warmup_s,
        "repetitions": settings.max_repetitions,
    }


def _bounds(info: FieldInfo) -> tuple[float | None, bool, float | None]:
    """(min, min excluded, max) as the model's own constraints say."""
    low, exclusive, high = None, False, None
    for rule in info.metadata:
        if isinstance(rule, annotated_types.Ge):
            low = float(rule.ge)  # type: ignore[arg-type]
        elif isinstance(rule, annotated_types.Gt):
            low, exclusive = float(rule.gt), True  # type: ignore[arg-type]
        elif isinstance(rule, annotated_types.Le):
            high = float(rule.le)  # type: ignore[arg-type]
    return low, exclusive, high


def _kind(info: FieldInfo) -> tuple[Literal["int", "float", "bool", "choice"], list[str] | None]:
    annotation: Any = info.annotation
    if annotation is bool:
        return "bool", None
    if annotation is int:
        return "int", None
    if annotation is float:
        return "float", None
    return "choice", [str(choice) for choice in get_args(annotation)]


def run_field(name: str, settings: Settings) -> RunField:
    info = RunRequest.model_fields[name]
    label, unit, units = PRESENTATION[name]
    low, exclusive, high = _bounds(info)
    kind, choices = _kind(info)
    host_max = host_maxima(settings).get(name)
    if host_max is not None:
        high = host_max if high is None else min(high, host_max)
    return RunField(
        name=name,
        label=label,
        help=info.description or label,
        kind=kind,
        unit=unit,
        units=units,
        min=low,
        min_exclusive=exclusive,
        max=high,
        default=info.default,
        choices=choices,
        sweepable=name in get_args(Varied),
    )


def lab_fields(settings: Settings) -> LabFields:
    return LabFields(
        fields=[run_field(name, settings) for name in PRESENTATION],
        max_sweep_points=settings.max_sweep_points,
        max_sweep_servers=SWEEP_SERVERS,
        # The limits service.validate_request applies across fields, sent so that the form
        # checks them before Run rather than learn them from a refusal.
        max_total_connections=settings.max_connections,
        profile_max_repetitions=PROFILE_MOST_REPETITIONS,
    )
