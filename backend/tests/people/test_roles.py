"""A class's staff (issue 26.5): its own instructor adds co-teachers and teaching assistants
by their accounts' names; a co-teacher does all but manage the staff, an assistant sees
everything and helps students but changes nothing of the class. On the real store."""

from fastapi.testclient import TestClient

from c10klab.people.service import add_instructor
from c10klab.people.store import PeopleStore
from tests.people.conftest import PASSWORD, Browser, join, log_in, make_class


def _class(grace: TestClient) -> str:
    class_id: str = grace.get("/api/classes").json()[0]["id"]
    return class_id


def test_the_instructor_adds_a_co_teacher_and_an_assistant_who_see_the_class(
    browser: Browser, people: PeopleStore
) -> None:
    add_instructor(people, "Tam", PASSWORD)
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    class_id = _class(grace)
    staff = f"/api/classes/{class_id}/staff"
    assert grace.put(staff, json={"name": "linus", "role": "co-teacher"}).status_code == 200
    assert grace.put(staff, json={"name": "Tam", "role": "assistant"}).json()["role"] == "assistant"
    listed = grace.get(staff).json()
    assert [(s["name"], s["role"]) for s in listed] == [
        ("Grace", "owner"),
        ("Linus", "co-teacher"),
        ("Tam", "assistant"),
    ]
    nobody = grace.put(staff, json={"name": "Nobody", "role": "assistant"})
    assert nobody.status_code == 404 and "instructor add NAME" in nobody.json()["detail"]
    herself = grace.put(staff, json={"name": "Grace", "role": "co-teacher"})
    assert herself.status_code == 422

    linus, tam = log_in(browser(), "Linus"), log_in(browser(), "Tam")
    # Each sees the class among theirs, with their part in it and its join code.
    mine = {c["name"]: c for c in tam.get("/api/classes").json()}
    assert mine["Systems, Tuesday"]["role"] == "assistant"
    assert mine["Systems, Tuesday"]["join_code"].replace("-", "") == code.replace("-", "")
    ada = join(browser(), code, "Ada")
    run_id = ada.post("/api/runs", json={"server": "c-epoll"}).json()["id"]
    for teacher in (linus, tam):
        assert teacher.get(f"/api/classes/{class_id}/roster").status_code == 200
        assert teacher.get(f"/api/runs/{run_id}").status_code == 200
    ada_id = grace.get(f"/api/classes/{class_id}/roster").json()[0]["id"]

    # An assistant helps a student: a new personal code, a cancelled run, a lowered hand...
    assert tam.post(f"/api/classes/{class_id}/students/{ada_id}/personal-code").status_code == 200
    ada.put(f"/api/classes/{class_id}/hand", json={})
    assert tam.delete(f"/api/classes/{class_id}/hands/{ada_id}").status_code == 204
    assert tam.delete(f"/api/runs/{run_id}").status_code == 200
    # ...but changes nothing of the class, and says which role may.
    for method, path in (
        ("post", f"/api/classes/{class_id}/pause"),
        ("delete", f"/api/classes/{class_id}/students/{ada_id}"),
        ("post", f"/api/classes/{class_id}/end"),
        ("put", f"/api/classes/{class_id}/timer"),
    ):
        refused = getattr(tam, method)(
            path, **({"json": {"minutes": 1}} if method == "put" else {})
        )
        assert refused.status_code == 403, (method, path, refused.text)
        assert "you are a teaching assistant of this class" in refused.json()["detail"]
    # A co-teacher does, but only the class's own instructor manages its staff.
    assert linus.post(f"/api/classes/{class_id}/pause").status_code == 200
    assert linus.put(staff, json={"name": "Tam", "role": "co-teacher"}).status_code == 403
    assert grace.delete(f"{staff}/{listed[2]['id']}").status_code == 204
    assert tam.get(f"/api/classes/{class_id}/roster").status_code == 404
    assert ada.put(staff, json={"name": "Tam", "role": "assistant"}).status_code == 403
