-- 0024 in PostgreSQL's dialect: an access token that changes or ends adds a row naming its employee, marked `token`
-- (see 0023 and SQLite's file).
ALTER TABLE view_changes ADD COLUMN token BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION view_changes_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO view_changes (seq, employee_id, token) SELECT COALESCE(MAX(seq), 0) + 1, NEW.employee_id, 1 FROM view_changes;
    END IF;
    INSERT INTO view_changes (seq, employee_id, token) SELECT COALESCE(MAX(seq), 0) + 1, OLD.employee_id, 1 FROM view_changes;
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_token_update AFTER UPDATE ON auth_tokens
FOR EACH ROW EXECUTE FUNCTION view_changes_token();
CREATE TRIGGER view_changes_token_delete AFTER DELETE ON auth_tokens
FOR EACH ROW EXECUTE FUNCTION view_changes_token();
-- TRUNCATE skips row triggers.
CREATE TRIGGER view_changes_token_truncate AFTER TRUNCATE ON auth_tokens FOR EACH STATEMENT EXECUTE FUNCTION view_changes_everyone();
