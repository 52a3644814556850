-- Leave types and half days. Every request made before this has the holiday type and covers whole days:
-- its duration becomes twice as many half days, per request and per year, so no day is lost or gained.

CREATE TABLE leave_types (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 60),
    draws_on_allowance INTEGER NOT NULL CHECK (draws_on_allowance IN (0, 1)),
    needs_approval INTEGER NOT NULL CHECK (needs_approval IN (0, 1)),
    -- Colleagues see only "away", never the type.
    is_private INTEGER NOT NULL CHECK (is_private IN (0, 1)),
    -- Half days per employee and year, pending and approved together; NULL: no cap.
    yearly_cap_halves INTEGER CHECK (yearly_cap_halves IS NULL OR yearly_cap_halves BETWEEN 1 AND 732),
    retired INTEGER NOT NULL DEFAULT 0 CHECK (retired IN (0, 1))
);
INSERT INTO leave_types (id, name, draws_on_allowance, needs_approval, is_private) VALUES
    (1, 'holiday', 1, 1, 0),
    (2, 'sick', 0, 0, 1),
    (3, 'unpaid', 0, 1, 0);

-- Requests: their type, whether the first day starts in the afternoon and the last ends at noon, and the
-- working half days they cover (which replace the whole working days).
ALTER TABLE holiday_requests ADD COLUMN leave_type_id INTEGER NOT NULL DEFAULT 1 REFERENCES leave_types(id);
ALTER TABLE holiday_requests ADD COLUMN starts_afternoon INTEGER NOT NULL DEFAULT 0 CHECK (starts_afternoon IN (0, 1));
ALTER TABLE holiday_requests ADD COLUMN ends_morning INTEGER NOT NULL DEFAULT 0 CHECK (ends_morning IN (0, 1));
ALTER TABLE holiday_requests ADD COLUMN halves INTEGER NOT NULL DEFAULT 0 CHECK (halves >= 0);
UPDATE holiday_requests SET halves = 2 * working_days;
ALTER TABLE holiday_requests DROP COLUMN working_days;
CREATE INDEX holiday_requests_leave_type ON holiday_requests(leave_type_id);
-- A one-day request is a morning, an afternoon or the whole day; never "afternoon to morning".
CREATE TRIGGER holiday_requests_halves_insert BEFORE INSERT ON holiday_requests
WHEN NEW.halves <= 0 OR (NEW.start_date = NEW.end_date AND NEW.starts_afternoon = 1 AND NEW.ends_morning = 1)
BEGIN SELECT RAISE(ABORT, 'a request covers at least one working half day, forwards'); END;

-- Half days per request and year, with the request's type so that balances read one table.
DROP TRIGGER holiday_request_days_no_update;
CREATE TABLE holiday_request_halves (
    request_id INTEGER NOT NULL REFERENCES holiday_requests(id),
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    year INTEGER NOT NULL,
    leave_type_id INTEGER NOT NULL REFERENCES leave_types(id),
    halves INTEGER NOT NULL CHECK (halves > 0),
    PRIMARY KEY (request_id, year)
) WITHOUT ROWID;
INSERT INTO holiday_request_halves (request_id, employee_id, year, leave_type_id, halves)
    SELECT request_id, employee_id, year, 1, 2 * days FROM holiday_request_days WHERE days > 0;
DROP TABLE holiday_request_days;
ALTER TABLE holiday_request_halves RENAME TO holiday_request_days;
CREATE INDEX holiday_request_days_employee ON holiday_request_days(employee_id, year, leave_type_id);
CREATE TRIGGER holiday_request_days_no_update BEFORE UPDATE ON holiday_request_days
BEGIN SELECT RAISE(ABORT, 'holiday_request_days is fixed when a request is made'); END;
