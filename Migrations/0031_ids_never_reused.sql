-- A row's id is never given to another once the row is deleted: a client that still holds the id of an ended session,
-- a removed webhook or team, a deleted holiday calendar or a purged outbox message must not end, change or read a new
-- one. SQLite gives an INTEGER PRIMARY KEY the largest id plus one, so deleting the newest row freed its id; with
-- AUTOINCREMENT it keeps counting (sqlite_sequence). The ids deleted above the largest one kept before this migration
-- are not known and may still come back once. PostgreSQL's identity columns never reuse an id.
-- legacy_alter_table: renaming a copy must not re-check the triggers of other tables.
PRAGMA legacy_alter_table = ON;

CREATE TABLE sessions_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    handle TEXT UNIQUE,
    refresh_hash BLOB,
    -- The newest access token: a refresh keeps it (requests may be under way with it) and ends the older ones.
    access_hash BLOB,
    created_at TEXT NOT NULL,
    last_used_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    user_agent TEXT,
    device_name TEXT
);
INSERT INTO sessions_new SELECT id, employee_id, handle, refresh_hash, access_hash, created_at, last_used_at, expires_at,
    user_agent, device_name FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_new RENAME TO sessions;
CREATE INDEX sessions_employee ON sessions(employee_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

CREATE TABLE webhooks_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    url TEXT NOT NULL,
    -- Event names separated by single spaces, e.g. 'holiday.requested holiday.approved'.
    events TEXT NOT NULL CHECK (events <> ''),
    format TEXT NOT NULL DEFAULT 'standard' CHECK (format IN ('standard', 'slack')),
    -- 'whsec_' and the base64 of the signing key (Standard Webhooks).
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    -- Set when the endpoint answered 410 Gone.
    disabled_at TEXT,
    disabled_reason TEXT,
    private_details INTEGER NOT NULL DEFAULT 0 CHECK (private_details IN (0, 1))
);
INSERT INTO webhooks_new SELECT id, url, events, format, secret, created_at, disabled_at, disabled_reason, private_details
FROM webhooks;
DROP TABLE webhooks;
ALTER TABLE webhooks_new RENAME TO webhooks;

CREATE TABLE outbox_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel TEXT NOT NULL CHECK (channel = 'email' OR channel = 'webhook' OR channel = 'push'),
    event TEXT NOT NULL,
    employee_id INTEGER REFERENCES employees(id),
    -- No foreign key: a removed subscription's messages stay for inspection.
    webhook_id INTEGER,
    -- An e-mail address, a URL, or a device's token (push).
    address TEXT NOT NULL,
    recipient_name TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL,
    dedupe_key TEXT UNIQUE,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status = 'pending' OR status = 'sent' OR status = 'dead'),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    give_up_at TEXT NOT NULL,
    lease_owner TEXT,
    lease_until TEXT,
    sent_at TEXT,
    last_error TEXT
);
INSERT INTO outbox_new SELECT id, channel, event, employee_id, webhook_id, address, recipient_name, subject, body,
    dedupe_key, status, attempts, created_at, next_attempt_at, give_up_at, lease_owner, lease_until, sent_at, last_error
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_status ON outbox(status, id);

CREATE TABLE teams_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 60),
    -- Two-stage approval: an approver's approval makes a request 'approved-by-manager', an admin's makes it approved.
    two_stage INTEGER NOT NULL DEFAULT 0 CHECK (two_stage IN (0, 1))
);
INSERT INTO teams_new SELECT id, name, two_stage FROM teams;
DROP TABLE teams;
ALTER TABLE teams_new RENAME TO teams;
CREATE TRIGGER view_changes_team_delete AFTER DELETE ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_insert AFTER INSERT ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_update AFTER UPDATE ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;

CREATE TABLE holiday_calendars_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 60)
);
INSERT INTO holiday_calendars_new SELECT id, name FROM holiday_calendars;
DROP TABLE holiday_calendars;
ALTER TABLE holiday_calendars_new RENAME TO holiday_calendars;
CREATE TRIGGER view_changes_calendar_delete AFTER DELETE ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_calendar_insert AFTER INSERT ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_calendar_update AFTER UPDATE ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;

PRAGMA legacy_alter_table = OFF;
