-- A store made by the course before Alembic (commit f0abaf4's schema), with a little of
-- everything in it: an instructor, a class, a student and her session, a finished run with
-- events, a sweep, a run waiting in a held class, presence, a lesson read, a presentation.
-- Made with that version's own stores, dumped with sqlite3's iterdump(); then the session's
-- expiry was moved to 2100 (it was an hour), so that the test finds it still valid.
BEGIN TRANSACTION;
CREATE TABLE classes (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    join_code TEXT NOT NULL UNIQUE,
    instructor_id TEXT NOT NULL REFERENCES people (id),
    created_at TEXT NOT NULL,
    ended_at TEXT
, ends_at TEXT);
INSERT INTO "classes" VALUES('2b958c737d06d0fb','Systems 101','ABCD-2345','93d3cb1cb32029b62b150325fabd9113','2026-11-25T07:01:50.378+00:00',NULL,'2026-12-01T12:00:00+00:00');
CREATE TABLE events (
    run_id TEXT NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
INSERT INTO "events" VALUES('0f1072d4d68244b7b47529f6529b8252',1,'queued','{"position": 1, "wait_s": 0}','2026-11-25T07:01:50.383+00:00');
INSERT INTO "events" VALUES('0f1072d4d68244b7b47529f6529b8252',2,'progress','{"t": 1, "qps": 1000}','2026-11-25T07:01:50.386+00:00');
INSERT INTO "events" VALUES('0f1072d4d68244b7b47529f6529b8252',3,'done','{"summary": {"qps": 1000}}','2026-11-25T07:01:50.388+00:00');
INSERT INTO "events" VALUES('e18246166dda4b7ab9c711448730cd74',1,'queued','{"position": 1, "wait_s": 0}','2026-11-25T07:01:50.389+00:00');
INSERT INTO "events" VALUES('9e5d8232c51e44559c5bc78aa2c211ee',1,'queued','{"position": 2, "wait_s": 0}','2026-11-25T07:01:50.391+00:00');
INSERT INTO "events" VALUES('e18246166dda4b7ab9c711448730cd74',2,'queued','{"position": null, "wait_s": null, "held": true}','2026-11-25T07:01:50.392+00:00');
INSERT INTO "events" VALUES('9e5d8232c51e44559c5bc78aa2c211ee',2,'queued','{"position": null, "wait_s": null, "held": true}','2026-11-25T07:01:50.392+00:00');
CREATE TABLE held_classes (
    class_id TEXT PRIMARY KEY,
    held_at TEXT NOT NULL
);
INSERT INTO "held_classes" VALUES('2b958c737d06d0fb','2026-11-25T07:01:50.392+00:00');
CREATE TABLE lessons_read (
    person_id TEXT NOT NULL,
    lesson TEXT NOT NULL,
    read_at TEXT NOT NULL,
    PRIMARY KEY (person_id, lesson)
);
INSERT INTO "lessons_read" VALUES('6511477d013eeb8ea63486d7abe2ab90','01-c10k-problem','2026-11-25T07:01:50.397+00:00');
CREATE TABLE login_attempts (
    key TEXT NOT NULL,
    at_unix REAL NOT NULL
);
CREATE TABLE people (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('instructor', 'student')),
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    class_id TEXT REFERENCES classes (id),
    password_hash TEXT,
    created_at TEXT NOT NULL,
    removed_at TEXT
);
INSERT INTO "people" VALUES('93d3cb1cb32029b62b150325fabd9113','instructor','Barbara','barbara',NULL,'$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA','2026-11-25T07:01:50.377+00:00',NULL);
INSERT INTO "people" VALUES('6511477d013eeb8ea63486d7abe2ab90','student','Ana','ana','2b958c737d06d0fb',NULL,'2026-11-25T07:01:50.380+00:00',NULL);
CREATE TABLE presence (
    person_id TEXT PRIMARY KEY,
    streams INTEGER NOT NULL DEFAULT 0,
    seen_unix REAL NOT NULL DEFAULT 0,
    seen_at TEXT,
    lesson TEXT
);
INSERT INTO "presence" VALUES('6511477d013eeb8ea63486d7abe2ab90',1,1.79559011039467334748e+09,'2026-11-25T07:01:50.394+00:00','05-epoll');
CREATE TABLE presentations (
    class_id TEXT PRIMARY KEY,
    lesson TEXT NOT NULL,
    experiment TEXT,
    title TEXT NOT NULL,
    run_id TEXT,
    sweep_id TEXT,
    spotlight_id TEXT,
    started_at TEXT NOT NULL
);
INSERT INTO "presentations" VALUES('2b958c737d06d0fb','05-epoll','exp','Title','0f1072d4d68244b7b47529f6529b8252',NULL,'6511477d013eeb8ea63486d7abe2ab90','2026-11-25T07:00:00.000+00:00');
CREATE TABLE queue_state (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    vclock REAL NOT NULL,
    next_seq INTEGER NOT NULL
);
INSERT INTO "queue_state" VALUES(1,0.0,4);
CREATE TABLE runner_status (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    updated_at REAL NOT NULL,
    data TEXT NOT NULL
);
INSERT INTO "runner_status" VALUES(1,1.79559011039373850825e+09,'{"docker": {"reachable": true}, "images": {}}');
CREATE TABLE runs (
    id TEXT PRIMARY KEY,
    server TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued','running','done','failed','cancelled')),
    request TEXT NOT NULL,
    result TEXT,
    error TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT
, owner_id TEXT NOT NULL DEFAULT 'solo', class_id TEXT, priority INTEGER NOT NULL DEFAULT 0, vstart REAL NOT NULL DEFAULT 0, vfinish REAL NOT NULL DEFAULT 0, expected_s REAL NOT NULL DEFAULT 0, queue_seq INTEGER NOT NULL DEFAULT 0, announced_position INTEGER, created_unix REAL, started_unix REAL, finished_unix REAL, claimed_by TEXT, lease_until REAL);
INSERT INTO "runs" VALUES('0f1072d4d68244b7b47529f6529b8252','c-epoll','done','{"connections": 10, "duration_s": 2}','{"summary": {"qps": 1000}}',NULL,0,'2026-11-25T07:01:50.383+00:00','2026-11-25T07:01:50.385+00:00','2026-11-25T07:01:50.388+00:00','6511477d013eeb8ea63486d7abe2ab90','2b958c737d06d0fb',0,0.0,3.0,3.0,1,1,1.79559011038381242759e+09,1.79559011038557267189e+09,1.79559011038806366918e+09,'lab-1',NULL);
INSERT INTO "runs" VALUES('e18246166dda4b7ab9c711448730cd74','c-epoll','queued','{"connections": 10}',NULL,NULL,0,'2026-11-25T07:01:50.389+00:00',NULL,NULL,'6511477d013eeb8ea63486d7abe2ab90','2b958c737d06d0fb',0,0.0,1.0,1.0,2,0,1.7955901103895032406e+09,NULL,NULL,NULL,NULL);
INSERT INTO "runs" VALUES('9e5d8232c51e44559c5bc78aa2c211ee','c-poll','queued','{"connections": 5}',NULL,NULL,0,'2026-11-25T07:01:50.390+00:00',NULL,NULL,'6511477d013eeb8ea63486d7abe2ab90','2b958c737d06d0fb',0,1.0,2.0,1.0,3,0,1.79559011039097809786e+09,NULL,NULL,NULL,NULL);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    person_id TEXT NOT NULL REFERENCES people (id),
    created_at TEXT NOT NULL,
    expires_unix REAL NOT NULL
);
INSERT INTO "sessions" VALUES('ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff','6511477d013eeb8ea63486d7abe2ab90','2026-11-25T07:01:50.381+00:00',4102444800.0);
CREATE TABLE site_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO "site_secrets" VALUES('session','oQbcQwxmF1TpwkrY2sh2TkJ4YDLt8uR-MITMBpSdMHQ');
CREATE TABLE sweeps (
    id TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    points TEXT NOT NULL,
    created_at TEXT NOT NULL
, owner_id TEXT NOT NULL DEFAULT 'solo', class_id TEXT);
INSERT INTO "sweeps" VALUES('a8049269417c44dd897f810a93d37e8e','{"vary": "connections"}','[{"server": "c-epoll", "value": 10.0, "run_id": "e18246166dda4b7ab9c711448730cd74", "skipped": null}, {"server": "c-poll", "value": 20.0, "run_id": null, "skipped": "too many"}]','2026-11-25T07:01:50.389+00:00','6511477d013eeb8ea63486d7abe2ab90','2b958c737d06d0fb');
CREATE INDEX runs_queue ON runs (status, priority, vstart, queue_seq);
CREATE INDEX runs_by_owner ON runs (owner_id, created_unix);
CREATE INDEX runs_by_class ON runs (class_id, created_at);
CREATE INDEX runs_finished ON runs (status, finished_unix);
CREATE UNIQUE INDEX instructor_names ON people (name_key) WHERE kind = 'instructor';
CREATE INDEX login_attempts_by_key ON login_attempts (key, at_unix);
CREATE UNIQUE INDEX present_student_names ON people (class_id, name_key)
    WHERE kind = 'student' AND removed_at IS NULL;
COMMIT;
