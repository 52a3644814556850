-- 0024 in PostgreSQL's dialect: an access token that changes or ends is its employee's change (see 0023).
CREATE TRIGGER view_changes_token_update AFTER UPDATE ON auth_tokens
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_token_delete AFTER DELETE ON auth_tokens
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
