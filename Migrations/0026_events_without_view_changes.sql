-- Every event of a request is written with the request's insert or change, whose row (0023) already names the
-- employee, and no kept view shows a request's history: the event's own row only cost each create and decision a
-- lookup and an insert.
DROP TRIGGER view_changes_event_insert;
