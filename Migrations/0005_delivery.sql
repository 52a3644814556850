-- Delivery: the outbox of messages written with the events they report, webhook subscriptions, how the server
-- delivers (for sgadmin and other servers to compose messages alike), each employee's e-mail switch, and
-- password-reset tokens.

-- Whether the employee wants e-mail of their requests' moves, of requests to decide and of company notices.
ALTER TABLE employees ADD COLUMN email_notifications INTEGER NOT NULL DEFAULT 1 CHECK (email_notifications IN (0, 1));

CREATE TABLE delivery_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    email_enabled INTEGER NOT NULL DEFAULT 0 CHECK (email_enabled IN (0, 1)),
    -- The base of links in messages, without a trailing slash; '' when the server has none.
    public_url TEXT NOT NULL DEFAULT ''
);
INSERT INTO delivery_settings (id) VALUES (1);

CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    -- Event names separated by single spaces, e.g. 'holiday.requested holiday.approved'.
    events TEXT NOT NULL CHECK (events <> ''),
    format TEXT NOT NULL DEFAULT 'standard' CHECK (format IN ('standard', 'slack')),
    -- 'whsec_' and the base64 of the signing key (Standard Webhooks).
    secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    -- Set when the endpoint answered 410 Gone.
    disabled_at TEXT,
    disabled_reason TEXT
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
    event TEXT NOT NULL,
    employee_id INTEGER REFERENCES employees(id),
    -- No foreign key: a removed subscription's messages stay for inspection.
    webhook_id INTEGER,
    -- An e-mail address or a URL.
    address TEXT NOT NULL,
    recipient_name TEXT NOT NULL DEFAULT '',
    subject TEXT NOT NULL DEFAULT '',
    body TEXT NOT NULL,
    dedupe_key TEXT UNIQUE,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dead')),
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    created_at TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    give_up_at TEXT NOT NULL,
    -- The worker holding the message, until lease_until.
    lease_owner TEXT,
    lease_until TEXT,
    sent_at TEXT,
    last_error TEXT
);
-- The worker's claim: due pending messages, oldest due first.
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_status ON outbox(status, id);

CREATE TABLE password_resets (
    token_hash BLOB PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
) WITHOUT ROWID;
CREATE INDEX password_resets_employee ON password_resets(employee_id);
