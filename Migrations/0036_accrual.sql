-- Accrual plans (AccrualPlan): the company's ("year" grants the whole allowance at once, as every balance was) and
-- an employee's own (NULL: the company's). Codes such as "month:start:none" or "quarter:end:5".
ALTER TABLE company ADD COLUMN accrual TEXT NOT NULL DEFAULT 'year';
ALTER TABLE employees ADD COLUMN accrual TEXT;
