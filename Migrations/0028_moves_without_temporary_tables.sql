-- Every decision, revert and cancellation runs held_days_status, and every create and move adds rows to view_changes.
-- Measured on the bench's company (SQLite 3.40, one move in a savepoint as the writer runs it): the move's UPDATE took
-- 27 µs, of which its triggers (held_days_status and view_changes_request_update) took 13.
--
-- * held_days_status added its numbers with UPDATE ... FROM (a subquery), which SQLite runs by writing the join into
--   a temporary table at every run (OpenEphemeral in the statement's EXPLAIN), and first inserted the
--   request's years into held_days "if missing" at every move. The numbers are now one row-value subquery per year
--   of the request (holiday_request_days' key), the years found with EXISTS (an IN (SELECT ...) builds a temporary
--   table too), and the years are inserted only when the request begins to hold days: a request that held them
--   already has its rows (held_days_new_request, or this trigger when it began to). Same numbers: the leave model's tests
--   and scripts/schema-parity.py run the same moves on both schemas. A trigger has no variables, so which statuses
--   hold days is written out at each use: computing the changes once in a subquery of the FROM list (measured the same
--   way) cost 1 to 2 µs more a move.
-- * view_changes numbered its rows with AUTOINCREMENT, which reads and writes sqlite_sequence at each insert. Its
--   rows are never deleted from the top (view_changes_kept_short drops the oldest), so the largest number plus one,
--   which an INTEGER PRIMARY KEY gives, is the same number; PostgreSQL numbers them that way already (0023).
-- Together: 21 µs a move instead of 27, and 3.6 µs less a create.
-- legacy_alter_table: renaming the copy must not re-check the triggers of other tables that insert into it.
PRAGMA legacy_alter_table = ON;

DROP TRIGGER held_days_status;
CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
WHEN OLD.status != NEW.status
 AND (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved'
      OR NEW.status = 'pending' OR NEW.status = 'approved-by-manager' OR NEW.status = 'approved')
 AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
BEGIN
    INSERT INTO held_days (employee_id, year)
    SELECT NEW.employee_id, d.year FROM holiday_request_days d
    WHERE d.request_id = NEW.id
      AND NOT (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved')
    ON CONFLICT (employee_id, year) DO NOTHING;
    UPDATE held_days SET (approved_halves, pending_halves, by_expiry_halves, spanning_expiry) = (
        SELECT approved_halves + ((NEW.status = 'approved') - (OLD.status = 'approved')) * d.halves,
               pending_halves + ((NEW.status = 'pending' OR NEW.status = 'approved-by-manager')
                   - (OLD.status = 'pending' OR OLD.status = 'approved-by-manager')) * d.halves,
               by_expiry_halves + ((NEW.status = 'pending' OR NEW.status = 'approved-by-manager' OR NEW.status = 'approved')
                   - (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved'))
                   * (CASE WHEN NEW.end_date <= printf('%04d-', d.year) || c.carry_over_expiry THEN d.halves ELSE 0 END),
               spanning_expiry + ((NEW.status = 'pending' OR NEW.status = 'approved-by-manager' OR NEW.status = 'approved')
                   - (OLD.status = 'pending' OR OLD.status = 'approved-by-manager' OR OLD.status = 'approved'))
                   * (NEW.start_date <= printf('%04d-', d.year) || c.carry_over_expiry
                      AND NEW.end_date > printf('%04d-', d.year) || c.carry_over_expiry)
        FROM holiday_request_days d, company c
        WHERE d.request_id = NEW.id AND d.year = held_days.year AND c.id = 1)
    WHERE employee_id = NEW.employee_id
      AND EXISTS (SELECT 1 FROM holiday_request_days d WHERE d.request_id = NEW.id AND d.year = held_days.year);
END;

CREATE TABLE view_changes_new (
    seq INTEGER PRIMARY KEY,
    employee_id INTEGER,
    token INTEGER NOT NULL DEFAULT 0
);
INSERT INTO view_changes_new (seq, employee_id, token) SELECT seq, employee_id, token FROM view_changes;
-- A reader may have seen the largest number given so far: if its row is gone (a hand edit), a row keeps the number
-- taken, so that the next one is after it. Nobody reads that row: a reader reads only after what it has seen.
INSERT INTO view_changes_new (seq, employee_id, token)
SELECT seq, NULL, 0 FROM sqlite_sequence
WHERE name = 'view_changes' AND seq > (SELECT COALESCE(MAX(seq), 0) FROM view_changes_new);
DROP TABLE view_changes;
ALTER TABLE view_changes_new RENAME TO view_changes;
CREATE TRIGGER view_changes_kept_short AFTER INSERT ON view_changes WHEN NEW.seq % 1000 = 0
BEGIN DELETE FROM view_changes WHERE seq <= NEW.seq - 10000; END;

PRAGMA legacy_alter_table = OFF;
