-- Half days held per employee and year by requests of types drawing on the allowance, kept by the triggers below in
-- the transaction of every change. A balance over the years reads these few adjacent rows instead of joining the
-- employee's whole request history. Statuses that hold days: 'pending' and 'approved' (HolidayStatus.holdsDays).
CREATE TABLE held_days (
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    year INTEGER NOT NULL,
    approved_halves INTEGER NOT NULL DEFAULT 0 CHECK (approved_halves >= 0),
    pending_halves INTEGER NOT NULL DEFAULT 0 CHECK (pending_halves >= 0),
    -- The part of both held by requests that end by the year's carry-over expiry (company.carry_over_expiry):
    -- carried days are used on those first. Requests running across the expiry are counted by the rules.
    by_expiry_halves INTEGER NOT NULL DEFAULT 0 CHECK (by_expiry_halves >= 0),
    PRIMARY KEY (employee_id, year)
) WITHOUT ROWID;

INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves)
SELECT d.employee_id, d.year,
       SUM(CASE WHEN r.status = 'approved' THEN d.halves ELSE 0 END),
       SUM(CASE WHEN r.status = 'pending' THEN d.halves ELSE 0 END),
       SUM(CASE WHEN r.end_date <= printf('%04d-', d.year) || c.carry_over_expiry THEN d.halves ELSE 0 END)
FROM holiday_request_days d
JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
JOIN holiday_requests r ON r.id = d.request_id
JOIN company c ON c.id = 1
WHERE r.status IN ('pending', 'approved')
GROUP BY d.employee_id, d.year;

-- A request's days are written just after the request, in its status.
CREATE TRIGGER held_days_new_request AFTER INSERT ON holiday_request_days
WHEN (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves)
    SELECT NEW.employee_id, NEW.year,
           CASE WHEN r.status = 'approved' THEN NEW.halves ELSE 0 END,
           CASE WHEN r.status = 'pending' THEN NEW.halves ELSE 0 END,
           CASE WHEN r.end_date <= printf('%04d-', NEW.year) || c.carry_over_expiry THEN NEW.halves ELSE 0 END
    FROM holiday_requests r JOIN company c ON c.id = 1
    WHERE r.id = NEW.request_id AND r.status IN ('pending', 'approved')
    ON CONFLICT (employee_id, year) DO UPDATE SET
        approved_halves = approved_halves + excluded.approved_halves,
        pending_halves = pending_halves + excluded.pending_halves,
        by_expiry_halves = by_expiry_halves + excluded.by_expiry_halves;
END;

-- A move of a request takes its days from the status it leaves and gives them to the one it enters.
CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
WHEN OLD.status != NEW.status AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves)
    SELECT d.employee_id, d.year, 0, 0, 0 FROM holiday_request_days d WHERE d.request_id = NEW.id
    ON CONFLICT (employee_id, year) DO NOTHING;
    UPDATE held_days SET
        approved_halves = approved_halves + (
            (NEW.status = 'approved') - (OLD.status = 'approved'))
            * (SELECT d.halves FROM holiday_request_days d WHERE d.request_id = NEW.id AND d.year = held_days.year),
        pending_halves = pending_halves + (
            (NEW.status = 'pending') - (OLD.status = 'pending'))
            * (SELECT d.halves FROM holiday_request_days d WHERE d.request_id = NEW.id AND d.year = held_days.year),
        by_expiry_halves = by_expiry_halves + (
            (NEW.status IN ('pending', 'approved')) - (OLD.status IN ('pending', 'approved')))
            * (SELECT CASE WHEN NEW.end_date <= printf('%04d-', d.year) || c.carry_over_expiry THEN d.halves ELSE 0 END
               FROM holiday_request_days d JOIN company c ON c.id = 1
               WHERE d.request_id = NEW.id AND d.year = held_days.year)
    WHERE employee_id = NEW.employee_id AND year IN (SELECT year FROM holiday_request_days WHERE request_id = NEW.id);
END;

-- Another expiry date moves the line between days before and after it, in every year.
CREATE TRIGGER held_days_expiry AFTER UPDATE OF carry_over_expiry ON company
WHEN OLD.carry_over_expiry != NEW.carry_over_expiry
BEGIN
    UPDATE held_days SET by_expiry_halves = (
        SELECT COALESCE(SUM(d.halves), 0)
        FROM holiday_request_days d
        JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
        JOIN holiday_requests r ON r.id = d.request_id
        WHERE d.employee_id = held_days.employee_id AND d.year = held_days.year
          AND r.status IN ('pending', 'approved')
          AND r.end_date <= printf('%04d-', d.year) || NEW.carry_over_expiry);
END;

-- Whether a type draws on the allowance is fixed once a request uses it (the rules refuse the change first).
CREATE TRIGGER leave_types_draws_fixed BEFORE UPDATE OF draws_on_allowance ON leave_types
WHEN OLD.draws_on_allowance != NEW.draws_on_allowance
 AND EXISTS (SELECT 1 FROM holiday_requests WHERE leave_type_id = NEW.id)
BEGIN SELECT RAISE(ABORT, 'a leave type in use keeps whether it draws on the allowance'); END;

-- Requests by employee and dates, with the status: finding the requests that run across a carry-over expiry reads
-- this index alone.
DROP INDEX holiday_requests_employee;
CREATE INDEX holiday_requests_employee ON holiday_requests(employee_id, start_date, end_date, status);
