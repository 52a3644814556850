-- The allowance's history per employee-year: every allowance an admin set ('set', halves = the new allowance) and
-- every adjustment ('adjust', halves = days added or, negative, removed, with a required reason), with who and when.
-- Never changed or deleted, whoever holds the database file. Adjustments count in the balance.

CREATE TABLE allowance_changes (
    id INTEGER PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    year INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('set', 'adjust')),
    halves INTEGER NOT NULL CHECK (halves BETWEEN -732 AND 732 AND (kind = 'set' OR halves != 0)),
    reason TEXT NOT NULL DEFAULT '' CHECK (kind = 'set' OR length(trim(reason)) > 0),
    actor TEXT NOT NULL,
    actor_employee_id INTEGER REFERENCES employees(id),
    at TEXT NOT NULL
);
CREATE INDEX allowance_changes_employee ON allowance_changes(employee_id, year, kind);

CREATE TRIGGER allowance_changes_append_only_update BEFORE UPDATE ON allowance_changes
BEGIN SELECT RAISE(ABORT, 'allowance_changes is append-only'); END;
CREATE TRIGGER allowance_changes_append_only_delete BEFORE DELETE ON allowance_changes
BEGIN SELECT RAISE(ABORT, 'allowance_changes is append-only'); END;
