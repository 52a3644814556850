-- 0023 in PostgreSQL's dialect: the same table and triggers (see ../0023_view_changes.sql). A row's number is the
-- last one plus one, as SQLite gives it, not a sequence's: writers take one advisory lock per transaction, so rows
-- are numbered in the order their transactions commit, and a sequence would also become the session's lastval(),
-- by which the store learns the id of the row it has just inserted.
CREATE TABLE view_changes (
    seq BIGINT PRIMARY KEY,
    employee_id BIGINT
);

CREATE FUNCTION view_changes_add(employee BIGINT) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO view_changes (seq, employee_id) SELECT COALESCE(MAX(seq), 0) + 1, employee FROM view_changes;
$$;

CREATE FUNCTION view_changes_kept_short() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM view_changes WHERE seq <= NEW.seq - 10000;
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_kept_short AFTER INSERT ON view_changes
FOR EACH ROW WHEN (NEW.seq % 1000 = 0) EXECUTE FUNCTION view_changes_kept_short();

-- The row's employee (TG_ARGV[0]: the column that names them), before and after a change.
CREATE FUNCTION view_changes_of_employee() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    before BIGINT;
    after BIGINT;
BEGIN
    IF TG_OP <> 'INSERT' THEN before := (to_jsonb(OLD) ->> TG_ARGV[0])::BIGINT; END IF;
    IF TG_OP <> 'DELETE' THEN after := (to_jsonb(NEW) ->> TG_ARGV[0])::BIGINT; END IF;
    IF after IS NOT NULL THEN PERFORM view_changes_add(after); END IF;
    IF before IS NOT NULL AND before IS DISTINCT FROM after THEN PERFORM view_changes_add(before); END IF;
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_request_insert AFTER INSERT ON holiday_requests
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_request_update AFTER UPDATE ON holiday_requests
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_request_days_insert AFTER INSERT ON holiday_request_days
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_request_days_delete AFTER DELETE ON holiday_request_days
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_allowance_insert AFTER INSERT ON allowances
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_allowance_update AFTER UPDATE ON allowances
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_allowance_delete AFTER DELETE ON allowances
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_allowance_change_insert AFTER INSERT ON allowance_changes
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_working_week_insert AFTER INSERT ON working_weeks
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_working_week_update AFTER UPDATE ON working_weeks
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');
CREATE TRIGGER view_changes_working_week_delete AFTER DELETE ON working_weeks
FOR EACH ROW EXECUTE FUNCTION view_changes_of_employee('employee_id');

CREATE FUNCTION view_changes_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM view_changes_add(employee_id) FROM holiday_requests WHERE id = NEW.request_id;
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_event_insert AFTER INSERT ON holiday_events
FOR EACH ROW EXECUTE FUNCTION view_changes_event();

CREATE FUNCTION view_changes_employee_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM view_changes_add(
        CASE WHEN OLD.name IS DISTINCT FROM NEW.name OR OLD.surname IS DISTINCT FROM NEW.surname
                  OR OLD.is_admin IS DISTINCT FROM NEW.is_admin OR OLD.is_active IS DISTINCT FROM NEW.is_active
                  OR OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.id IS DISTINCT FROM NEW.id
             THEN NULL ELSE NEW.id END);
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_employee_update AFTER UPDATE ON employees
FOR EACH ROW EXECUTE FUNCTION view_changes_employee_update();

-- Everyone's views. Row triggers, as on SQLite (a statement that changes no row adds nothing there either).
CREATE FUNCTION view_changes_everyone() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM view_changes_add(NULL);
    RETURN NULL;
END;
$$;
CREATE TRIGGER view_changes_employee_insert AFTER INSERT ON employees FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_employee_delete AFTER DELETE ON employees FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_company_update AFTER UPDATE ON company FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_leave_type_insert AFTER INSERT ON leave_types FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_leave_type_update AFTER UPDATE ON leave_types FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_leave_type_delete AFTER DELETE ON leave_types FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_calendar_insert AFTER INSERT ON holiday_calendars FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_calendar_update AFTER UPDATE ON holiday_calendars FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_calendar_delete AFTER DELETE ON holiday_calendars FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_public_holiday_insert AFTER INSERT ON public_holidays FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_public_holiday_update AFTER UPDATE ON public_holidays FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_public_holiday_delete AFTER DELETE ON public_holidays FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_insert AFTER INSERT ON teams FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_update AFTER UPDATE ON teams FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_delete AFTER DELETE ON teams FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_approver_insert AFTER INSERT ON team_approvers FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_approver_update AFTER UPDATE ON team_approvers FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_team_approver_delete AFTER DELETE ON team_approvers FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_delegation_insert AFTER INSERT ON delegations FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_delegation_update AFTER UPDATE ON delegations FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
CREATE TRIGGER view_changes_delegation_delete AFTER DELETE ON delegations FOR EACH ROW EXECUTE FUNCTION view_changes_everyone();
-- TRUNCATE skips row triggers.
CREATE TRIGGER view_changes_request_truncate AFTER TRUNCATE ON holiday_requests FOR EACH STATEMENT EXECUTE FUNCTION view_changes_everyone();
