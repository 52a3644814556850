-- The access tokens a server keeps for every request (found by digest, see 0023): a token that changes or ends
-- (logout, refresh, an ended session, the sweep of expired ones) is its employee's change, so that every server
-- forgets it at its next request, whichever process made the change. A new token needs no row: none is kept yet.
CREATE TRIGGER view_changes_token_update AFTER UPDATE ON auth_tokens
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id), (OLD.employee_id); END;
CREATE TRIGGER view_changes_token_delete AFTER DELETE ON auth_tokens
BEGIN INSERT INTO view_changes (employee_id) VALUES (OLD.employee_id); END;
