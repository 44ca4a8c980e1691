"""Server-Sent Events, one way for every resumable stream (a run's events, a sweep's points).

FastAPI's own implementation frames them (`response_class=EventSourceResponse` on a path
operation that yields), sends a keep-alive comment after 15 s of silence and the `no-cache` and
`X-Accel-Buffering: no` headers. What is ours: events are numbered from 1 (the `id:` a browser's
EventSource sends back as `Last-Event-ID` when it reconnects), a stream resumes after the number
given (`resume_after`, below, for both streams), and each stream's events are one pydantic union
of `{"type", "data"}` models, sent as `event: <type>`, `id: <seq>`, `data: <json of data>` and
described in the OpenAPI document (c10klab.openapi).
"""

from typing import Annotated, Any, Protocol

from fastapi import Depends, Header, Query
from fastapi.sse import ServerSentEvent
from pydantic import BaseModel, RootModel

from c10klab.errors import InvalidRequest, Phrase

BAD_EVENT_NUMBER = Phrase(
    "bad-last-event-id", "last_event_id: must be an event number, 0 to {largest} (got {got})"
)
# Past ±(2**63 - 1) the number itself is not echoed: it may have thousands of digits.
HUGE_EVENT_NUMBER = Phrase(
    "huge-last-event-id",
    "last_event_id: must be an event number, 0 to {largest} (got a larger number)",
)
BAD_EVENT_HEADER = Phrase(
    "bad-last-event-id-header",
    "Last-Event-ID: must be an event number, 0 to {largest} (got {got!r})",
)

# How long a browser waits before it reconnects, sent first on every stream.
RETRY = ServerSentEvent(retry=1000)


class Event(Protocol):
    """An event model of a stream: its SSE name and its payload."""

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> BaseModel: ...


def frame(seq: int, event: Event) -> ServerSentEvent:
    return ServerSentEvent(event=event.type, id=str(seq), data=event.data)


def resume_after(last_event_id: str | None, after: int | None) -> int:
    """The event number a stream resumes after: the later of the browser's Last-Event-ID
    header (sent when EventSource reconnects) and the ?last_event_id query parameter. Each
    must be an event number SQLite can compare, 0 to 2**63 - 1 (ASCII digits for the header):
    anything else is refused here, before the stream starts, rather than ending it half-way."""
    largest = 2**63 - 1
    # Said as text: a JavaScript number past 2**53 is rounded, and the interface would misquote it.
    limit = str(largest)
    resume = 0
    if after is not None:
        if not -largest <= after <= largest:
            raise InvalidRequest(HUGE_EVENT_NUMBER(largest=limit))
        if after < 0:
            raise InvalidRequest(BAD_EVENT_NUMBER(largest=limit, got=str(after)))
        resume = after
    if last_event_id:
        # isdigit() alone takes "²" and "٣", which int() then refuses or reads as a digit.
        is_number = last_event_id.isascii() and last_event_id.isdigit()
        if not (is_number and len(last_event_id) <= 64 and int(last_event_id) <= largest):
            got = last_event_id if len(last_event_id) <= 30 else last_event_id[:29] + "…"
            raise InvalidRequest(BAD_EVENT_HEADER(largest=limit, got=got))
        resume = max(resume, int(last_event_id))
    return resume


def resume_point(
    last_event_id: Annotated[str | None, Header()] = None,
    after: Annotated[
        int | None,
        Query(alias="last_event_id", ge=0, description="resume after this event number"),
    ] = None,
) -> int:
    """A dependency, so a bad resume point is a 422 before the stream starts."""
    return resume_after(last_event_id, after)


ResumeDep = Annotated[int, Depends(resume_point)]


# Marks a stream's answer in the document FastAPI makes, for c10klab.openapi to complete.
STREAM_MARK = "x-c10klab-events"


def stream_doc(events: type[RootModel[Any]], what: str) -> dict[int | str, dict[str, Any]]:
    """The `responses` of a stream's path operation: `events` (the union of its event models)
    registered under the stream's media type; c10klab.openapi turns it into the stream's
    `itemSchema`, one entry per event name."""
    return {200: {"model": events, "description": what, STREAM_MARK: True}}
