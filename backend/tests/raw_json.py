"""Request bodies sent as JSON text, as any client may send them: what json.dumps would not
write (NaN, Infinity, a document cut short), for tests of what the API refuses, and in which
words."""

from typing import Any

from fastapi.testclient import TestClient

JSON = {"content-type": "application/json"}


def refused(client: TestClient, path: str, body: str | bytes) -> dict[str, Any]:
    """POST `body` to `path` as JSON, which the API must refuse (422): the Problem it answers."""
    answer = client.post(path, content=body, headers=JSON)
    assert answer.status_code == 422, answer.text
    problem: dict[str, Any] = answer.json()
    return problem
