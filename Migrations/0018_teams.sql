-- Teams: an employee belongs to at most one; a team's approvers (members or not) decide its requests, and an
-- approver may name a substitute for a date range. Companies without teams keep the admins deciding everything.
CREATE TABLE teams (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 60),
    -- Two-stage approval: an approver's approval makes a request 'approved-by-manager', an admin's makes it approved.
    two_stage INTEGER NOT NULL DEFAULT 0 CHECK (two_stage IN (0, 1))
);
ALTER TABLE employees ADD COLUMN team_id INTEGER REFERENCES teams(id);
CREATE INDEX employees_team ON employees(team_id) WHERE team_id IS NOT NULL;

CREATE TABLE team_approvers (
    team_id INTEGER NOT NULL REFERENCES teams(id),
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    PRIMARY KEY (team_id, employee_id)
) WITHOUT ROWID;
CREATE INDEX team_approvers_employee ON team_approvers(employee_id);

-- One delegation per approver: from `from_date` through `until_date` (company dates) the substitute decides for them.
CREATE TABLE delegations (
    approver_id INTEGER PRIMARY KEY REFERENCES employees(id),
    substitute_id INTEGER NOT NULL REFERENCES employees(id),
    from_date TEXT NOT NULL CHECK (from_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    until_date TEXT NOT NULL CHECK (until_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    CHECK (from_date <= until_date),
    CHECK (substitute_id != approver_id)
);
CREATE INDEX delegations_substitute ON delegations(substitute_id);

-- Who decides a request is read with every request and decision: the active admins are a few rows of this index.
CREATE INDEX employees_active_admins ON employees(id) WHERE is_admin = 1 AND is_active = 1;

-- The new status 'approved-by-manager' holds its days like 'pending'. SQLite cannot change a CHECK constraint, so
-- the three tables that name the statuses are rebuilt (https://sqlite.org/lang_altertable.html#otheralter) with
-- their indexes and triggers; the migrator runs this with foreign keys off and checks them before committing.
-- legacy_alter_table: renaming the copies must not re-check the triggers of other tables that read these tables.
PRAGMA legacy_alter_table = ON;

CREATE TABLE holiday_requests_new (
    id INTEGER PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    start_date TEXT NOT NULL
        CHECK (start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    end_date TEXT NOT NULL
        CHECK (end_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved-by-manager', 'approved', 'rejected', 'cancelled')),
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
INSERT INTO holiday_requests_new SELECT * FROM holiday_requests;
DROP TABLE holiday_requests;
ALTER TABLE holiday_requests_new RENAME TO holiday_requests;
CREATE INDEX holiday_requests_status ON holiday_requests(status, id);
CREATE INDEX holiday_requests_leave_type ON holiday_requests(leave_type_id);
CREATE INDEX holiday_requests_employee ON holiday_requests(employee_id, start_date, end_date);
CREATE INDEX holiday_requests_approved_start ON holiday_requests(start_date) WHERE status = 'approved';
CREATE TRIGGER holiday_requests_no_delete BEFORE DELETE ON holiday_requests
BEGIN SELECT RAISE(ABORT, 'holiday requests are never deleted; cancel them instead'); END;
CREATE TRIGGER holiday_requests_halves_insert BEFORE INSERT ON holiday_requests
WHEN NEW.halves <= 0 OR (NEW.start_date = NEW.end_date AND NEW.starts_afternoon = 1 AND NEW.ends_morning = 1)
BEGIN SELECT RAISE(ABORT, 'a request covers at least one working half day, forwards'); END;

-- 0012's trigger, with 'approved-by-manager' counted among the pending days.
CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
WHEN OLD.status != NEW.status
 AND (OLD.status IN ('pending', 'approved-by-manager', 'approved') OR NEW.status IN ('pending', 'approved-by-manager', 'approved'))
 AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year)
    SELECT NEW.employee_id, d.year FROM holiday_request_days d WHERE d.request_id = NEW.id
    ON CONFLICT (employee_id, year) DO NOTHING;
    UPDATE held_days SET
        approved_halves = approved_halves + ((NEW.status = 'approved') - (OLD.status = 'approved')) * d.halves,
        pending_halves = pending_halves
            + ((NEW.status IN ('pending', 'approved-by-manager')) - (OLD.status IN ('pending', 'approved-by-manager'))) * d.halves,
        by_expiry_halves = by_expiry_halves + d.held * (CASE WHEN NEW.end_date <= d.expiry THEN d.halves ELSE 0 END),
        spanning_expiry = spanning_expiry + d.held * (NEW.start_date <= d.expiry AND NEW.end_date > d.expiry)
    FROM (
        SELECT days.year, days.halves, printf('%04d-', days.year) || c.carry_over_expiry AS expiry,
               (NEW.status IN ('pending', 'approved-by-manager', 'approved'))
               - (OLD.status IN ('pending', 'approved-by-manager', 'approved')) AS held
        FROM holiday_request_days days JOIN company c ON c.id = 1
        WHERE days.request_id = NEW.id) AS d
    WHERE held_days.employee_id = NEW.employee_id AND held_days.year = d.year;
END;

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
          AND r.status IN ('pending', 'approved-by-manager', 'approved'));
END;

CREATE TABLE holiday_events_new (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES holiday_requests(id),
    from_status TEXT CHECK (from_status IN ('pending', 'approved-by-manager', 'approved', 'rejected', 'cancelled')),
    to_status TEXT NOT NULL CHECK (to_status IN ('pending', 'approved-by-manager', 'approved', 'rejected', 'cancelled')),
    actor TEXT NOT NULL,
    actor_employee_id INTEGER REFERENCES employees(id),
    at TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
INSERT INTO holiday_events_new SELECT * FROM holiday_events;
DROP TABLE holiday_events;
ALTER TABLE holiday_events_new RENAME TO holiday_events;
CREATE INDEX holiday_events_request ON holiday_events(request_id, id);
CREATE TRIGGER holiday_events_append_only_update BEFORE UPDATE ON holiday_events
BEGIN SELECT RAISE(ABORT, 'holiday_events is append-only'); END;
CREATE TRIGGER holiday_events_append_only_delete BEFORE DELETE ON holiday_events
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
    from_status TEXT CHECK (from_status IN ('pending', 'approved-by-manager', 'approved', 'rejected', 'cancelled')),
    to_status TEXT CHECK (to_status IN ('pending', 'approved-by-manager', 'approved', 'rejected', 'cancelled')),
    note TEXT,
    read_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CHECK ((kind = 'personal') = (employee_id IS NOT NULL)),
    CHECK (kind = 'personal' OR (request_id IS NULL AND read_at IS NULL)),
    CHECK (kind = 'company' OR (pinned = 0 AND expires_on IS NULL AND request_id IS NOT NULL AND to_status IS NOT NULL))
);
INSERT INTO notices_new SELECT * FROM notices;
-- Ids never come back after a delete: the copy continues the original's sequence.
INSERT INTO sqlite_sequence (name, seq) SELECT 'notices_new', seq FROM sqlite_sequence WHERE name = 'notices'
    AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'notices_new');
UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name = 'notices') WHERE name = 'notices_new';
DROP TABLE notices;
ALTER TABLE notices_new RENAME TO notices;
CREATE INDEX notices_company ON notices(pinned, id) WHERE kind = 'company';
CREATE INDEX notices_personal ON notices(employee_id, id) WHERE kind = 'personal';
CREATE TRIGGER notices_personal_fixed BEFORE UPDATE OF kind, employee_id, title, body, request_id, from_status, to_status, note ON notices
WHEN OLD.kind = 'personal'
BEGIN SELECT RAISE(ABORT, 'personal notices are fixed; only read_at changes'); END;

PRAGMA legacy_alter_table = OFF;
