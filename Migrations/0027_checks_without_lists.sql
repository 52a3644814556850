-- SQLite builds a temporary table (a b-tree opened, filled and freed) for an `IN` list of three constants or more at
-- each run of a statement, and CHECK constraints and triggers run with every row they guard: every create and
-- decision paid for one to nine of them (the request's status and its held_days trigger, its event's two statuses,
-- its notice's two, each outbox message's channel and status). The tables that name statuses, channels and platforms
-- so are rebuilt with the same constraints written as comparisons (https://sqlite.org/lang_altertable.html#otheralter,
-- as 0018 did), with their indexes and triggers, and the triggers that list statuses are made again the same way;
-- the migrator runs this with foreign keys off and checks them before committing. PostgreSQL, which compares a list
-- in place, keeps its schema. SchemaTests checks that no such list is left.
-- legacy_alter_table: renaming the copies must not re-check the triggers of other tables that read these tables.
PRAGMA legacy_alter_table = ON;

CREATE TABLE holiday_requests_new (
    id INTEGER PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    start_date TEXT NOT NULL
        CHECK (start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    end_date TEXT NOT NULL
        CHECK (end_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    status TEXT NOT NULL CHECK (status = 'pending' OR status = 'approved-by-manager' OR status = 'approved'
        OR status = 'rejected' OR status = 'cancelled'),
    comment TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- The last approve or reject, for HR's export; the full story is in holiday_events.
    decided_by TEXT,
    decided_at TEXT,
    leave_type_id INTEGER NOT NULL DEFAULT 1 REFERENCES leave_types(id),
    starts_afternoon INTEGER NOT NULL DEFAULT 0 CHECK (starts_afternoon IN (0, 1)),
    ends_morning INTEGER NOT NULL DEFAULT 0 CHECK (ends_morning IN (0, 1)),
    halves INTEGER NOT NULL DEFAULT 0 CHECK (halves >= 0),
    CHECK (start_date <= end_date)
);
INSERT INTO holiday_requests_new (id, employee_id, start_date, end_date, status, comment, created_at, updated_at,
    decided_by, decided_at, leave_type_id, starts_afternoon, ends_morning, halves)
SELECT id, employee_id, start_date, end_date, status, comment, created_at, updated_at, decided_by, decided_at,
    leave_type_id, starts_afternoon, ends_morning, halves FROM holiday_requests;
DROP TABLE holiday_requests;
ALTER TABLE holiday_requests_new RENAME TO holiday_requests;
CREATE INDEX holiday_requests_approved_long ON holiday_requests(end_date, start_date, employee_id, status)
    WHERE status = 'approved' AND julianday(end_date) - julianday(start_date) >= 14;
CREATE INDEX holiday_requests_approved_start ON holiday_requests(start_date, end_date, employee_id,
    status) WHERE status = 'approved';
CREATE INDEX holiday_requests_employee ON holiday_requests(employee_id, start_date, end_date);
CREATE INDEX holiday_requests_leave_type ON holiday_requests(leave_type_id);
CREATE INDEX holiday_requests_status ON holiday_requests(status, id);
CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
WHEN OLD.status != NEW.status
 AND (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved'
      OR NEW.status = 'pending' OR NEW.status = 'approved-by-manager' OR NEW.status = 'approved')
 AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year)
    SELECT NEW.employee_id, d.year FROM holiday_request_days d WHERE d.request_id = NEW.id
    ON CONFLICT (employee_id, year) DO NOTHING;
    UPDATE held_days SET
        approved_halves = approved_halves + ((NEW.status = 'approved') - (OLD.status = 'approved')) * d.halves,
        pending_halves = pending_halves
            + ((NEW.status IN ('pending', 'approved-by-manager')) - (OLD.status IN ('pending',
                'approved-by-manager'))) * d.halves,
        by_expiry_halves = by_expiry_halves + d.held * (CASE WHEN NEW.end_date <= d.expiry THEN d.halves ELSE 0 END),
        spanning_expiry = spanning_expiry + d.held * (NEW.start_date <= d.expiry AND NEW.end_date > d.expiry)
    FROM (
        SELECT days.year, days.halves, printf('%04d-', days.year) || c.carry_over_expiry AS expiry,
               (NEW.status = 'pending' OR NEW.status = 'approved-by-manager' OR NEW.status = 'approved')
               - (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved') AS held
        FROM holiday_request_days days JOIN company c ON c.id = 1
        WHERE days.request_id = NEW.id) AS d
    WHERE held_days.employee_id = NEW.employee_id AND held_days.year = d.year;
END;
CREATE TRIGGER holiday_requests_halves_insert BEFORE INSERT ON holiday_requests
WHEN NEW.halves <= 0 OR (NEW.start_date = NEW.end_date AND NEW.starts_afternoon = 1 AND NEW.ends_morning = 1)
BEGIN SELECT RAISE(ABORT, 'a request covers at least one working half day, forwards'); END;
CREATE TRIGGER holiday_requests_no_delete BEFORE DELETE ON holiday_requests
BEGIN SELECT RAISE(ABORT, 'holiday requests are never deleted; cancel them instead'); END;
CREATE TRIGGER view_changes_request_insert AFTER INSERT ON holiday_requests
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_request_update AFTER UPDATE ON holiday_requests
BEGIN
    INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id);
    INSERT INTO view_changes (employee_id) SELECT OLD.employee_id WHERE OLD.employee_id IS NOT NEW.employee_id;
END;

CREATE TABLE holiday_events_new (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES holiday_requests(id),
    from_status TEXT CHECK (from_status = 'pending' OR from_status = 'approved-by-manager'
        OR from_status = 'approved' OR from_status = 'rejected' OR from_status = 'cancelled'),
    to_status TEXT NOT NULL CHECK (to_status = 'pending' OR to_status = 'approved-by-manager'
        OR to_status = 'approved' OR to_status = 'rejected' OR to_status = 'cancelled'),
    actor TEXT NOT NULL,
    actor_employee_id INTEGER REFERENCES employees(id),
    at TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
INSERT INTO holiday_events_new (id, request_id, from_status, to_status, actor, actor_employee_id, at, note)
SELECT id, request_id, from_status, to_status, actor, actor_employee_id, at, note FROM holiday_events;
DROP TABLE holiday_events;
ALTER TABLE holiday_events_new RENAME TO holiday_events;
CREATE INDEX holiday_events_request ON holiday_events(request_id, id);
CREATE TRIGGER holiday_events_append_only_delete BEFORE DELETE ON holiday_events
BEGIN SELECT RAISE(ABORT, 'holiday_events is append-only'); END;
CREATE TRIGGER holiday_events_append_only_update BEFORE UPDATE ON holiday_events
BEGIN SELECT RAISE(ABORT, 'holiday_events is append-only'); END;

CREATE TABLE notices_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('company', 'personal')),
    -- The employee a personal notice is for.
    employee_id INTEGER REFERENCES employees(id),
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    -- The last day a company notice is shown (company time zone); NULL: until deleted.
    expires_on TEXT CHECK (expires_on IS NULL OR expires_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    -- Who posted it, or who made the transition: a username, or "NAME (sgadmin)".
    author TEXT NOT NULL,
    author_employee_id INTEGER REFERENCES employees(id),
    -- For personal notices: the transition they report.
    request_id INTEGER REFERENCES holiday_requests(id),
    from_status TEXT CHECK (from_status = 'pending' OR from_status = 'approved-by-manager'
        OR from_status = 'approved' OR from_status = 'rejected' OR from_status = 'cancelled'),
    to_status TEXT CHECK (to_status = 'pending' OR to_status = 'approved-by-manager' OR to_status = 'approved'
        OR to_status = 'rejected' OR to_status = 'cancelled'),
    note TEXT,
    read_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((kind = 'personal') = (employee_id IS NOT NULL)),
    CHECK (kind = 'personal' OR (request_id IS NULL AND read_at IS NULL)),
    CHECK (kind = 'company' OR (pinned = 0 AND expires_on IS NULL AND request_id IS NOT NULL AND to_status IS NOT NULL))
);
INSERT INTO notices_new (id, kind, employee_id, title, body, pinned, expires_on, author, author_employee_id,
    request_id, from_status, to_status, note, read_at, created_at, updated_at)
SELECT id, kind, employee_id, title, body, pinned, expires_on, author, author_employee_id, request_id, from_status,
    to_status, note, read_at, created_at, updated_at FROM notices;
-- Ids never come back after a delete: the copy continues the original's sequence.
INSERT INTO sqlite_sequence (name, seq) SELECT 'notices_new', seq FROM sqlite_sequence WHERE name = 'notices'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'notices_new');
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'notices') WHERE name = 'notices_new';
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;
CREATE INDEX notices_company ON notices(pinned, id) WHERE kind = 'company';
CREATE INDEX notices_personal ON notices(employee_id, id) WHERE kind = 'personal';
CREATE TRIGGER notices_personal_fixed BEFORE UPDATE OF kind, employee_id, title, body, request_id, from_status,
    to_status, note ON notices
WHEN OLD.kind = 'personal'
BEGIN SELECT RAISE(ABORT, 'personal notices are fixed; only read_at changes'); END;

CREATE TABLE outbox_new (
    id INTEGER PRIMARY KEY,
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
INSERT INTO outbox_new (id, channel, event, employee_id, webhook_id, address, recipient_name, subject, body,
    dedupe_key, status, attempts, created_at, next_attempt_at, give_up_at, lease_owner, lease_until, sent_at,
    last_error)
SELECT id, channel, event, employee_id, webhook_id, address, recipient_name, subject, body, dedupe_key, status,
    attempts, created_at, next_attempt_at, give_up_at, lease_owner, lease_until, sent_at, last_error FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_status ON outbox(status, id);

CREATE TABLE devices_new (
    -- The token APNs or FCM issued, or for a web device 'web_' and the base64url of the SHA-256 of its endpoint.
    token TEXT PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    platform TEXT NOT NULL CHECK (platform = 'ios' OR platform = 'android' OR platform = 'web'),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- A web device's subscription as the browser gave it: the push service's https URL, the browser's P-256 key
    -- (base64url, 65 bytes uncompressed) and its authentication secret (base64url, 16 bytes).
    endpoint TEXT,
    p256dh TEXT,
    auth TEXT,
    CHECK ((platform = 'web') = (endpoint IS NOT NULL AND p256dh IS NOT NULL AND auth IS NOT NULL))
) WITHOUT ROWID;
INSERT INTO devices_new (token, employee_id, platform, created_at, updated_at, endpoint, p256dh, auth)
SELECT token, employee_id, platform, created_at, updated_at, endpoint, p256dh, auth FROM devices;
DROP TABLE devices;
ALTER TABLE devices_new RENAME TO devices;
CREATE INDEX devices_employee ON devices(employee_id);

DROP TRIGGER held_days_expiry;
CREATE TRIGGER held_days_expiry AFTER UPDATE OF carry_over_expiry ON company
WHEN OLD.carry_over_expiry != NEW.carry_over_expiry
BEGIN
    UPDATE held_days SET (by_expiry_halves, spanning_expiry) = (
        SELECT COALESCE(SUM(CASE WHEN r.end_date <= printf('%04d-', d.year) || NEW.carry_over_expiry THEN d.halves ELSE 0 END), 0),
               COUNT(CASE WHEN r.start_date <= printf('%04d-', d.year) || NEW.carry_over_expiry
                           AND r.end_date > printf('%04d-', d.year) || NEW.carry_over_expiry THEN 1 END)
        FROM holiday_request_days d
        JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
        JOIN holiday_requests r ON r.id = d.request_id
        WHERE d.employee_id = held_days.employee_id AND d.year = held_days.year
          AND (r.status = 'pending' OR r.status = 'approved-by-manager' OR r.status = 'approved'));
END;

PRAGMA legacy_alter_table = OFF;
