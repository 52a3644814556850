-- What each commit changed, for the caches of computed views (an employee's year): every change to a table a view
-- reads adds a row naming the employee whose views it changes, or NULL when it may change anyone's. A server that
-- sees a commit (by itself, sgadmin or any other process) reads the rows after the last one it has seen and forgets
-- only those employees' views. Kept short: every thousandth row drops the rows older than the last ten thousand; a
-- reader that finds a gap after its last row forgets everything.
CREATE TABLE view_changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    employee_id INTEGER
);
CREATE TRIGGER view_changes_kept_short AFTER INSERT ON view_changes WHEN NEW.seq % 1000 = 0
BEGIN DELETE FROM view_changes WHERE seq <= NEW.seq - 10000; END;

-- One employee's views. held_days is kept by triggers on these tables, in the same statements.
CREATE TRIGGER view_changes_request_insert AFTER INSERT ON holiday_requests
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_request_update AFTER UPDATE ON holiday_requests
BEGIN
    INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id);
    INSERT INTO view_changes (employee_id) SELECT OLD.employee_id WHERE OLD.employee_id IS NOT NEW.employee_id;
END;
CREATE TRIGGER view_changes_request_days_insert AFTER INSERT ON holiday_request_days
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_request_days_delete AFTER DELETE ON holiday_request_days
BEGIN INSERT INTO view_changes (employee_id) VALUES (OLD.employee_id); END;
CREATE TRIGGER view_changes_event_insert AFTER INSERT ON holiday_events
BEGIN INSERT INTO view_changes (employee_id) SELECT employee_id FROM holiday_requests WHERE id = NEW.request_id; END;
CREATE TRIGGER view_changes_allowance_insert AFTER INSERT ON allowances
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_allowance_update AFTER UPDATE ON allowances
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id), (OLD.employee_id); END;
CREATE TRIGGER view_changes_allowance_delete AFTER DELETE ON allowances
BEGIN INSERT INTO view_changes (employee_id) VALUES (OLD.employee_id); END;
CREATE TRIGGER view_changes_allowance_change_insert AFTER INSERT ON allowance_changes
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_working_week_insert AFTER INSERT ON working_weeks
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id); END;
CREATE TRIGGER view_changes_working_week_update AFTER UPDATE ON working_weeks
BEGIN INSERT INTO view_changes (employee_id) VALUES (NEW.employee_id), (OLD.employee_id); END;
CREATE TRIGGER view_changes_working_week_delete AFTER DELETE ON working_weeks
BEGIN INSERT INTO view_changes (employee_id) VALUES (OLD.employee_id); END;
-- An employee's own row; what other employees' views show of them (the approvers' names and roles, the team) is
-- everyone's.
CREATE TRIGGER view_changes_employee_update AFTER UPDATE ON employees
BEGIN
    INSERT INTO view_changes (employee_id) VALUES (
        CASE WHEN OLD.name IS NOT NEW.name OR OLD.surname IS NOT NEW.surname OR OLD.is_admin IS NOT NEW.is_admin
                  OR OLD.is_active IS NOT NEW.is_active OR OLD.team_id IS NOT NEW.team_id OR OLD.id IS NOT NEW.id
             THEN NULL ELSE NEW.id END);
END;

-- Everyone's views.
CREATE TRIGGER view_changes_employee_insert AFTER INSERT ON employees BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_employee_delete AFTER DELETE ON employees BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_company_update AFTER UPDATE ON company BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_leave_type_insert AFTER INSERT ON leave_types BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_leave_type_update AFTER UPDATE ON leave_types BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_leave_type_delete AFTER DELETE ON leave_types BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_calendar_insert AFTER INSERT ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_calendar_update AFTER UPDATE ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_calendar_delete AFTER DELETE ON holiday_calendars BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_public_holiday_insert AFTER INSERT ON public_holidays BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_public_holiday_update AFTER UPDATE ON public_holidays BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_public_holiday_delete AFTER DELETE ON public_holidays BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_insert AFTER INSERT ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_update AFTER UPDATE ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_delete AFTER DELETE ON teams BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_approver_insert AFTER INSERT ON team_approvers BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_approver_update AFTER UPDATE ON team_approvers BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_team_approver_delete AFTER DELETE ON team_approvers BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_delegation_insert AFTER INSERT ON delegations BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_delegation_update AFTER UPDATE ON delegations BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
CREATE TRIGGER view_changes_delegation_delete AFTER DELETE ON delegations BEGIN INSERT INTO view_changes (employee_id) VALUES (NULL); END;
