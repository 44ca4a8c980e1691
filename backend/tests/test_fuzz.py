"""The API under generated input: no request, however malformed, gets a 5xx.

schemathesis reads the app's own /openapi.json and drives the ASGI app in-process (no server,
no runner, no Docker), against a store of the test's own: for each operation, schema-valid and
schema-breaking paths, queries, headers and bodies, and the media-type probes. A 5xx fails the
test; so does a 2xx whose body does not match its documented schema, or a 4xx without a
`detail` sentence. The 422 bodies are not checked against the schema: FastAPI documents its
default `{"detail": [errors]}` where this API answers `{"detail": "sentence", "errors": [...]}`.

The same again in classroom mode, each case sent as every role (anonymous, a student, the
instructor of the class, an instructor of another class), and, where it names a class, again
with the real class's id: the login, join and class endpoints, every ownership check on the
way, and an instructor's views of a class with data in it.

The schema is loaded when the module is collected, from an app with a store in a temporary
directory of the module's own (schemathesis' fixture-based loader does not run under pytest 9).

Generated JSON never holds NaN or Infinity and rarely a 5,000-digit string, and the guards
answer a non-JSON body before validation sees it; so hypothesis tests below aim straight at
what once gave 500s: non-finite numbers anywhere in a run or sweep, any Content-Type and bytes,
and any line range, anchor or path of GET /api/sources.

The two SSE streams are left out of the generic run: a stream of a queued run never ends.
Their one input besides the id, the resume point, is fuzzed below through resume_after() and
on a sweep's stream that has finished, and has explicit cases in tests/runs and tests/sweeps.
"""

import itertools
import json
import math
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error, response_schema_conformance
from schemathesis.python.asgi import ASGIClient, get_client

from c10klab.config import Settings
from c10klab.errors import InvalidRequest
from c10klab.main import create_app
from c10klab.people.service import COOKIE, add_instructor, create_class, issue_session, join
from c10klab.people.store import PeopleStore
from c10klab.runs.schemas import RunRequest
from c10klab.runs.store import RunStore
from c10klab.sandboxes.service import quotable_sources
from c10klab.sse import resume_after
from tests.raw_json import JSON
from tests.results.figures import a_result, checked, done
from tests.runs.leases import claim

# Examples per operation: `make test` draws 50 (a quarter of them in a class, each sent as
# several roles); `make check`, the inner loop, 25 (C10K_FUZZ_EXAMPLES). The fuzz is a third of
# the unit tests' time, so its whole is held to a budget as the API grows: 100 each when it had
# 50 operations, 50 now that it has 71 (3,550 cases a pass, and as many in a class).
EXAMPLES_PER_OPERATION = int(os.environ.get("C10K_FUZZ_EXAMPLES", "50"))
LARGEST_EVENT = 2**63 - 1
# What a header value can hold: printable latin-1 (httpx refuses control characters).
HEADER_TEXT = st.text(
    st.characters(min_codepoint=0x20, max_codepoint=0xFF, exclude_characters="\x7f"),
    max_size=40,
)


STORE_DIR = tempfile.TemporaryDirectory(prefix="c10k-fuzz-")  # removed at exit


def fuzzed_app() -> Any:
    return create_app(Settings(db_path=Path(STORE_DIR.name) / "store.sqlite3"))


FUZZED_APP = fuzzed_app()
fuzzed = schemathesis.openapi.from_asgi("/openapi.json", FUZZED_APP).exclude(path_regex=r"/events$")
fuzzed.config.generation.update(max_examples=EXAMPLES_PER_OPERATION)


def conforms_or_explains(
    ctx: Any, response: schemathesis.Response, case: schemathesis.Case[Any]
) -> None:
    """A 2xx, and a JSON 4xx, match the schema documented for them (a refusal's: a Problem,
    whose `detail` says what was wrong). (A GET of an /api path no route has, which the method
    probes send, is the frontend mount's plain 404.)"""
    refused = "json" in response.headers.get("content-type", [""])[0]
    if response.status_code < 300 or (response.status_code < 500 and refused):
        response_schema_conformance(ctx, response, case)


# What every case is checked for, whoever sends it.
CHECKS: list[schemathesis.CheckFunction] = [not_a_server_error, conforms_or_explains]


def in_process_client(app: Any) -> Iterator[ASGIClient]:
    """One client for every case sent to `app`. Without one, schemathesis makes a `requests`
    session (and its connection pools) for each call, and `requests` reads the proxy and netrc
    settings from the environment for each, settings an app called in-process never sees
    (trust_env=False skips them): about 0.2 ms of CPU a call, a fifth of the test's side of it."""
    with get_client(app) as client:
        client.trust_env = False
        yield client


def send_and_check(
    case: schemathesis.Case[Any], client: ASGIClient, cookies: dict[str, str] | None = None
) -> None:
    """`case` sent through `client`, as the role whose `cookies` are given, and checked. The
    cookies an answer sets (solo mode's browser cookie, a join's or a login's session) are
    dropped after it, as they were with a session per call: no case is sent with another's
    cookies, as a role it was not sent as."""
    try:
        case.call_and_validate(session=client, checks=CHECKS, cookies=cookies)
    finally:
        client.cookies.clear()


@pytest.fixture(scope="module")
def fuzzed_client() -> Iterator[ASGIClient]:
    yield from in_process_client(FUZZED_APP)


@fuzzed.parametrize()
@settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_5xx(case: schemathesis.Case[Any], fuzzed_client: ASGIClient) -> None:
    send_and_check(case, fuzzed_client)


def classroom_with_people() -> tuple[Any, str, dict[str, dict[str, str]]]:
    """A classroom-mode app with a class of Grace's, named in Chinese, with a student, Ada, who
    has a finished run and an edited server whose check passed (each once gave an instructor a
    500), and Linus, an instructor of another class: the app, the class's id and each role's
    cookies (the anonymous role has none)."""
    settings = Settings(mode="classroom", db_path=Path(STORE_DIR.name) / "classroom.sqlite3")
    people = PeopleStore(settings.store)
    grace = add_instructor(people, "Grace", "fuzzing-password")
    linus = add_instructor(people, "Linus", "fuzzing-password")
    klass = create_class(people, grace, "网络编程 一班")
    create_class(people, linus, "Other")
    ada = join(people, settings, klass.join_code, "Ada", "127.0.0.1").student
    app = create_app(settings)
    roles = {
        "anonymous": {},
        "student": {COOKIE: issue_session(people, settings, ada)},
        "instructor of the class": {COOKIE: issue_session(people, settings, grace)},
        "instructor of another class": {COOKIE: issue_session(people, settings, linus)},
    }
    store = RunStore(settings.store)
    with TestClient(app, base_url="http://localhost", cookies=roles["student"]) as student:
        student.post("/api/runs", json={"server": "c-epoll"})
        store.finish(claim(store), "done", done(a_result(150_000.0)))
        source = (settings.sandboxes_dir / "servers" / "c" / "epoll.c").read_text()
        student.post("/api/variants", json={"server": "c-epoll", "source": source})
        check = claim(store)
        passed = {
            "build": {"status": "compiled", "seconds": 1.0},
            "checks": [{"protocol": p, "ok": True} for p in ("echo", "http")],
        }
        store.finish(check, "done", checked(passed))
    return app, klass.id, roles


CLASSROOM_APP, CLASS_ID, ROLES = classroom_with_people()
ROLE_TURNS = itertools.cycle(ROLES.values())
classroom_fuzzed = schemathesis.openapi.from_asgi("/openapi.json", CLASSROOM_APP).exclude(
    path_regex=r"/events$"
)
classroom_fuzzed.config.generation.update(max_examples=EXAMPLES_PER_OPERATION // 4)


@pytest.fixture(scope="module")
def classroom_client() -> Iterator[ASGIClient]:
    yield from in_process_client(CLASSROOM_APP)


@classroom_fuzzed.parametrize()
@settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))
def test_no_input_gets_a_5xx_in_a_class_in_any_role(
    case: schemathesis.Case[Any], classroom_client: ASGIClient
) -> None:
    """Every case as each role. Where it names a class, with the real class's id as each role,
    so the instructor of the class gets past the ownership checks into the class's data; the
    made-up id it was drawn with goes to one role, the roles in turn (no class by that id is
    the same shallow refusal for each, and sending it four times was a third of the fuzz)."""
    if "class_id" not in case.path_parameters:
        sent = [(case, cookies) for cookies in ROLES.values()]
    else:
        ours = case.derive()
        ours.path_parameters["class_id"] = CLASS_ID
        sent = [(case, next(ROLE_TURNS))] + [(ours, cookies) for cookies in ROLES.values()]
    for each, cookies in sent:
        send_and_check(each, classroom_client, cookies)


# Numbers as Python's JSON parser reads them, special ones often: NaN, Infinity (and 1e400,
# see as_json), the edges of SQLite's integers, any float or int.
NUMBERS = (
    st.sampled_from([math.nan, math.inf, -math.inf, 2**63, -(2**63) - 1, 0, -1])
    | st.floats()
    | st.integers()
)
# Any JSON value, with those numbers.
VALUES = st.recursive(
    st.none() | st.booleans() | NUMBERS | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
RUN_FIELDS = sorted(set(RunRequest.model_fields) - {"server"})
# No example database: nothing is written to the work tree (.hypothesis/), and each run draws
# afresh.
SETTINGS = settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)


def as_json(body: dict[str, Any], overflow: bool) -> str:
    """`body` as Python writes JSON (NaN, Infinity); `overflow` spells Infinity as 1e400."""
    text = json.dumps(body)
    return text.replace("Infinity", "1e400") if overflow else text


@given(
    fields=st.dictionaries(st.sampled_from(RUN_FIELDS), VALUES, max_size=4), overflow=st.booleans()
)
@SETTINGS
def test_any_run_request_is_queued_or_refused_with_a_4xx(
    client: TestClient, fields: dict[str, Any], overflow: bool
) -> None:
    body = as_json({"server": "c-epoll"} | fields, overflow)
    answer = client.post("/api/runs", content=body, headers=JSON)
    assert answer.status_code in (202, 422, 429), answer.text
    if answer.status_code == 202:  # what was stored reads back as JSON
        assert client.get(f"/api/runs/{answer.json()['id']}").status_code == 200


@given(
    vary=st.sampled_from(["connections", "idle_connections", "rate", "payload_bytes"]),
    values=st.lists(NUMBERS, min_size=1, max_size=3),
    base=st.dictionaries(st.sampled_from([*RUN_FIELDS, "title"]), VALUES, max_size=4),
    overflow=st.booleans(),
)
@SETTINGS
def test_any_sweep_is_queued_or_refused_with_a_4xx(
    client: TestClient, vary: str, values: list[float], base: dict[str, Any], overflow: bool
) -> None:
    body = as_json({"servers": ["c-epoll"], "vary": vary, "values": values, "base": base}, overflow)
    answer = client.post("/api/sweeps", content=body, headers=JSON)
    assert answer.status_code in (202, 422, 429), answer.text
    if answer.status_code == 202:
        assert client.get(f"/api/sweeps/{answer.json()['id']}").status_code == 200


@given(
    content_type=st.none()
    | st.sampled_from(["text/plain", "application/json", "application/x-www-form-urlencoded"])
    | HEADER_TEXT,
    body=st.binary(max_size=40) | st.just(b'{"server": "c-epoll"}'),
)
@SETTINGS
def test_any_body_and_content_type_get_an_answer_not_a_5xx(
    client: TestClient, content_type: str | None, body: bytes
) -> None:
    headers = {} if content_type is None else {"content-type": content_type.encode("latin-1")}
    answer = client.post("/api/runs", content=body, headers=headers)
    assert answer.status_code in (202, 400, 415, 422, 429), answer.text


QUOTED = sorted(quotable_sources(Settings().sandboxes_dir))


@given(
    path=st.sampled_from(QUOTED) | st.text(max_size=30),
    lines=st.none() | st.from_regex(r"\A[0-9]{1,5000}-[0-9]{1,5000}\Z") | st.text(max_size=12),
    anchor=st.none() | st.text(max_size=30),
)
@SETTINGS
def test_any_source_request_gets_an_excerpt_or_a_4xx(
    client: TestClient, path: str, lines: str | None, anchor: str | None
) -> None:
    params = {k: v for k, v in {"lines": lines, "anchor": anchor}.items() if v is not None}
    answer = client.get(f"/api/sources/{quote(path, safe='/')}", params=params)
    assert answer.status_code in (200, 404, 422), answer.text


@given(header=HEADER_TEXT | st.integers(min_value=-1, max_value=2**70).map(str))
@settings(max_examples=3 * EXAMPLES_PER_OPERATION, database=None)
def test_resume_after_answers_any_header_with_a_number_or_a_422(header: str) -> None:
    try:
        resume = resume_after(header, None)
    except InvalidRequest as refused:
        assert refused.message.startswith("Last-Event-ID: must be an event number")
        assert len(refused.message) < 200
    else:
        assert 0 <= resume <= LARGEST_EVENT and (header == "" or resume == int(header))


@pytest.fixture
def finished_sweep(client: TestClient) -> str:
    body = {"servers": ["c-epoll"], "vary": "connections", "values": [10, 20]}
    sweep_id: str = client.post("/api/sweeps", json=body).json()["id"]
    client.delete(f"/api/sweeps/{sweep_id}")
    return sweep_id


@given(header=HEADER_TEXT, query=st.none() | HEADER_TEXT)
@SETTINGS
def test_a_finished_streams_resume_headers_get_200_or_422(
    client: TestClient, finished_sweep: str, header: str, query: str | None
) -> None:
    params = {} if query is None else {"last_event_id": query}
    answer = client.get(
        f"/api/sweeps/{finished_sweep}/events",
        headers={"Last-Event-ID": header.encode("latin-1")},
        params=params,
    )
    assert answer.status_code in (200, 422), answer.text
