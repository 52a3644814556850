-- Extra days for years of service (SeniorityPolicy): tiers as "years:days,…" ("" for none, which keeps every balance
-- as it was), counted from the year a tier is reached or from the anniversary itself.
ALTER TABLE company ADD COLUMN seniority TEXT NOT NULL DEFAULT '';
ALTER TABLE company ADD COLUMN seniority_from TEXT NOT NULL DEFAULT 'year'
    CHECK (seniority_from = 'year' OR seniority_from = 'anniversary');
