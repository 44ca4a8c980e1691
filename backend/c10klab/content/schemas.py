from pydantic import BaseModel, ConfigDict, Field


class FrontMatter(BaseModel):
    """The YAML header every lesson starts with."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    summary: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=240)
    order: int = Field(ge=1)
    prerequisites: list[str] = []


class LessonSummary(BaseModel):
    slug: str
    title: str
    summary: str
    minutes: int
    order: int


class LessonLink(BaseModel):
    slug: str
    title: str


class Lesson(LessonSummary):
    prerequisites: list[str]
    markdown: str
    prev: LessonLink | None
    next: LessonLink | None
