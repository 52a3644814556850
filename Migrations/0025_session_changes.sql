-- A server keeps every live access token with the session it opens, and a session shows only its employee's own row
-- (username, name, e-mail, role, whether active): the rows of 0024 marked `token` now also name an employee whose
-- row changes there, so that kept tokens can follow those rows alone and outlive the changes of anyone's views (a
-- company setting, a leave type, a team, a calendar), which no session shows.
CREATE TRIGGER view_changes_employee_token AFTER UPDATE ON employees
WHEN OLD.username IS NOT NEW.username OR OLD.name IS NOT NEW.name OR OLD.surname IS NOT NEW.surname
  OR OLD.email IS NOT NEW.email OR OLD.is_admin IS NOT NEW.is_admin OR OLD.is_active IS NOT NEW.is_active
  OR OLD.id IS NOT NEW.id
BEGIN
    INSERT INTO view_changes (employee_id, token) VALUES (NEW.id, 1);
    INSERT INTO view_changes (employee_id, token) SELECT OLD.id, 1 WHERE OLD.id IS NOT NEW.id;
END;
