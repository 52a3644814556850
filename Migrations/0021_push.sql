-- Push to devices: the outbox carries push messages beside e-mail and webhooks, a device may be a browser's Web
-- Push subscription, the server records which push platforms it sends to (and its VAPID public key, which web
-- clients need to subscribe), and each employee has a language for what they are sent.

-- The language of an employee's push messages (and of what comes later): 'en' or 'es'.
ALTER TABLE employees ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'es'));

-- The platforms the server sends push to, space-separated ('ios android web'); '' when none.
ALTER TABLE delivery_settings ADD COLUMN push_platforms TEXT NOT NULL DEFAULT '';
-- base64url of the uncompressed P-256 point of the server's VAPID key; '' without Web Push.
ALTER TABLE delivery_settings ADD COLUMN vapid_public_key TEXT NOT NULL DEFAULT '';

-- SQLite cannot change a CHECK: the two tables are made again with the new ones and their rows copied.
CREATE TABLE devices_new (
    -- The token APNs or FCM issued, or for a web device 'web_' and the base64url of the SHA-256 of its endpoint.
    token TEXT PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    platform TEXT NOT NULL CHECK (platform IN ('ios', 'android', 'web')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    -- A web device's subscription as the browser gave it: the push service's https URL, the browser's P-256 key
    -- (base64url, 65 bytes uncompressed) and its authentication secret (base64url, 16 bytes).
    endpoint TEXT,
    p256dh TEXT,
    auth TEXT,
    CHECK ((platform = 'web') = (endpoint IS NOT NULL AND p256dh IS NOT NULL AND auth IS NOT NULL))
) WITHOUT ROWID;
INSERT INTO devices_new (token, employee_id, platform, created_at, updated_at)
SELECT token, employee_id, platform, created_at, updated_at FROM devices;
DROP TABLE devices;
ALTER TABLE devices_new RENAME TO devices;
CREATE INDEX devices_employee ON devices(employee_id);

CREATE TABLE outbox_new (
    id INTEGER PRIMARY KEY,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook', 'push')),
    event TEXT NOT NULL,
    employee_id INTEGER REFERENCES employees(id),
    -- No foreign key: a removed subscription's messages stay for inspection.
    webhook_id INTEGER,
    -- An e-mail address, a URL, or a device's token (push).
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
    lease_owner TEXT,
    lease_until TEXT,
    sent_at TEXT,
    last_error TEXT
);
INSERT INTO outbox_new SELECT id, channel, event, employee_id, webhook_id, address, recipient_name, subject, body,
    dedupe_key, status, attempts, created_at, next_attempt_at, give_up_at, lease_owner, lease_until, sent_at, last_error
FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox(next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_status ON outbox(status, id);
