-- A session is one login on one device. It holds one live refresh token (stored as its digest; the client trades
-- it for a new access token and a new refresh token) and the access tokens it was given (auth_tokens). Ending a
-- session ends them all at once (ON DELETE CASCADE).
--
-- `handle` is random and travels inside the session's refresh tokens, so a token names its session: a token that
-- names a session but is not its live one (one already used) ends that session, without keeping every used token.
-- Sessions from before this migration have neither handle nor refresh token, and end when their token does.
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    employee_id INTEGER NOT NULL REFERENCES employees(id),
    handle TEXT UNIQUE,
    refresh_hash BLOB,
    -- The newest access token: a refresh keeps it (requests may be under way with it) and ends the older ones.
    access_hash BLOB,
    created_at TEXT NOT NULL,
    last_used_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    user_agent TEXT,
    device_name TEXT
);
CREATE INDEX sessions_employee ON sessions(employee_id);
-- Swept at every login and refresh, as auth_tokens are (0015).
CREATE INDEX sessions_expiry ON sessions(expires_at);

ALTER TABLE auth_tokens ADD COLUMN session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE;
CREATE INDEX auth_tokens_session ON auth_tokens(session_id);

-- Every token issued before sessions existed becomes a session of its own, so that nobody is logged out.
CREATE TEMP TABLE token_sessions (token_hash BLOB PRIMARY KEY, id INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO token_sessions (token_hash, id)
    SELECT token_hash, row_number() OVER (ORDER BY created_at, token_hash) FROM auth_tokens;
INSERT INTO sessions (id, employee_id, created_at, last_used_at, expires_at)
    SELECT s.id, t.employee_id, t.created_at, t.created_at, t.expires_at
    FROM auth_tokens t JOIN token_sessions s ON s.token_hash = t.token_hash;
UPDATE auth_tokens SET session_id = (SELECT id FROM token_sessions s WHERE s.token_hash = auth_tokens.token_hash);
DROP TABLE token_sessions;
