-- The access tokens a server keeps for every request (found by digest, see 0023): a token that changes or ends
-- (logout, refresh, an ended session, the sweep of expired ones) adds a row naming its employee, marked `token`, so
-- that every server forgets that employee's tokens at its next request, whichever process made the change. The
-- caches of views, which show no token, pass over these rows: a refresh every quarter of an hour per employee must
-- not cost them anything. A new token needs no row: none is kept yet.
ALTER TABLE view_changes ADD COLUMN token INTEGER NOT NULL DEFAULT 0;
CREATE TRIGGER view_changes_token_update AFTER UPDATE ON auth_tokens
BEGIN INSERT INTO view_changes (employee_id, token) VALUES (NEW.employee_id, 1), (OLD.employee_id, 1); END;
CREATE TRIGGER view_changes_token_delete AFTER DELETE ON auth_tokens
BEGIN INSERT INTO view_changes (employee_id, token) VALUES (OLD.employee_id, 1); END;
