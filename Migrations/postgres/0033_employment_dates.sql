-- When each employee is employed: a start date and, once known, an end date (ISO dates); no request may hold a day
-- outside them. NULL start: employed since before the first year on record; NULL end: no end known.
ALTER TABLE employees ADD COLUMN employment_start TEXT
    CHECK (employment_start IS NULL OR employment_start ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$');
ALTER TABLE employees ADD COLUMN employment_end TEXT
    CHECK (employment_end IS NULL OR (employment_end ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
        AND (employment_start IS NULL OR employment_end >= employment_start)));
