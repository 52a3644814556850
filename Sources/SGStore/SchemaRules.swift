import Foundation
import SGCore
import SGSQLite

/// The schema's copy of rules the core states: which statuses hold days and how a balance counts them
/// (`HolidayStatus.heldAs`), and the moves of the state machine (`HolidayAction`). The triggers that keep held_days,
/// on each engine, and the invariants that `sgadmin check` runs are written from them here, so a rule changes in the
/// core alone: the next migration of a database (`install`) replaces its triggers and recounts its held days.
enum SchemaRules {
    // MARK: The rules as SQL

    /// `column` names a status that holds days. Compared one by one, not with `IN (...)`: SQLite builds a temporary
    /// table for a list of three constants or more at every run.
    static func holds(_ column: String) -> String { anyOf(column, HolidayStatus.allCases.filter(\.holdsDays)) }
    /// `column` names a status whose days a balance counts as approved.
    static func countsApproved(_ column: String) -> String { anyOf(column, HolidayStatus.allCases.filter { $0.heldAs == .approved }) }
    /// `column` names a status whose days a balance counts as pending.
    static func countsPending(_ column: String) -> String { anyOf(column, HolidayStatus.allCases.filter { $0.heldAs == .pending }) }

    private static func anyOf(_ column: String, _ statuses: [HolidayStatus]) -> String {
        "(" + statuses.map { "\(column) = '\($0.rawValue)'" }.joined(separator: " OR ") + ")"
    }

    /// Every move the state machine allows, as `'from>to'` items of an SQL list: each action from each state it
    /// leaves, to each state it may lead to (an approval in a two-stage team by the team, or by an admin).
    static var moves: String {
        var pairs: [String] = []
        for action in HolidayAction.allCases {
            for from in HolidayStatus.allCases where action.from.contains(from) {
                for twoStage in [false, true] {
                    for byAdmin in [false, true] {
                        let pair = "'\(from.rawValue)>\(action.target(from: from, twoStage: twoStage, byAdmin: byAdmin).rawValue)'"
                        if !pairs.contains(pair) { pairs.append(pair) }
                    }
                }
            }
        }
        return "(" + pairs.joined(separator: ", ") + ")"
    }

    /// The states a request is created in: pending, or approved for a type that needs no approval.
    static var createdIn: String { "('\(HolidayStatus.pending.rawValue)', '\(HolidayStatus.approved.rawValue)')" }

    /// `template` with each rule placeholder filled: `{{holds COLUMN}}`, `{{approved COLUMN}}`, `{{pending COLUMN}}`,
    /// `{{moves}}` and `{{created}}`.
    static func fill(_ template: String) -> String {
        var text = template.replacingOccurrences(of: "{{moves}}", with: moves).replacingOccurrences(of: "{{created}}", with: createdIn)
        for (name, predicate) in [("holds", holds), ("approved", countsApproved), ("pending", countsPending)] as [(String, (String) -> String)] {
            while let open = text.range(of: "{{\(name) "), let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) {
                text.replaceSubrange(open.lowerBound..<close.upperBound, with: predicate(String(text[open.upperBound..<close.lowerBound])))
            }
        }
        return text
    }

    // MARK: The triggers that keep held_days

    /// SQLite's: statements, each replacing the trigger of its name.
    static var sqlite: [String] {
        let expiry = { (year: String, column: String) in "printf('%04d-', \(year)) || \(column)" }
        return [
            "DROP TRIGGER IF EXISTS held_days_new_request",
            """
            CREATE TRIGGER held_days_new_request AFTER INSERT ON holiday_request_days
            WHEN (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
            BEGIN
                INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry)
                SELECT NEW.employee_id, NEW.year,
                       CASE WHEN \(countsApproved("r.status")) THEN NEW.halves ELSE 0 END,
                       CASE WHEN \(countsPending("r.status")) THEN NEW.halves ELSE 0 END,
                       CASE WHEN r.end_date <= e.expiry THEN NEW.halves ELSE 0 END,
                       r.start_date <= e.expiry AND r.end_date > e.expiry
                FROM holiday_requests r, (SELECT \(expiry("NEW.year", "carry_over_expiry")) AS expiry FROM company WHERE id = 1) e
                WHERE r.id = NEW.request_id AND \(holds("r.status"))
                ON CONFLICT (employee_id, year) DO UPDATE SET
                    approved_halves = approved_halves + excluded.approved_halves,
                    pending_halves = pending_halves + excluded.pending_halves,
                    by_expiry_halves = by_expiry_halves + excluded.by_expiry_halves,
                    spanning_expiry = spanning_expiry + excluded.spanning_expiry;
            END
            """,
            "DROP TRIGGER IF EXISTS held_days_status",
            // A trigger has no variables: each delta repeats its predicate (computing them once, in a subquery of the
            // FROM list, made every move slower).
            """
            CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests
            WHEN OLD.status != NEW.status AND (\(holds("OLD.status")) OR \(holds("NEW.status")))
             AND (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1
            BEGIN
                INSERT INTO held_days (employee_id, year)
                SELECT NEW.employee_id, d.year FROM holiday_request_days d
                WHERE d.request_id = NEW.id AND NOT \(holds("OLD.status"))
                ON CONFLICT (employee_id, year) DO NOTHING;
                UPDATE held_days SET (approved_halves, pending_halves, by_expiry_halves, spanning_expiry) = (
                    SELECT approved_halves + (\(countsApproved("NEW.status")) - \(countsApproved("OLD.status"))) * d.halves,
                           pending_halves + (\(countsPending("NEW.status")) - \(countsPending("OLD.status"))) * d.halves,
                           by_expiry_halves + (\(holds("NEW.status")) - \(holds("OLD.status")))
                               * (CASE WHEN NEW.end_date <= \(expiry("d.year", "c.carry_over_expiry")) THEN d.halves ELSE 0 END),
                           spanning_expiry + (\(holds("NEW.status")) - \(holds("OLD.status")))
                               * (NEW.start_date <= \(expiry("d.year", "c.carry_over_expiry"))
                                  AND NEW.end_date > \(expiry("d.year", "c.carry_over_expiry")))
                    FROM holiday_request_days d, company c
                    WHERE d.request_id = NEW.id AND d.year = held_days.year AND c.id = 1)
                WHERE employee_id = NEW.employee_id
                  AND EXISTS (SELECT 1 FROM holiday_request_days d WHERE d.request_id = NEW.id AND d.year = held_days.year);
            END
            """,
            "DROP TRIGGER IF EXISTS held_days_expiry",
            """
            CREATE TRIGGER held_days_expiry AFTER UPDATE OF carry_over_expiry ON company
            WHEN OLD.carry_over_expiry != NEW.carry_over_expiry
            BEGIN
                \(expiryMoved(expiry: expiry));
            END
            """,
        ] + recount(expiry: expiry)
    }

    /// PostgreSQL's: the triggers' functions, replaced, and the triggers recreated.
    static var postgres: [String] {
        let expiry = { (year: String, column: String) in "sg_expiry(\(year), \(column))" }
        return [
            """
            CREATE OR REPLACE FUNCTION held_days_new_request() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1 THEN
                    INSERT INTO held_days AS h (employee_id, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry)
                    SELECT NEW.employee_id, NEW.year,
                           CASE WHEN \(countsApproved("r.status")) THEN NEW.halves ELSE 0 END,
                           CASE WHEN \(countsPending("r.status")) THEN NEW.halves ELSE 0 END,
                           CASE WHEN r.end_date <= e.expiry THEN NEW.halves ELSE 0 END,
                           (r.start_date <= e.expiry AND r.end_date > e.expiry)::int
                    FROM holiday_requests r, (SELECT \(expiry("NEW.year", "carry_over_expiry")) AS expiry FROM company WHERE id = 1) e
                    WHERE r.id = NEW.request_id AND \(holds("r.status"))
                    ON CONFLICT (employee_id, year) DO UPDATE SET
                        approved_halves = h.approved_halves + excluded.approved_halves,
                        pending_halves = h.pending_halves + excluded.pending_halves,
                        by_expiry_halves = h.by_expiry_halves + excluded.by_expiry_halves,
                        spanning_expiry = h.spanning_expiry + excluded.spanning_expiry;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION held_days_status() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF (SELECT draws_on_allowance FROM leave_types WHERE id = NEW.leave_type_id) = 1 THEN
                    INSERT INTO held_days (employee_id, year)
                    SELECT NEW.employee_id, d.year FROM holiday_request_days d WHERE d.request_id = NEW.id
                    ON CONFLICT (employee_id, year) DO NOTHING;
                    UPDATE held_days SET
                        approved_halves = approved_halves
                            + (\(countsApproved("NEW.status"))::int - \(countsApproved("OLD.status"))::int) * d.halves,
                        pending_halves = pending_halves
                            + (\(countsPending("NEW.status"))::int - \(countsPending("OLD.status"))::int) * d.halves,
                        by_expiry_halves = by_expiry_halves + d.held * (CASE WHEN NEW.end_date <= d.expiry THEN d.halves ELSE 0 END),
                        spanning_expiry = spanning_expiry + d.held * (NEW.start_date <= d.expiry AND NEW.end_date > d.expiry)::int
                    FROM (
                        SELECT days.year, days.halves, \(expiry("days.year", "c.carry_over_expiry")) AS expiry,
                               \(holds("NEW.status"))::int - \(holds("OLD.status"))::int AS held
                        FROM holiday_request_days days JOIN company c ON c.id = 1
                        WHERE days.request_id = NEW.id) AS d
                    WHERE held_days.employee_id = NEW.employee_id AND held_days.year = d.year;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION held_days_expiry() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                \(expiryMoved(expiry: expiry));
                RETURN NULL;
            END
            $$
            """,
            "DROP TRIGGER IF EXISTS held_days_new_request ON holiday_request_days",
            "CREATE TRIGGER held_days_new_request AFTER INSERT ON holiday_request_days FOR EACH ROW EXECUTE FUNCTION held_days_new_request()",
            "DROP TRIGGER IF EXISTS held_days_status ON holiday_requests",
            """
            CREATE TRIGGER held_days_status AFTER UPDATE OF status ON holiday_requests FOR EACH ROW
            WHEN (OLD.status <> NEW.status AND (\(holds("OLD.status")) OR \(holds("NEW.status"))))
            EXECUTE FUNCTION held_days_status()
            """,
            "DROP TRIGGER IF EXISTS held_days_expiry ON company",
            """
            CREATE TRIGGER held_days_expiry AFTER UPDATE OF carry_over_expiry ON company FOR EACH ROW
            WHEN (OLD.carry_over_expiry <> NEW.carry_over_expiry) EXECUTE FUNCTION held_days_expiry()
            """,
        ] + recount(expiry: expiry, integers: "::int")
    }

    /// When the carried days' expiry moves, which held days fall before it and which requests span it, counted again
    /// for every employee-year.
    private static func expiryMoved(expiry: (String, String) -> String) -> String {
        """
        UPDATE held_days SET (by_expiry_halves, spanning_expiry) = (
                SELECT COALESCE(SUM(CASE WHEN r.end_date <= \(expiry("d.year", "NEW.carry_over_expiry")) THEN d.halves ELSE 0 END), 0),
                       COUNT(CASE WHEN r.start_date <= \(expiry("d.year", "NEW.carry_over_expiry"))
                                   AND r.end_date > \(expiry("d.year", "NEW.carry_over_expiry")) THEN 1 END)
                FROM holiday_request_days d
                JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
                JOIN holiday_requests r ON r.id = d.request_id
                WHERE d.employee_id = held_days.employee_id AND d.year = held_days.year AND \(holds("r.status")))
        """
    }

    /// Every employee-year's held days counted again from the requests, by the rule: what the triggers would have
    /// kept had the rule always been this one.
    private static func recount(expiry: (String, String) -> String, integers cast: String = "") -> [String] {
        [
            "DELETE FROM held_days",
            """
            INSERT INTO held_days (employee_id, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry)
            SELECT d.employee_id, d.year,
                   SUM(CASE WHEN \(countsApproved("r.status")) THEN d.halves ELSE 0 END),
                   SUM(CASE WHEN \(countsPending("r.status")) THEN d.halves ELSE 0 END),
                   SUM(CASE WHEN r.end_date <= \(expiry("d.year", "c.carry_over_expiry")) THEN d.halves ELSE 0 END),
                   SUM((r.start_date <= \(expiry("d.year", "c.carry_over_expiry"))
                        AND r.end_date > \(expiry("d.year", "c.carry_over_expiry")))\(cast))
            FROM holiday_request_days d JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
            JOIN holiday_requests r ON r.id = d.request_id JOIN company c ON c.id = 1
            WHERE \(holds("r.status"))
            GROUP BY d.employee_id, d.year
            """,
        ]
    }

    // MARK: Installing them

    /// A digest of what `install` writes on `dialect`: a database whose recorded digest differs has older rules.
    static func digest(_ dialect: SQLDialect) -> String {
        Digests.sha256Hex(Array((dialect == .sqlite ? sqlite : postgres).joined(separator: ";\n").utf8), prefix: 32)
    }

    /// Whether the database's triggers and held days follow today's rules (`schema_rules`, migration 0030).
    static func isCurrent(_ connection: SQLConnection) throws -> Bool {
        try recordedDigest(connection) == digest(connection.dialect)
    }

    private static func recordedDigest(_ connection: SQLConnection) throws -> String? {
        try connection.with("SELECT digest FROM schema_rules WHERE id = 1") { statement in
            try statement.step() ? statement.text(0) : nil
        }
    }

    /// On SQLite: replaces the triggers and recounts the held days when the database's rules are not today's, in
    /// the caller's write transaction. Says whether it did. (PostgreSQL's migration does the same with its script.)
    @discardableResult
    static func install(_ connection: SQLConnection) throws -> Bool {
        let wanted = digest(.sqlite)
        guard try recordedDigest(connection) != wanted else { return false }
        for sql in sqlite { try connection.execute(sql) }
        try connection.execute("UPDATE schema_rules SET digest = ? WHERE id = 1") { $0.bind(1, wanted) }
        return true
    }
}
