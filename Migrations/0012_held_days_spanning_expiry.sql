-- Every balance check read an employee's whole request history to find the few requests that run across a year's
-- carry-over expiry (0010's holiday_requests_employee index with the status, scanned on each create, approval and
-- revert), and every status change rewrote that index. held_days now also counts, per employee and year, the held
-- requests whose days in the year run across its expiry, so the rules look for them only where there are some,
-- and the index leaves out the status again: a decision no longer touches it.
ALTER TABLE held_days ADD COLUMN spanning_expiry INTEGER NOT NULL DEFAULT 0 CHECK (spanning_expiry >= 0);

UPDATE held_days SET spanning_expiry = (
    SELECT COUNT(*)
    FROM holiday_request_days d
    JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
    JOIN holiday_requests r ON r.id = d.request_id
    JOIN company c ON c.id = 1
    WHERE d.employee_id = held_days.employee_id AND d.year = held_days.year
      AND r.status IN ('pending', 'approved')
      AND r.start_date <= printf('%04d-', d.year) || c.carry_over_expiry
      AND r.end_date > printf('%04d-', d.year) || c.carry_over_expiry);

DROP TRIGGER held_days_new_request;
CREATE TRIGGER held_days_new_request AFTER INSERT ON holiday_request_days
WHEN (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry)
    SELECT NEW.employee_id, NEW.year,
           CASE WHEN r.status = 'approved' THEN NEW.halves ELSE 0 END,
           CASE WHEN r.status = 'pending' THEN NEW.halves ELSE 0 END,
           CASE WHEN r.end_date <= e.expiry THEN NEW.halves ELSE 0 END,
           r.start_date <= e.expiry AND r.end_date > e.expiry
    FROM holiday_requests r, (SELECT printf('%04d-', NEW.year) || carry_over_expiry AS expiry FROM company WHERE id = 1) e
    WHERE r.id = NEW.request_id AND r.status IN ('pending', 'approved')
    ON CONFLICT (employee_id, year) DO UPDATE SET
        approved_halves = approved_halves + excluded.approved_halves,
        pending_halves = pending_halves + excluded.pending_halves,
        by_expiry_halves = by_expiry_halves + excluded.by_expiry_halves,
        spanning_expiry = spanning_expiry + excluded.spanning_expiry;
END;

-- One pass over the request's few per-year rows (UPDATE … FROM) instead of a lookup per column and row.
DROP TRIGGER held_days_status;
CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
WHEN OLD.status != NEW.status
 AND (OLD.status IN ('pending', 'approved') OR NEW.status IN ('pending', 'approved'))
 AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year)
    SELECT NEW.employee_id, d.year FROM holiday_request_days d WHERE d.request_id = NEW.id
    ON CONFLICT (employee_id, year) DO NOTHING;
    UPDATE held_days SET
        approved_halves = approved_halves + ((NEW.status = 'approved') - (OLD.status = 'approved')) * d.halves,
        pending_halves = pending_halves + ((NEW.status = 'pending') - (OLD.status = 'pending')) * d.halves,
        by_expiry_halves = by_expiry_halves + d.held * (CASE WHEN NEW.end_date <= d.expiry THEN d.halves ELSE 0 END),
        spanning_expiry = spanning_expiry + d.held * (NEW.start_date <= d.expiry AND NEW.end_date > d.expiry)
    FROM (
        SELECT days.year, days.halves, printf('%04d-', days.year) || c.carry_over_expiry AS expiry,
               (NEW.status IN ('pending', 'approved')) - (OLD.status IN ('pending', 'approved')) AS held
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
          AND r.status IN ('pending', 'approved'));
END;

DROP INDEX holiday_requests_employee;
CREATE INDEX holiday_requests_employee ON holiday_requests(employee_id, start_date, end_date);
