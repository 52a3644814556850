-- The answers of changes sent with an Idempotency-Key header, so that a client retrying after a dropped
-- connection gets the same answer again instead of a second request or a second decision. A key is the
-- employee's own: another employee's key never collides. Each row is written in the transaction of the change
-- it answers, so a change is never kept without its answer nor an answer without its change. Rows older than
-- a day are swept by the next change sent with a key.
CREATE TABLE idempotency_keys (
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    key TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    -- "POST /v1/holidays/42/approve": a key sent again to another route is a key reused.
    route TEXT NOT NULL,
    -- SHA-256 (hex) of the route and the request's body: a key sent again with another body is a key reused.
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL CHECK (status BETWEEN 200 AND 299),
    -- The answer's headers a replay repeats (Location, ETag), as a JSON object.
    headers TEXT NOT NULL,
    body BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (employee_id, key)
) WITHOUT ROWID;
CREATE INDEX idempotency_keys_created ON idempotency_keys(created_at);
