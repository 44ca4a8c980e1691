import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints


def _printable(name: str) -> str:
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise ValueError("a name cannot contain tabs, line breaks or other control characters")
    return name


# A display name: 1-40 characters once surrounding space is trimmed, no control characters.
Name = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=40),
    AfterValidator(_printable),
]


class Ownership(BaseModel):
    """Whose a learner's saved work is (an edit of a server), as the asker knows them: their
    own, a classmate's or their student's by the name the class knows, or their instructor's.
    Never a name the asker could not already read (the class's board, its roster)."""

    mine: bool = Field(description="the asker's own: the lab runs only the asker's own edits")
    name: str | None = Field(
        description="someone else's: the name their class knows them by (a classmate's, or "
        "a student's of a class the asker teaches); null for the asker's own, for their "
        "instructor's (`instructor`), and for anyone the asker knows no name of"
    )
    instructor: bool = Field(
        description="someone else's, by a teacher of the asking student's class (its own "
        "instructor or its staff): the class knows them as its instructor, not by name"
    )


class LoginRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="the instructor's name")
    password: str = Field(min_length=1, max_length=1000)


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(
        min_length=1,
        max_length=40,
        description="the join code the instructor shows, e.g. K7QXM-4TPRW",
    )
    name: Name = Field(description="the name the instructor and the class will see")


class ComeBackRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(min_length=1, max_length=40, description="the class's join code")
    personal_code: str = Field(
        min_length=1,
        max_length=40,
        description="the code the student was shown when they joined, e.g. H4KD-P7WQ",
    )


# How long after a class ends its students may read their results.
ResultsDays = Annotated[int, Field(ge=0, le=90)]


class ClassCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description="e.g. 'Systems programming, Tuesday'")
    ends_at: AwareDatetime | None = Field(
        None,
        description="when the class ends by itself (ISO 8601 with a zone, within 14 days); "
        "none: when its instructor ends it",
    )
    results_days: ResultsDays = Field(
        7, description="days after the class ends that its students may still read their results"
    )


class ClassUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    results_days: ResultsDays = Field(
        description="days after the class ends that its students may still read their results"
    )


class ClassOut(BaseModel):
    id: str
    name: str
    join_code: str
    created_at: str
    ends_at: str | None = None
    ended_at: str | None
    results_days: int = 7
    results_until: str | None = Field(
        None, description="an ended class: until when its students may read their results"
    )
    paused: bool = False
    students: int
    role: Literal["owner", "co-teacher", "assistant"] | None = Field(
        None, description="the asking instructor's part in the class; null for a student"
    )


class PersonOut(BaseModel):
    id: str
    kind: Literal["solo", "instructor", "student"]
    name: str
    read_only_until: str | None = Field(
        None,
        description="a student whose class ended: they may read and export their results, "
        "and change nothing, until then",
    )


class SignedOut(BaseModel):
    """Why a browser's session no longer lets its person in."""

    reason: Literal["removed", "results-gone"] = Field(
        description="removed: the instructor removed the student; results-gone: the class "
        "ended, and the days its results were kept have passed"
    )
    class_name: str
    at: str = Field(description="when the student was removed, or the class ended")
    until: str | None = None


class ClassBrief(BaseModel):
    id: str
    name: str


class Me(BaseModel):
    """Who the browser is, in which mode the course runs, and what they may do."""

    mode: Literal["solo", "classroom"]
    person: PersonOut | None = Field(description="null: nobody is logged in or joined")
    class_: ClassBrief | None = Field(
        None, alias="class", description="a student's class; null otherwise"
    )
    signed_out: SignedOut | None = Field(
        None, description="nobody is let in, and this browser's session was someone's: why"
    )

    model_config = ConfigDict(populate_by_name=True)


class Joined(Me):
    """A student who has just joined, with the personal code that brings them back on another
    device: shown now, and never again (their instructor can give them a new one)."""

    personal_code: str


class PersonalCode(BaseModel):
    personal_code: str = Field(
        description="e.g. H4KD-P7WQ; the student's previous one stops working"
    )


class JoinLink(BaseModel):
    url: str
    kind: Literal["public", "browser", "address"] = Field(
        description="public: the address the host's owner set (C10K_PUBLIC_URL); browser: the "
        "one the instructor's browser used; address: one of the host's network addresses"
    )


class JoinLinks(BaseModel):
    """Where students can open the class: show the first link (and its QR code)."""

    links: list[JoinLink] = Field(min_length=1)
    opened_on_host: bool = Field(
        False,
        description="the instructor's browser names the host itself (localhost), so the links "
        "use the host's network addresses instead",
    )
    warning: Literal["listens-on-loopback", "no-network-address"] | None = Field(
        None,
        description="why the link shown could only work on the host itself: the course listens "
        "on 127.0.0.1 only (set C10K_HOST=0.0.0.0), or the host has no network address",
    )


class StaffRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=100, description="an instructor account's name")
    role: Literal["co-teacher", "assistant"] = Field(
        description="co-teacher: everything but managing the staff; assistant: sees "
        "everything, helps students (lowers hands, new personal codes, cancels runs)"
    )


class StaffOut(BaseModel):
    id: str
    name: str
    role: Literal["owner", "co-teacher", "assistant"]
