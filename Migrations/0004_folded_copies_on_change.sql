-- The directory's folded copies (0002) were cleared whenever one of their source columns was written, even with
-- the value it already held: every directory login rewrites name, surname and e-mail, so each one cleared them,
-- and the next directory read had to refill them in a write transaction. Clear them only when a value changes.
DROP TRIGGER employees_folded_stale;
CREATE TRIGGER employees_folded_stale AFTER UPDATE OF name, surname, email, username, position ON employees
WHEN NEW.search_text IS OLD.search_text
 AND (NEW.name IS NOT OLD.name OR NEW.surname IS NOT OLD.surname OR NEW.email IS NOT OLD.email
      OR NEW.username IS NOT OLD.username OR NEW.position IS NOT OLD.position)
BEGIN UPDATE employees SET search_text = NULL, sort_key = NULL WHERE id = NEW.id; END;
