"""Domain errors, and the one place that maps them (and request validation) to HTTP answers.

Every refusal is a 4xx whose `detail` says what to send instead: 404 for what does not exist,
409 for what the present state refuses (a full class), 415 for a body that is not JSON
(http_guards.py), 422 for input that is, but is wrong, 429 past a limit (a full queue, too many
logins or joins). A 5xx is a bug.

Beside its English `detail`, each refusal carries a `code` and the `params` of its sentence
(a Phrase, declared where it is raised), so the interface says it in the reader's language:
the frontend's `errors` strings are keyed by these codes, and the OpenAPI document lists every
code with its params, so a code the interface cannot word fails its tests.
"""

import math
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

# How much of a rejected input a message echoes back: enough to recognise it.
SHOWN_CHARS = 60
FINITE = (
    "send a finite number such as 10 (JSON has no NaN or Infinity, and a number past "
    "±1.8e308 reads as Infinity)"
)


# A sentence's parameter: what the reader's language puts into its own wording.
Param = str | int | float


class Moment(str):
    """A time in a sentence: ISO 8601 in its params (the interface writes it in the reader's
    locale and time zone), minutes and UTC in the English."""

    def __format__(self, spec: str) -> str:
        return f"{self[:16].replace('T', ' ')} UTC"


@dataclass(frozen=True)
class Message:
    """One sentence the API said: its code, its params, and the English made of them."""

    code: str
    params: Mapping[str, Param]
    text: str


class Phrase:
    """A sentence the API may say, with a stable code. Declared once, where it is raised:
    `NO_LESSON = Phrase("no-lesson", "no lesson {slug!r}; GET /api/lessons lists them")`,
    then `raise NotFound(NO_LESSON(slug=slug))`. Its params are the template's fields, each
    given exactly (a missing or extra one is a bug, caught where it is said)."""

    every: ClassVar[dict[str, "Phrase"]] = {}
    english: str  # declared here: __init__ reads another phrase's before setting its own

    def __init__(self, code: str, english: str) -> None:
        if code in Phrase.every and Phrase.every[code].english != english:
            raise ValueError(f"two phrases share the code {code!r}")
        self.code = code
        self.english = english
        self.params = tuple(
            dict.fromkeys(f for _, f, _, _ in string.Formatter().parse(english) if f)
        )
        Phrase.every[code] = self

    def __call__(self, **params: Param) -> Message:
        if set(params) != set(self.params):
            raise TypeError(f"{self.code}: give {self.params}, not {tuple(params)}")
        return Message(self.code, params, self.english.format(**params))


# The two the API's frame says itself: input that failed validation (each failed check is in
# `errors`, for the interface to word one by one), and an HTTP refusal of Starlette's own
# (a method an operation does not take).
INVALID_INPUT = Phrase("invalid-input", "{problems}")
HTTP_REFUSAL = Phrase("http-refusal", "{status} {reason}")


class Problem(BaseModel):
    """The body of every refusal (4xx), whichever part of the API refused: documented for
    every operation (openapi.py) and checked against it by the fuzz."""

    detail: str = Field(min_length=1, description="what was wrong, and what to send instead")
    code: str = Field(
        min_length=1, description="the sentence's code: the interface words it by this"
    )
    params: dict[str, Param] = Field(
        default_factory=dict, description="the values the sentence's wording puts in"
    )
    errors: list[dict[str, Any]] | None = Field(
        None, description="a 422's failed checks as pydantic lists them, one per field"
    )


def problem(message: Message, **extra: Any) -> dict[str, Any]:
    """A Problem's JSON body for `message`."""
    return {
        "detail": message.text,
        "code": message.code,
        "params": {k: jsonable(v) for k, v in message.params.items()},
        **extra,
    }


class DomainError(Exception):
    """An error a person can act on; `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, said: Message) -> None:
        super().__init__(said.text)
        self.said = said
        self.headers: dict[str, str] = {}

    @property
    def message(self) -> str:
        """The English of what was said."""
        return self.said.text


class NotFound(DomainError):
    status = 404


class InvalidRequest(DomainError):
    status = 422


class Unauthenticated(DomainError):
    """No valid session: log in (an instructor) or join the class (a student)."""

    status = 401


class Forbidden(DomainError):
    status = 403


class Conflict(DomainError):
    """Well formed, but what it asks for cannot happen now: a class that is full."""

    status = 409


class Gone(DomainError):
    status = 410


class TooManyRequests(DomainError):
    """Past a limit for now; `Retry-After` says when trying again makes sense."""

    status = 429

    def __init__(self, said: Message, retry_after_s: int) -> None:
        super().__init__(said)
        self.retry_after_s = retry_after_s
        self.headers["Retry-After"] = str(retry_after_s)


class QueueFull(TooManyRequests):
    """The site's or a person's queue limit."""


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """`text` cut to `limit` characters, marked with … when cut, and encodable (a lone
    surrogate shown as its escape): for echoing input back."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: object) -> str:
    """repr() of a rejected value, short, and safe for anything: NaN, bytes, a 5,000-digit int."""
    try:
        text = repr(value)
    except ValueError:  # an int past Python's int→str digit limit
        text = "a number with thousands of digits"
    return shorten(text)


def jsonable(value: object) -> Any:
    """`value` as plain JSON that the strict encoder takes: non-finite floats, bytes and
    unknown objects become short strings, so an error report about bad input cannot fail."""
    if value is None or isinstance(value, bool | str):
        return shorten(value, 200) if isinstance(value, str) else value
    if isinstance(value, int):
        return value if abs(value) < 2**63 else shown(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else shown(value)
    if isinstance(value, Mapping):
        return {shorten(str(k), 200): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return shown(value)


def _field(loc: Iterable[Any]) -> str:
    loc = list(loc)
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or ("body" if loc[:1] == ["body"] else "request")


def _sentence_case(message: str) -> str:
    """`Input should be …` → `input should be …`, leaving `JSON …` alone."""
    if len(message) > 1 and message[1].isupper():
        return message
    return message[:1].lower() + message[1:]


def describe_errors(errors: Iterable[Mapping[str, Any]]) -> str:
    """One readable sentence per problem, e.g. `connections: must be at most 19000 (got 50000)`.
    `errors` are pydantic's (ValidationError.errors() or RequestValidationError.errors())."""
    problems = []
    for err in errors:
        kind = err.get("type")
        loc = list(err.get("loc", ()))
        got = err.get("input")
        ctx = err.get("ctx") or {}
        if kind == "json_invalid":
            at = f" at character {loc[-1]}" if loc and isinstance(loc[-1], int) else ""
            reason = shorten(str(ctx.get("error", "")).lower(), 80)
            problems.append(f"body: not valid JSON{at} ({reason}); send a JSON object")
            continue
        if kind == "finite_number":
            # A nested field (base.duration_s) names itself in ctx; see sweeps.schemas.
            field = ".".join([_field(loc), *([str(ctx["field"])] if "field" in ctx else [])])
            problems.append(f"{field}: got {shown(ctx.get('value', got))}; {FINITE}")
            continue
        message = _sentence_case(str(err.get("msg", "is invalid")))
        echoed = kind != "missing" and not isinstance(got, Mapping)
        suffix = f" (got {shown(got)})" if echoed else ""
        problems.append(f"{_field(loc)}: {message}{suffix}")
    return "; ".join(problems)


def describe_validation_error(exc: RequestValidationError) -> str:
    return describe_errors(exc.errors())


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content=problem(exc.said), headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        said = INVALID_INPUT(problems=describe_validation_error(exc))
        return JSONResponse(status_code=422, content=problem(said, errors=jsonable(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def http_refusal(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        said = HTTP_REFUSAL(status=exc.status_code, reason=str(exc.detail))
        return JSONResponse(status_code=exc.status_code, content=problem(said), headers=exc.headers)
