"""POST /api/variants and runs of variants: what is refused, with what, and who may use a
variant. No runner here: check runs stay queued (the Docker tests build and check them)."""

from pathlib import Path

from fastapi.testclient import TestClient

from c10klab.config import Settings
from c10klab.people.access import owner_seen
from c10klab.people.schemas import Ownership
from c10klab.people.store import PeopleStore, Person
from c10klab.runs.store import RunStore
from c10klab.variants.schemas import MAX_SOURCE_BYTES
from c10klab.variants.store import VariantStore
from tests.people.conftest import Browser, join, log_in, make_class

C_SERVERS = Path(__file__).parents[3] / "sandboxes" / "servers" / "c"
EPOLL = (C_SERVERS / "epoll.c").read_text()


def edited(marker: str = "") -> str:
    return EPOLL + f"\n/* {marker} */\n"


def test_a_variant_is_kept_with_a_queued_check_run(
    client: TestClient, settings: Settings, store: RunStore
) -> None:
    created = client.post("/api/variants", json={"server": "c-epoll", "source": edited()})
    assert created.status_code == 202, created.text
    body = created.json()
    assert body["check"]["status"] == "queued" and body["check"]["position"] == 1

    variant = client.get(f"/api/variants/{body['id']}").json()
    assert variant["file"] == "servers/c/epoll.c"
    assert variant["source"] == edited() and variant["check_run_id"] == body["check"]["id"]
    run = store.get_run(body["check"]["id"])
    assert run is not None and run.server == "c-epoll"
    assert run.request.variant == body["id"] and run.request.check_only is True
    assert [v["id"] for v in client.get("/api/variants").json()] == [body["id"]]
    # A check run measures nothing: it is not in the history of runs.
    assert client.get("/api/history").json() == []


def test_bad_variants_are_refused_with_what_to_do(client: TestClient) -> None:
    cases = [
        ({"server": "c-nope", "source": edited()}, "edit one of c-epoll"),
        ({"server": "rust-tokio", "source": edited()}, "only the C servers can be edited"),
        ({"server": "c-epoll", "source": "x" * (MAX_SOURCE_BYTES + 1)}, "at most 65,536"),
        ({"server": "c-epoll", "source": "  \n"}, "the file is empty"),
        ({"server": "c-epoll", "source": "int x;\0"}, "no NUL characters"),
        ({"server": "c-epoll"}, "source"),
        ({"server": "c-epoll", "source": edited(), "extra": 1}, "extra"),
    ]
    for body, said in cases:
        answer = client.post("/api/variants", json=body)
        assert answer.status_code == 422, (body, answer.text)
        assert said in answer.text, (said, answer.text)
    assert client.get("/api/variants").json() == []


def test_a_run_may_use_only_its_own_variant_of_its_own_server(client: TestClient) -> None:
    variant = client.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()
    run = {"server": "c-epoll", "variant": variant["id"], "duration_s": 2}
    assert client.post("/api/runs", json=run).status_code == 202
    other_server = client.post("/api/runs", json=run | {"server": "c-poll"})
    assert other_server.status_code == 422 and "a variant of c-epoll" in other_server.text
    missing = client.post("/api/runs", json=run | {"variant": "f" * 32})
    assert missing.status_code == 422 and "no variant" in missing.text
    not_c = client.post("/api/runs", json=run | {"server": "rust-tokio"})
    assert not_c.status_code in (403, 422)
    check_alone = client.post("/api/runs", json={"server": "c-epoll", "check_only": True})
    assert check_alone.status_code == 422 and "give the `variant`" in check_alone.text


def test_one_person_has_at_most_a_few_builds_at_once(
    client: TestClient, settings: Settings
) -> None:
    answers = [
        client.post("/api/variants", json={"server": "c-epoll", "source": edited(str(i))})
        for i in range(20)
    ]
    accepted = [a for a in answers if a.status_code == 202]
    refused = [a for a in answers if a.status_code == 429]
    assert len(accepted) == settings.max_builds_per_person
    assert len(refused) == 20 - settings.max_builds_per_person
    assert "builds waiting or under way" in refused[0].text
    assert refused[0].headers["Retry-After"]
    # Nothing of a refused one is kept.
    assert len(client.get("/api/variants").json()) == settings.max_builds_per_person


def test_in_a_class_variants_are_the_owners_and_open_to_classmates(
    browser: Browser, classroom: Settings
) -> None:
    code = make_class(log_in(browser(), "Grace"))
    ada = join(browser(), code, "Ada")
    bob = join(browser(), code, "Bob")
    variant = ada.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()

    seen = bob.get(f"/api/variants/{variant['id']}")
    assert seen.status_code == 200 and seen.json()["source"] == edited()
    assert bob.get("/api/variants").json() == []
    used = bob.post("/api/runs", json={"server": "c-epoll", "variant": variant["id"]})
    assert used.status_code == 403 and "someone else's" in used.text
    stranger = join(browser(), make_class(log_in(browser(), "Linus")), "Eve")
    assert stranger.get(f"/api/variants/{variant['id']}").status_code == 403
    assert VariantStore(classroom.store).get(variant["id"]) is not None


def whose(reader: TestClient, variant_id: str) -> dict[str, object]:
    """The variant's `owner`, as `reader` opens it."""
    answer = reader.get(f"/api/variants/{variant_id}")
    assert answer.status_code == 200, answer.text
    owner: dict[str, object] = answer.json()["owner"]
    return owner


MINE = {"mine": True, "name": None, "instructor": False}


def test_a_variant_says_whose_it_is_by_the_name_the_class_knows(browser: Browser) -> None:
    grace, linus = log_in(browser(), "Grace"), log_in(browser(), "Linus")
    code = make_class(grace)
    class_id = grace.get("/api/classes").json()[0]["id"]
    staff = grace.put(f"/api/classes/{class_id}/staff", json={"name": "Linus", "role": "assistant"})
    assert staff.status_code == 200, staff.text
    ada, bob = join(browser(), code, "Ada"), join(browser(), code, "Bob")
    adas, graces, linuses = (
        who.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()["id"]
        for who in (ada, grace, linus)
    )

    # The owner's own, however it is read: one by one, or in their list.
    assert whose(ada, adas) == MINE and whose(grace, graces) == MINE
    assert [v["owner"] for v in ada.get("/api/variants").json()] == [MINE]
    # A classmate, the class's instructor and its staff know a student by name.
    adas_by_name = {"mine": False, "name": "Ada", "instructor": False}
    assert whose(bob, adas) == whose(grace, adas) == whose(linus, adas) == adas_by_name
    # A student knows the class's teachers (its own instructor, its staff) as its instructor.
    instructors = {"mine": False, "name": None, "instructor": True}
    assert whose(ada, graces) == whose(bob, linuses) == instructors


def person_of(client: TestClient, people: PeopleStore) -> Person:
    """Who a browser is, as the store keeps them."""
    person = people.get_person(client.get("/api/auth/me").json()["person"]["id"])
    assert person is not None
    return person


def test_whose_a_variant_is_names_no_one_outside_the_askers_class(
    browser: Browser, people: PeopleStore
) -> None:
    grace, linus = log_in(browser(), "Grace"), log_in(browser(), "Linus")
    ada = join(browser(), make_class(grace), "Ada")
    eve = join(browser(), make_class(linus, "Another class"), "Eve")
    grace_, linus_, ada_, eve_ = (person_of(b, people) for b in (grace, linus, ada, eve))

    nobody = Ownership(mine=False, name=None, instructor=False)
    # Another class's student, an instructor who teaches the asker nothing, no one: nameless.
    assert owner_seen(people, ada_, eve_.id) == nobody
    assert owner_seen(people, grace_, eve_.id) == nobody
    assert owner_seen(people, ada_, linus_.id) == nobody
    assert owner_seen(people, linus_, grace_.id) == nobody
    assert owner_seen(people, ada_, "no-such-person") == nobody
    # Their own class's: a student by name, its instructor as such.
    assert owner_seen(people, grace_, ada_.id).name == "Ada"
    assert owner_seen(people, ada_, grace_.id).instructor is True


def test_an_answer_to_an_exercise_opens_for_its_author_and_instructor_only(
    browser: Browser, classroom: Settings
) -> None:
    grace = log_in(browser(), "Grace")
    code = make_class(grace)
    ada, bob = join(browser(), code, "Ada"), join(browser(), code, "Bob")
    body = {"server": "c-epoll", "source": edited("drained"), "exercise": "et-drain"}
    answer = ada.post("/api/variants", json=body)
    assert answer.status_code == 202, answer.text
    path = f"/api/variants/{answer.json()['id']}"

    assert ada.get(path).json()["source"] == edited("drained")
    assert grace.get(path).json()["source"] == edited("drained")
    copied = bob.get(path)
    assert copied.status_code == 403 and "only its author and their instructor" in copied.text


def test_an_answer_to_an_exercise_on_a_shared_module_edits_that_file(client: TestClient) -> None:
    protocol = (C_SERVERS / "protocol.c").read_text()
    body = {"server": "c-epoll", "source": protocol, "exercise": "sendfile-offset"}
    created = client.post("/api/variants", json=body)
    assert created.status_code == 202, created.text
    answer = client.get(f"/api/variants/{created.json()['id']}").json()
    assert (answer["file"], answer["exercise"]) == ("servers/c/protocol.c", "sendfile-offset")
    # An edit of the model file says so, as before.
    plain = client.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()
    assert client.get(f"/api/variants/{plain['id']}").json()["file"] == "servers/c/epoll.c"


def test_a_sweep_of_rounds_runs_the_original_and_the_variant_once_a_round(
    client: TestClient, store: RunStore
) -> None:
    variant = client.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()
    entry = f"variant:{variant['id']}"
    body = {"servers": ["c-epoll", entry], "vary": "round", "values": [1, 2, 3]}
    created = client.post("/api/sweeps", json=body)
    assert created.status_code == 202, created.text
    sweep = client.get(f"/api/sweeps/{created.json()['id']}").json()
    # each round both, in an order drawn for that round
    assert sorted((p["value"], p["server"]) for p in sweep["points"]) == [
        (float(n), server) for n in (1, 2, 3) for server in ("c-epoll", entry)
    ]
    assert [p["value"] for p in sweep["points"]] == [1, 1, 2, 2, 3, 3]
    runs = {(p["server"], p["value"]): store.get_run(p["run_id"]) for p in sweep["points"]}
    assert all(r is not None and r.server == "c-epoll" for r in runs.values())
    assert {r.request.variant for (s, _), r in runs.items() if r and s == entry} == {variant["id"]}
    assert {r.request.variant for (s, _), r in runs.items() if r and s != entry} == {None}

    for values, said in [
        ([1, 3], "rounds are numbered 1, 2, 3"),
        (list(range(1, 12)), "at most 10"),
    ]:
        answer = client.post("/api/sweeps", json=body | {"values": values})
        assert answer.status_code == 422 and said in answer.text, answer.text
    unknown = client.post(
        "/api/sweeps", json=body | {"servers": ["c-epoll", "variant:" + "a" * 32]}
    )
    assert unknown.status_code == 422 and "no variant" in unknown.text


def test_a_sweep_may_not_use_someone_elses_variant(browser: Browser) -> None:
    code = make_class(log_in(browser(), "Grace"))
    ada = join(browser(), code, "Ada")
    bob = join(browser(), code, "Bob")
    variant = ada.post("/api/variants", json={"server": "c-epoll", "source": edited()}).json()
    body = {"servers": ["c-epoll", f"variant:{variant['id']}"], "vary": "round", "values": [1]}
    answer = bob.post("/api/sweeps", json=body)
    assert answer.status_code == 403 and "someone else's" in answer.text
