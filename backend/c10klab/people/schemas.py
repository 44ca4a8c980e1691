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


class ClassCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description="e.g. 'Systems programming, Tuesday'")
    ends_at: AwareDatetime | None = Field(
        None,
        description="when the class ends by itself (ISO 8601 with a zone, within 14 days); "
        "none: when its instructor ends it",
    )


class ClassOut(BaseModel):
    id: str
    name: str
    join_code: str
    created_at: str
    ends_at: str | None = None
    ended_at: str | None
    paused: bool = False
    students: int


class PersonOut(BaseModel):
    id: str
    kind: Literal["solo", "instructor", "student"]
    name: str


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

    model_config = ConfigDict(populate_by_name=True)
