-- An employee's own working week from a day on (part time, e.g. Monday to Thursday); NULL goes back to the
-- company's. Before the first entry, and for employees without one, the company's week applies. Kept as history:
-- each request keeps the working days it was counted with.
CREATE TABLE working_weeks (
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    starts_on TEXT NOT NULL CHECK (starts_on GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    working_days TEXT CHECK (working_days IS NULL
        OR (length(working_days) BETWEEN 1 AND 7 AND working_days NOT GLOB '*[^1-7]*')),
    set_by TEXT NOT NULL,
    set_at TEXT NOT NULL,
    PRIMARY KEY (employee_id, starts_on)
) WITHOUT ROWID;
