-- The company's calendar feed reads the approved requests around today: a partial index by start date keeps that read
-- to the feed's window instead of every approved request the company ever had.
CREATE INDEX holiday_requests_approved_start ON holiday_requests(start_date) WHERE status = 'approved';
