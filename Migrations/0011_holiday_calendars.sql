-- Regional public holidays: the company keeps several holiday calendars (per office or region) and every employee
-- belongs to one, whose public holidays their requests do not count. The public holidays kept so far become the
-- first calendar's, and every employee starts in it.
CREATE TABLE holiday_calendars (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL COLLATE NOCASE UNIQUE CHECK (length(name) BETWEEN 1 AND 60)
);
INSERT INTO holiday_calendars (id, name) VALUES (1, 'default');

CREATE TABLE public_holidays_by_calendar (
    calendar_id INTEGER NOT NULL DEFAULT 1 REFERENCES holiday_calendars(id),
    date TEXT NOT NULL CHECK (date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    name TEXT NOT NULL,
    PRIMARY KEY (calendar_id, date)
) WITHOUT ROWID;
INSERT INTO public_holidays_by_calendar (calendar_id, date, name) SELECT 1, date, name FROM public_holidays;
DROP TABLE public_holidays;
ALTER TABLE public_holidays_by_calendar RENAME TO public_holidays;

ALTER TABLE employees ADD COLUMN holiday_calendar_id INTEGER NOT NULL DEFAULT 1 REFERENCES holiday_calendars(id);
CREATE INDEX employees_holiday_calendar ON employees(holiday_calendar_id);
