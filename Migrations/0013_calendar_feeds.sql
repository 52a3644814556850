-- Calendar feeds: calendar apps cannot send an Authorization header, so an employee makes a feed whose address
-- carries a random secret. Only the secret's SHA-256 digest is kept; revoking a feed deletes its row, and the
-- address answers 404 from then on. A feed shows nothing while its owner is deactivated.
CREATE TABLE calendar_feeds (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    kind TEXT NOT NULL CHECK (kind IN ('personal', 'company')),
    secret_digest BLOB NOT NULL UNIQUE CHECK (length(secret_digest) = 32),
    created_at TEXT NOT NULL
);
CREATE INDEX calendar_feeds_employee ON calendar_feeds(employee_id, id);
