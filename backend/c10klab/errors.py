"""Domain errors, and the one place that maps them (and request validation) to HTTP answers."""

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


class DomainError(Exception):
    """An error a person can act on; `status` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(DomainError):
    status = 404


class InvalidRequest(DomainError):
    status = 422


class QueueFull(DomainError):
    status = 429


def _field(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path")]
    return ".".join(parts) or "request"


def describe_validation_error(exc: RequestValidationError) -> str:
    """One readable sentence per problem, e.g. `connections: must be at most 19000 (got 50000)`."""
    problems = []
    for err in exc.errors():
        message = str(err.get("msg", "is invalid"))
        message = message[0].lower() + message[1:] if message else message
        got = err.get("input")
        shown = err.get("type") != "missing" and not isinstance(got, dict)
        suffix = f" (got {got!r})" if shown else ""
        problems.append(f"{_field(tuple(err.get('loc', ())))}: {message}{suffix}")
    return "; ".join(problems)


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def domain_error(_: Request, exc: DomainError) -> JSONResponse:
        return JSONResponse(status_code=exc.status, content={"detail": exc.message})

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(
            status_code=422,
            content={"detail": describe_validation_error(exc), "errors": exc.errors()},
        )
