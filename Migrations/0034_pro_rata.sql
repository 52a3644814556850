-- How the company's allowance follows each contract (ProRataPolicy): off keeps every balance as it was. The checks
-- compare one value at a time (no IN list of constants: see 0027).
ALTER TABLE company ADD COLUMN pro_rata TEXT NOT NULL DEFAULT 'off'
    CHECK (pro_rata = 'off' OR pro_rata = 'calendar-days' OR pro_rata = 'whole-months');
ALTER TABLE company ADD COLUMN pro_rata_rounding TEXT NOT NULL DEFAULT 'nearest'
    CHECK (pro_rata_rounding = 'up' OR pro_rata_rounding = 'down' OR pro_rata_rounding = 'nearest');
