"""Identities that last a class (issue 26): names as typed, a personal code that brings a
student back on another device, Remove that means removed, and an ended class's results kept
read-only for the days its instructor set. On the real store."""

from typing import Any

from fastapi.testclient import TestClient

from tests.people.conftest import Browser, log_in, make_class


def _join(browser: Browser, code: str, name: str) -> tuple[TestClient, dict[str, Any]]:
    client = browser()
    answer = client.post("/api/classes/join", json={"code": code, "name": name})
    assert answer.status_code == 200, answer.text
    return client, answer.json()


def _roster(grace: TestClient, class_id: str) -> dict[str, dict[str, Any]]:
    answer = grace.get(f"/api/classes/{class_id}/roster")
    return {entry["name"]: entry for entry in answer.json()}


def test_a_name_is_kept_as_typed_and_unique_whatever_its_case(browser: Browser) -> None:
    code = make_class(log_in(browser(), "Grace"))
    _, joined = _join(browser, code, "Ken de Vries")
    assert joined["person"]["name"] == "Ken de Vries"
    clash = browser().post("/api/classes/join", json={"code": code, "name": "KEN DE VRIES"})
    assert clash.status_code == 422
    detail = clash.json()["detail"]
    assert "already joined as 'KEN DE VRIES'" in detail and "'Ken de Vries'" in detail
    assert "personal code" in detail  # the way back, if it was them on another device


def test_a_personal_code_brings_a_student_back_on_another_device(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    laptop, joined = _join(browser, code, "Ana")
    personal = str(joined["personal_code"])
    assert len(personal) == 9 and personal[4] == "-"
    assert laptop.put("/api/progress/read/01-c10k-problem").status_code == 200

    phone = browser()
    back = phone.post(
        "/api/classes/come-back", json={"code": code, "personal_code": personal.lower()}
    )
    assert back.status_code == 200, back.text
    assert back.json()["person"]["id"] == joined["person"]["id"]
    assert phone.get("/api/progress").json()["read"] == ["01-c10k-problem"]
    # Both devices are signed in; signing out of one leaves the other.
    assert laptop.post("/api/auth/logout").status_code == 204
    assert phone.get("/api/progress").status_code == 200

    wrong = browser().post(
        "/api/classes/come-back", json={"code": code, "personal_code": "AAAA-AAAA"}
    )
    assert (
        wrong.status_code == 404 and "ask your instructor for a new one" in wrong.json()["detail"]
    )


def test_the_instructor_gives_a_new_personal_code_and_the_old_one_stops(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    class_id = grace.get("/api/classes").json()[0]["id"]
    _, joined = _join(browser, code, "Ana")
    ana_id = joined["person"]["id"]
    student = browser()
    assert (
        student.post(f"/api/classes/{class_id}/students/{ana_id}/personal-code").status_code == 401
    )
    fresh = grace.post(f"/api/classes/{class_id}/students/{ana_id}/personal-code")
    assert fresh.status_code == 200
    new = fresh.json()["personal_code"]
    old = browser().post(
        "/api/classes/come-back", json={"code": code, "personal_code": joined["personal_code"]}
    )
    assert old.status_code == 404
    ok = browser().post("/api/classes/come-back", json={"code": code, "personal_code": new})
    assert ok.status_code == 200
    # Another instructor's class: not theirs to hand out codes for.
    linus = log_in(browser(), "Linus")
    other = linus.post(f"/api/classes/{class_id}/students/{ana_id}/personal-code")
    assert other.status_code == 404


def test_a_removed_student_comes_back_only_when_let_in(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    class_id = grace.get("/api/classes").json()[0]["id"]
    _, joined = _join(browser, code, "Ana")
    ana_id = joined["person"]["id"]
    assert grace.delete(f"/api/classes/{class_id}/students/{ana_id}").status_code == 204

    personal = {"code": code, "personal_code": joined["personal_code"]}
    refused = browser().post("/api/classes/come-back", json=personal)
    assert refused.status_code == 403 and "let you back in" in refused.json()["detail"]
    renamed = browser().post("/api/classes/join", json={"code": code, "name": "ANA"})
    assert renamed.status_code == 409

    assert grace.post(f"/api/classes/{class_id}/students/{ana_id}/readmit").status_code == 204
    assert _roster(grace, class_id)["Ana"]["removed_at"] is None
    back = browser().post("/api/classes/come-back", json=personal)
    assert back.status_code == 200 and back.json()["person"]["id"] == ana_id
    again = grace.post(f"/api/classes/{class_id}/students/{ana_id}/readmit")
    assert again.status_code == 404  # she is in: nothing to let in


def test_an_ended_class_leaves_its_students_their_results_read_only(browser: Browser) -> None:
    grace = log_in(browser(), "Grace")
    made = grace.post("/api/classes", json={"name": "Short", "results_days": 3})
    assert made.status_code == 201 and made.json()["results_days"] == 3
    klass = made.json()
    ana, joined = _join(browser, klass["join_code"], "Ana")
    assert grace.post(f"/api/classes/{klass['id']}/end").status_code == 200

    me = ana.get("/api/auth/me").json()
    assert me["person"]["read_only_until"] is not None
    assert ana.get("/api/runs").status_code == 200
    assert ana.get(f"/api/classes/{klass['id']}/board").status_code == 200
    assert ana.get("/api/progress/results.csv").status_code == 200
    for method, path in (
        ("post", "/api/runs"),
        ("put", "/api/progress/read/01-c10k-problem"),
        ("put", "/api/progress/current"),
    ):
        answer = getattr(ana, method)(path, json={"server": "c-epoll", "lesson": "01-c10k-problem"})
        assert answer.status_code == 403 and "class has ended" in answer.json()["detail"], path
    assert ana.post("/api/auth/logout").status_code == 204
    # On another device, read-only too, with the personal code.
    phone = browser()
    personal = {"code": klass["join_code"], "personal_code": joined["personal_code"]}
    back = phone.post("/api/classes/come-back", json=personal)
    assert back.status_code == 200 and back.json()["person"]["read_only_until"] is not None

    # The instructor shortens the time to none: the results are gone for the students.
    assert grace.patch(f"/api/classes/{klass['id']}", json={"results_days": 0}).status_code == 200
    assert phone.get("/api/runs").status_code == 401
    assert phone.get("/api/auth/me").json()["signed_out"]["reason"] == "results-gone"
    gone = browser().post("/api/classes/come-back", json=personal)
    assert gone.status_code == 410
    bad = grace.patch(f"/api/classes/{klass['id']}", json={"results_days": 91})
    assert bad.status_code == 422 and "results_days" in bad.json()["detail"]
