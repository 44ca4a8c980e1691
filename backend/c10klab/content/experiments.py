"""A lesson's ```experiment block as the request it stands for: the one definition of it.

A run block's keys are exactly POST /api/runs's body (plus an optional `title`); a series block
has `servers:` instead of `server:`, optionally `vary:` with `values:`, and is one POST
/api/sweeps. GET /api/lessons/{slug} sends each block parsed here, so the widgets post what the
backend computed; the content checker and the baseline recorder use the same functions.
"""

import hashlib
import json
from typing import Any

import yaml
from pydantic import ValidationError

from c10klab.runs.schemas import RunRequest
from c10klab.sweeps.schemas import SweepRequest

# What the experiment widget and the prose read besides the request itself: its title, and
# its `id`, which the prose's figure references name (content/figures.py) and which a lesson's
# translation keeps. Neither changes what runs, so neither calls for a new recording.
WIDGET_ONLY_KEYS = {"title", "id"}
# A series experiment: several servers and/or one parameter over several values (a sweep).
SERIES_KEYS = {"servers", "vary", "values", "total_connections", "within"}


class _UniqueKeys(yaml.SafeLoader):
    """YAML's safe loader refusing a key given twice (the plain one keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[object] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"`{key}` is given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def block_fields(source: str) -> dict[str, Any]:
    """The block's YAML mapping; ValueError saying what is wrong otherwise."""
    if not source.strip():
        raise ValueError("the block is empty: it needs at least `server: <id>`")
    try:
        spec = yaml.load(source, Loader=_UniqueKeys)
    except yaml.YAMLError as exc:
        raise ValueError(f"not valid YAML: {exc}") from exc
    if not isinstance(spec, dict):
        raise ValueError("must be a YAML mapping of keys to values")
    return spec


def series_request(spec: dict[str, Any]) -> SweepRequest:
    """A series experiment (`servers:`, optionally `vary:` and `values:`) as its sweep:
    several servers without `vary` are one point each at their `connections`."""
    base = {k: v for k, v in spec.items() if k not in WIDGET_ONLY_KEYS | SERIES_KEYS}
    vary = spec.get("vary", "connections")
    values = spec.get("values")
    if values is None:
        if "vary" in spec:
            raise ValueError("`vary` needs `values`: the list of values to run")
        values = [base.pop("connections", RunRequest.model_fields["connections"].default)]
    elif "vary" not in spec:
        raise ValueError("`values` needs `vary`: the parameter they set")
    return SweepRequest(
        servers=spec["servers"],
        vary=vary,
        values=values,
        base=base,
        total_connections=spec.get("total_connections"),
        within=spec.get("within"),
    )


def run_request(spec: dict[str, Any]) -> RunRequest:
    if SERIES_KEYS & set(spec):
        raise ValueError("`vary` and `values` need `servers:` (a list, even of one)")
    return RunRequest.model_validate({k: v for k, v in spec.items() if k not in WIDGET_ONLY_KEYS})


def parse_block(source: str) -> RunRequest | SweepRequest:
    """The block's request, before the catalog's and the host's limits (the content checker
    applies those); ValueError with every problem in a sentence otherwise."""
    spec = block_fields(source)
    try:
        if "servers" in spec:
            if "server" in spec:
                raise ValueError("has both `server` and `servers`: use one")
            return series_request(spec)
        return run_request(spec)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
        )
        raise ValueError(problems) from exc


def request_key(request: RunRequest | SweepRequest) -> str:
    """What a block asks the runner for, as a key: a recording belongs to this, so a block's
    title can change, or be translated, and keep its recording (the first 12 hex digits of the
    SHA-256 of the request's JSON with its keys sorted). Fields left at their defaults are left
    out, so a field the API gains later, with a default, changes no key."""
    kind = "series" if isinstance(request, SweepRequest) else "run"
    text = kind + json.dumps(request.model_dump(mode="json", exclude_defaults=True), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:12]
