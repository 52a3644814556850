-- Holiday requests: company settings, employees, tokens, public holidays,
-- allowances, requests with their per-year day counts, and the append-only
-- history of transitions. Dates are calendar dates stored as 'YYYY-MM-DD'
-- text (they sort and compare correctly as text); instants are UTC ISO 8601.

CREATE TABLE company (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    -- ISO weekdays that are working days, 1 = Monday ... 7 = Sunday.
    working_days TEXT NOT NULL DEFAULT '12345'
        CHECK (length(working_days) BETWEEN 1 AND 7 AND working_days NOT GLOB '*[^1-7]*'),
    default_allowance INTEGER NOT NULL DEFAULT 23 CHECK (default_allowance BETWEEN 0 AND 366),
    -- "Today" for the past-date rule and for "before the first day" is taken in this zone.
    timezone TEXT NOT NULL DEFAULT 'UTC'
);
INSERT INTO company (id, name) VALUES (1, 'SGEmployee');

CREATE TABLE employees (
    id INTEGER PRIMARY KEY,
    username TEXT NOT NULL COLLATE NOCASE UNIQUE,
    name TEXT NOT NULL,
    surname TEXT NOT NULL,
    email TEXT NOT NULL,
    is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
    is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    -- bcrypt hash for local accounts; NULL for accounts of an external directory.
    password_hash TEXT,
    created_at TEXT NOT NULL,
    deactivated_at TEXT
);

CREATE TABLE auth_tokens (
    token_hash BLOB PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX auth_tokens_employee ON auth_tokens(employee_id);

CREATE TABLE public_holidays (
    date TEXT PRIMARY KEY
        CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    name TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE allowances (
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    year INTEGER NOT NULL,
    days INTEGER NOT NULL CHECK (days BETWEEN 0 AND 366),
    PRIMARY KEY (employee_id, year)
) WITHOUT ROWID;

CREATE TABLE holiday_requests (
    id INTEGER PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    start_date TEXT NOT NULL
        CHECK (start_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    end_date TEXT NOT NULL
        CHECK (end_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    working_days INTEGER NOT NULL CHECK (working_days > 0),
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
    comment TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- The last approve or reject, for HR's export; the full story is in holiday_events.
    decided_by TEXT,
    decided_at TEXT,
    CHECK (start_date <= end_date)
);
CREATE INDEX holiday_requests_employee ON holiday_requests(employee_id, start_date);
CREATE INDEX holiday_requests_status ON holiday_requests(status, id);

-- Working days of a request counted in each calendar year it touches, fixed
-- when the request is made: a request across 31 December draws on both years.
CREATE TABLE holiday_request_days (
    request_id INTEGER NOT NULL REFERENCES holiday_requests(id),
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    year INTEGER NOT NULL,
    days INTEGER NOT NULL CHECK (days >= 0),
    PRIMARY KEY (request_id, year)
) WITHOUT ROWID;
CREATE INDEX holiday_request_days_employee ON holiday_request_days(employee_id, year);

CREATE TABLE holiday_events (
    id INTEGER PRIMARY KEY,
    request_id INTEGER NOT NULL REFERENCES holiday_requests(id),
    from_status TEXT CHECK (from_status IN ('pending', 'approved', 'rejected', 'cancelled')),
    to_status TEXT NOT NULL CHECK (to_status IN ('pending', 'approved', 'rejected', 'cancelled')),
    actor TEXT NOT NULL,
    actor_employee_id INTEGER REFERENCES employees(id),
    at TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX holiday_events_request ON holiday_events(request_id, id);

-- History is never rewritten, whoever holds the database file.
CREATE TRIGGER holiday_events_append_only_update BEFORE UPDATE ON holiday_events
BEGIN SELECT RAISE(ABORT, 'holiday_events is append-only'); END;
CREATE TRIGGER holiday_events_append_only_delete BEFORE DELETE ON holiday_events
BEGIN SELECT RAISE(ABORT, 'holiday_events is append-only'); END;
CREATE TRIGGER holiday_requests_no_delete BEFORE DELETE ON holiday_requests
BEGIN SELECT RAISE(ABORT, 'holiday requests are never deleted; cancel them instead'); END;
CREATE TRIGGER holiday_request_days_no_update BEFORE UPDATE ON holiday_request_days
BEGIN SELECT RAISE(ABORT, 'holiday_request_days is fixed when a request is made'); END;
