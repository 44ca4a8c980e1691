"""A lesson's experiment block as its request: the one definition the widgets, the checker
and the baseline recorder share (they were the frontend's experiment-block tests)."""

import pytest

from c10klab.content.experiments import parse_block
from c10klab.content.service import read_experiments
from c10klab.runs.schemas import RunRequest
from c10klab.sweeps.schemas import SweepRequest

VALID = "server: c-epoll\nconnections: 100\npayload_bytes: 64\nduration_s: 5\nwarmup_s: 1\n"


def test_a_run_block_is_the_post_api_runs_body() -> None:
    request = parse_block(VALID + "protocol: echo")
    assert isinstance(request, RunRequest)
    assert request.model_dump(exclude_unset=True) == {
        "server": "c-epoll",
        "connections": 100,
        "payload_bytes": 64,
        "duration_s": 5,
        "warmup_s": 1,
        "protocol": "echo",
    }


def test_the_title_stays_out_of_the_request_and_knobs_go_in() -> None:
    request = parse_block(
        "title: Edge\nserver: c-epoll\nknobs:\n  trigger: et\n  buffer_bytes: 4096"
    )
    assert isinstance(request, RunRequest)
    assert request.model_dump(exclude_unset=True) == {
        "server": "c-epoll",
        "knobs": {"trigger": "et", "buffer_bytes": 4096},
    }


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("", "empty"),
        ("server: [c-epoll", "not valid YAML"),
        ("server: c-epoll\nserver: c-poll", "`server` is given twice"),
        ("- server: c-epoll", "mapping"),
        ("connections: 10", "server: Field required"),
        ("server: c-epoll\nconections: 10", "conections: Extra inputs are not permitted"),
        ("server: c-epoll\nconnections: -5", "connections: Input should be greater than"),
        ("server: c-epoll\nconnections: 2.5", "connections: Input should be a valid integer"),
        ("server: c-epoll\nprotocol: gopher", "protocol: Input should be 'echo' or 'http'"),
        ("server: c-epoll\nknobs: [1, 2]", "knobs: Input should be a valid dictionary"),
        ("server: c-epoll\nservers: [c-poll]", "both `server` and `servers`"),
        ("server: c-epoll\nvary: rate\nvalues: [1]", "need `servers:`"),
        ("servers: [c-epoll]\nvary: rate", "`vary` needs `values`"),
        ("servers: [c-epoll]\nvalues: [1, 2]", "`values` needs `vary`"),
        ("servers: [c-epoll]\nvary: rate\nvalues: [1]\nrate: 5", "`rate` is set by the sweep"),
    ],
)
def test_a_bad_block_says_what_is_wrong(source: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_block(source)


def test_a_series_without_vary_is_one_point_per_server_at_its_connections() -> None:
    sweep = parse_block("servers: [c-poll, c-epoll]\nconnections: 10\nduration_s: 3")
    assert isinstance(sweep, SweepRequest)
    assert (sweep.servers, sweep.vary, sweep.values) == (["c-poll", "c-epoll"], "connections", [10])
    # As sent back: only what the block gave, so the request is accepted again as it is.
    assert sweep.model_dump(exclude_none=True) == {
        "servers": ["c-poll", "c-epoll"],
        "vary": "connections",
        "values": [10],
        "base": {"duration_s": 3},
    }
    assert SweepRequest.model_validate(sweep.model_dump()) == sweep


def test_a_series_with_vary_takes_its_values() -> None:
    sweep = parse_block(
        "servers: [c-epoll]\nvary: idle_connections\nvalues: [0, 1000]\nconnections: 10"
    )
    assert isinstance(sweep, SweepRequest)
    assert (sweep.vary, sweep.values) == ("idle_connections", [0, 1000])
    assert sweep.base.model_dump(exclude_unset=True) == {"connections": 10}


def test_a_lesson_lists_each_block_parsed_or_with_its_error() -> None:
    markdown = (
        "```experiment\ntitle: One\nserver: c-epoll\n```\n\n"
        "```experiment\nservers: [c-epoll]\nvary: rate\n```\n"
    )
    good, bad = read_experiments(markdown)
    assert (good.kind, good.title, good.error) == ("run", "One", None)
    assert good.run is not None and good.run.server == "c-epoll" and good.sweep is None
    assert bad.kind == "series" and bad.run is None and bad.sweep is None
    assert bad.error == (
        "The experiment block is invalid: `vary` needs `values`: the list of values to run"
    )
