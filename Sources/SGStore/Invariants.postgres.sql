-- Invariants.sql in PostgreSQL's dialect: the same checks, names and order, each one row "name|violations" where
-- every count must be 0, the same rule placeholders. scripts/schema-parity.py runs both on the same data through
-- `sgadmin check` and compares their rows.

-- Approved plus pending working half days of types drawing on the allowance never exceed an employee-year's
-- allowance (its override, else the default) plus what can carry in at most (the company's cap) plus its
-- adjustments, in half days.
SELECT 'balance: approved + pending <= allowance + carry-over cap + adjustments', COUNT(*) FROM (
    SELECT y.employee_id, y.year FROM (
        SELECT d.employee_id, d.year, SUM(d.halves) AS held,
               2 * COALESCE((SELECT a.days FROM allowances a WHERE a.employee_id = d.employee_id AND a.year = d.year),
                            (SELECT default_allowance FROM company WHERE id = 1)) AS allowance
        FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
        JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
        WHERE {{holds r.status}}
        GROUP BY d.employee_id, d.year) AS y
    WHERE y.held > y.allowance + (SELECT carry_over_cap_halves FROM company WHERE id = 1)
                   + COALESCE((SELECT SUM(c.halves) FROM allowance_changes c
                               WHERE c.employee_id = y.employee_id AND c.year = y.year AND c.kind = 'adjust'), 0)) AS over;

-- The per-year totals the balances read (kept by triggers) equal a count of the requests.
SELECT 'held_days = a count of the held requests', COUNT(*) FROM (
    SELECT employee_id, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry FROM held_days
    WHERE approved_halves + pending_halves > 0
    EXCEPT
    SELECT d.employee_id, d.year, SUM(CASE WHEN {{approved r.status}} THEN d.halves ELSE 0 END),
           SUM(CASE WHEN {{pending r.status}} THEN d.halves ELSE 0 END),
           SUM(CASE WHEN r.end_date <= lpad(d.year::text, 4, '0') || '-' || c.carry_over_expiry THEN d.halves ELSE 0 END),
           SUM((r.start_date <= lpad(d.year::text, 4, '0') || '-' || c.carry_over_expiry
                AND r.end_date > lpad(d.year::text, 4, '0') || '-' || c.carry_over_expiry)::int)
    FROM holiday_request_days d JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
    JOIN holiday_requests r ON r.id = d.request_id JOIN company c ON c.id = 1
    WHERE {{holds r.status}}
    GROUP BY d.employee_id, d.year) AS differing;
SELECT 'every held employee-year has its totals', COUNT(*) FROM (
    SELECT DISTINCT d.employee_id, d.year FROM holiday_request_days d
    JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
    JOIN holiday_requests r ON r.id = d.request_id WHERE {{holds r.status}}
    EXCEPT SELECT employee_id, year FROM held_days WHERE approved_halves + pending_halves > 0) AS missing;

-- No two pending or approved requests of one employee share a half day (a morning and an afternoon of one day
-- do not overlap).
SELECT 'no overlap between held requests', COUNT(*)
FROM holiday_requests a JOIN holiday_requests b
  ON b.employee_id = a.employee_id AND b.id > a.id AND b.start_date <= a.end_date AND b.end_date >= a.start_date
 AND NOT (b.start_date = a.end_date AND b.starts_afternoon = 1 AND a.ends_morning = 1)
 AND NOT (a.start_date = b.end_date AND a.starts_afternoon = 1 AND b.ends_morning = 1)
WHERE {{holds a.status}} AND {{holds b.status}};

-- A request's working half days are the sum of its per-year split, each year within its dates, same employee
-- and type.
SELECT 'working days = sum of per-year days', COUNT(*) FROM holiday_requests r
WHERE r.halves != (SELECT COALESCE(SUM(d.halves), 0) FROM holiday_request_days d WHERE d.request_id = r.id)
   OR EXISTS (SELECT 1 FROM holiday_request_days d WHERE d.request_id = r.id AND d.leave_type_id != r.leave_type_id);
SELECT 'per-year days belong to the request''s employee and years', COUNT(*)
FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
WHERE d.employee_id != r.employee_id
   OR d.year < CAST(substr(r.start_date, 1, 4) AS BIGINT) OR d.year > CAST(substr(r.end_date, 1, 4) AS BIGINT);

-- Every request's history starts with its creation, chains from state to state, and ends in its current state.
SELECT 'history ends in the current status', COUNT(*) FROM holiday_requests r
WHERE r.status IS DISTINCT FROM (SELECT e.to_status FROM holiday_events e WHERE e.request_id = r.id ORDER BY e.id DESC LIMIT 1);
SELECT 'history starts with a creation', COUNT(*) FROM holiday_requests r
WHERE (SELECT e.from_status IS NULL AND e.to_status IN {{created}}
       FROM holiday_events e WHERE e.request_id = r.id ORDER BY e.id LIMIT 1) IS NOT TRUE;
SELECT 'each event moves from the previous state', COUNT(*) FROM holiday_events e
WHERE e.from_status IS DISTINCT FROM (SELECT p.to_status FROM holiday_events p WHERE p.request_id = e.request_id AND p.id < e.id
                                      ORDER BY p.id DESC LIMIT 1);
SELECT 'each move is allowed by the state machine', COUNT(*) FROM holiday_events
WHERE from_status IS NOT NULL AND (from_status || '>' || to_status) NOT IN {{moves}};
-- A leave type that needs no approval is approved when created, by no one: only a move names its decider.
SELECT 'decided requests name who decided', COUNT(*) FROM holiday_requests r
WHERE r.status IN ('approved-by-manager', 'approved', 'rejected') AND (r.decided_by IS NULL OR r.decided_at IS NULL)
  AND (SELECT e.from_status FROM holiday_events e WHERE e.request_id = r.id ORDER BY e.id DESC LIMIT 1) IS NOT NULL;

-- Only requests of two-stage teams wait for an admin after their manager (a team switched back keeps them).
SELECT 'approved by a manager only after a manager''s approval', COUNT(*) FROM holiday_requests r
WHERE r.status = 'approved-by-manager'
  AND (SELECT e.from_status FROM holiday_events e WHERE e.request_id = r.id ORDER BY e.id DESC LIMIT 1) != 'pending';

-- PostgreSQL checks every foreign key as rows are written; only a constraint added NOT VALID (or rows written while
-- triggers were off) can hold rows that break one. Counted here: the schema's foreign keys not validated.
SELECT 'foreign keys', COUNT(*) FROM pg_constraint
WHERE contype = 'f' AND NOT convalidated AND connamespace = current_schema()::regnamespace;
