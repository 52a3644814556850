-- Carry-over: at most this many half days of a year's unused allowance carry into the next (default 5 days; 0
-- turns it off), usable until this day of the next year ('MM-DD', default 31 March), after which they expire.
ALTER TABLE company ADD COLUMN carry_over_cap_halves INTEGER NOT NULL DEFAULT 10
    CHECK (carry_over_cap_halves BETWEEN 0 AND 732);
ALTER TABLE company ADD COLUMN carry_over_expiry TEXT NOT NULL DEFAULT '03-31'
    CHECK (carry_over_expiry GLOB '[01][0-9]-[0-3][0-9]' AND carry_over_expiry != '02-29');
