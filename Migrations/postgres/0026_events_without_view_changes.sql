-- 0026 in PostgreSQL's dialect (see ../0026_events_without_view_changes.sql).
DROP TRIGGER view_changes_event_insert ON holiday_events;
DROP FUNCTION view_changes_event();
