"""The server catalog (sandboxes/catalog.json) as typed models."""

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Knob(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    # What a learner reads (parameter rows, the lab's fields): "thread stack", never "stack_kib".
    label: str = Field(min_length=1)
    flag: str = Field(pattern=r"^--[a-z][a-z0-9-]*$")
    type: Literal["int", "enum", "bool"]
    default: int | str | bool
    help: str
    min: int | None = None
    max: int | None = None
    values: list[str] | None = None
    unit: str | None = None


class Limits(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The most connections a run may ask for (more can be asked of a server than it serves at
    # once: ten clients of an iterative server is a lesson, not a mistake).
    max_connections: int = Field(ge=1)
    # How many connections it serves at the same time with its default knobs (None: all).
    serves_at_once: int | None = Field(None, ge=1)
    # The container's process/thread limit: thread- and process-per-connection need many.
    pids: int = Field(64, ge=8, le=32768)
    # A process or thread per connection: a run's limit is then its connections (active and
    # idle) plus PIDS_HEADROOM, at most `pids`, so a variant that forks without end holds no
    # more of the host's process table than its request needs.
    pids_per_connection: bool = False
    notes: list[str] = []


class Server(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=r"^(c|rust)-[a-z0-9-]+$")
    title: str
    model: str
    language: Literal["c", "rust"]
    source: str
    lesson: str
    image: str
    command: list[str] = Field(min_length=1)
    protocols: list[Literal["echo", "http"]]
    needs_io_uring: bool = False
    knobs: list[Knob] = []
    limits: Limits


class Catalog(BaseModel):
    model_config = ConfigDict(extra="forbid")

    servers: list[Server]

    def get(self, server_id: str) -> Server | None:
        return next((s for s in self.servers if s.id == server_id), None)


class SourceExcerpt(BaseModel):
    path: str
    language: str
    start_line: int
    end_line: int
    text: str
