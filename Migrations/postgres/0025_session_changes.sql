-- 0025 in PostgreSQL's dialect (see ../0025_session_changes.sql): an employee's own row changing where a session
-- shows it adds a row marked `token`; an emptied auth_tokens is everyone's tokens, marked so.
CREATE FUNCTION view_changes_employee_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO view_changes (seq, employee_id, token) SELECT COALESCE(MAX(seq), 0) + 1, NEW.id, 1 FROM view_changes;
    IF OLD.id IS DISTINCT FROM NEW.id THEN
        INSERT INTO view_changes (seq, employee_id, token) SELECT COALESCE(MAX(seq), 0) + 1, OLD.id, 1 FROM view_changes;
    END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_employee_token AFTER UPDATE ON employees
FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name
    OR OLD.surname IS DISTINCT FROM NEW.surname OR OLD.email IS DISTINCT FROM NEW.email
    OR OLD.is_admin IS DISTINCT FROM NEW.is_admin OR OLD.is_active IS DISTINCT FROM NEW.is_active
    OR OLD.id IS DISTINCT FROM NEW.id)
EXECUTE FUNCTION view_changes_employee_token();

-- TRUNCATE skips row triggers: it names no one, and is a change of tokens.
CREATE FUNCTION view_changes_every_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO view_changes (seq, employee_id, token) SELECT COALESCE(MAX(seq), 0) + 1, NULL, 1 FROM view_changes;
    RETURN NULL;
END;
$$;
DROP TRIGGER view_changes_token_truncate ON auth_tokens;
CREATE TRIGGER view_changes_token_truncate AFTER TRUNCATE ON auth_tokens FOR EACH STATEMENT EXECUTE FUNCTION view_changes_every_token();
