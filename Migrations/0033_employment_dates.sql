-- When each employee is employed: a start date and, once known, an end date (ISO dates); no request may hold a day
-- outside them. NULL start: employed since before the first year on record; NULL end: no end known.
ALTER TABLE employees ADD COLUMN employment_start TEXT
    CHECK (employment_start IS NULL OR employment_start GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');
ALTER TABLE employees ADD COLUMN employment_end TEXT
    CHECK (employment_end IS NULL OR (employment_end GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
        AND (employment_start IS NULL OR employment_end >= employment_start)));
