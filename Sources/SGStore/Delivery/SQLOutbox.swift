import Foundation
import SGCore
import SGSQLite

/// The outbox, the audience of events and webhook subscriptions over one `SQLConnection`. The holiday and notice
/// transactions write their messages through it, in their own transaction.
struct SQLOutbox: OutboxTransaction, WebhookTransaction {
    let connection: SQLConnection

    func company() throws -> CompanySettings { try Rows.company(connection) }

    func approvalContext(employeeID: Int64, on day: CalendarDate) throws -> ApprovalContext {
        try SQLTeams(connection: connection).approvalContext(employeeID: employeeID, on: day)
    }

    func teamStageEmployees(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64] {
        try SQLTeams(connection: connection).teamStageEmployees(decidedBy: employeeID, on: day)
    }

    // MARK: Writing

    func enqueue(_ draft: OutboxDraft, at: Date, giveUpAt: Date) throws -> Bool {
        let now = Timestamp.format(at)
        try connection.execute(
            """
            INSERT INTO outbox (channel, event, employee_id, webhook_id, address, recipient_name, subject, body,
                                dedupe_key, created_at, next_attempt_at, give_up_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (dedupe_key) DO NOTHING
            """
        ) { statement in
            statement.bind(1, draft.channel.rawValue)
            statement.bind(2, draft.event.rawValue)
            statement.bind(3, draft.employeeID)
            statement.bind(4, draft.webhookID)
            statement.bind(5, draft.address)
            statement.bind(6, draft.recipientName)
            statement.bind(7, draft.subject)
            statement.bind(8, draft.body)
            statement.bind(9, draft.dedupeKey)
            statement.bind(10, now)
            statement.bind(11, now)
            statement.bind(12, Timestamp.format(giveUpAt))
        }
        return connection.changes > 0
    }

    // MARK: Audience

    func deliveryConfiguration() throws -> DeliveryConfiguration {
        try connection.with(
            "SELECT email_enabled, public_url, push_platforms, vapid_public_key FROM delivery_settings WHERE id = 1"
        ) { statement in
            try statement.step()
                ? DeliveryConfiguration(
                    emailEnabled: statement.bool(0), publicURL: statement.text(1),
                    pushPlatforms: Set(statement.text(2).split(separator: " ").compactMap { DevicePlatform(rawValue: String($0)) }),
                    vapidPublicKey: statement.text(3))
                : .off
        }
    }

    func saveDeliveryConfiguration(_ configuration: DeliveryConfiguration) throws {
        try connection.execute(
            """
            INSERT INTO delivery_settings (id, email_enabled, public_url, push_platforms, vapid_public_key) VALUES (1, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET email_enabled = excluded.email_enabled, public_url = excluded.public_url,
                push_platforms = excluded.push_platforms, vapid_public_key = excluded.vapid_public_key
            """
        ) { statement in
            statement.bind(1, configuration.emailEnabled ? 1 : 0)
            statement.bind(2, configuration.publicURL)
            statement.bind(3, configuration.pushPlatforms.map(\.rawValue).sorted().joined(separator: " "))
            statement.bind(4, configuration.vapidPublicKey)
        }
    }

    private static let recipientColumns = "id, name || ' ' || surname, email, email_notifications, language"

    private func recipients(where condition: String, _ bind: (SQLStatement) -> Void = { _ in }) throws -> [Recipient] {
        try connection.with("SELECT \(Self.recipientColumns) FROM employees WHERE \(condition) ORDER BY id") { statement in
            bind(statement)
            var found: [Recipient] = []
            while try statement.step() {
                found.append(Recipient(
                    employeeID: statement.int64(0), name: statement.text(1), email: statement.text(2),
                    wantsEmail: statement.bool(3), language: Language(rawValue: statement.text(4)) ?? .en))
            }
            return found
        }
    }

    func recipient(employeeID: Int64) throws -> Recipient? {
        try recipients(where: "id = ? AND is_active = 1") { $0.bind(1, employeeID) }.first
    }

    func recipients(employeeIDs: [Int64]) throws -> [Recipient] {
        guard !employeeIDs.isEmpty else { return [] }
        let found = try recipients(
            where: "id IN (SELECT value FROM \(connection.dialect.jsonValues("?1")) AS ids) AND is_active = 1"
        ) { $0.bind(1, jsonIDs: employeeIDs) }
        let byID = Dictionary(found.map { ($0.employeeID, $0) }, uniquingKeysWith: { first, _ in first })
        return employeeIDs.compactMap { byID[$0] }
    }

    func everyone() throws -> [Recipient] {
        try recipients(where: "is_active = 1")
    }

    func webhookSubscriptions(for event: DeliveryEvent) throws -> [WebhookSubscription] {
        // Events are stored space-separated; padding both sides makes the match exact.
        try webhooks(where: "disabled_at IS NULL AND \(connection.dialect.contains("' ' || events || ' '", "?"))") { $0.bind(1, " \(event.rawValue) ") }
    }

    func pushDevices(employeeID: Int64) throws -> [Device] {
        try connection.with(
            """
            SELECT \(SQLDevices.deviceColumns) FROM devices
            WHERE employee_id = ?1 AND EXISTS (SELECT 1 FROM employees WHERE id = ?1 AND is_active = 1 AND notifications = 1)
            ORDER BY created_at, token
            """
        ) { statement in
            statement.bind(1, employeeID)
            var devices: [Device] = []
            while try statement.step() { devices.append(try SQLDevices.device(statement)) }
            return devices
        }
    }

    func leaveTypeIsPrivate(id: Int64) throws -> Bool {
        try connection.with("SELECT is_private FROM leave_types WHERE id = ?") { statement in
            statement.bind(1, id)
            return try statement.step() ? statement.bool(0) : false
        }
    }

    func pushDevice(token: String) throws -> (employeeID: Int64, device: Device)? {
        try connection.with("SELECT \(SQLDevices.deviceColumns), employee_id FROM devices WHERE token = ?") { statement in
            statement.bind(1, token)
            return try statement.step() ? (statement.int64(SQLDevices.deviceColumnCount), try SQLDevices.device(statement)) : nil
        }
    }

    func removePushDevice(token: String, employeeID: Int64) throws {
        _ = try SQLDevices(connection: connection).deleteDevice(token: token, employeeID: employeeID)
    }

    // MARK: Webhooks

    private static let webhookColumns = "id, url, events, format, secret, created_at, disabled_at, disabled_reason, private_details"

    private func webhooks(where condition: String, _ bind: (SQLStatement) -> Void = { _ in }) throws -> [WebhookSubscription] {
        try connection.with("SELECT \(Self.webhookColumns) FROM webhooks WHERE \(condition) ORDER BY id") { statement in
            bind(statement)
            var found: [WebhookSubscription] = []
            while try statement.step() {
                guard let format = WebhookFormat(rawValue: statement.text(3)) else {
                    throw SGError.unreadableData("Webhook \(statement.int64(0)) holds data this program cannot read.")
                }
                found.append(WebhookSubscription(
                    id: statement.int64(0), url: statement.text(1),
                    events: statement.text(2).split(separator: " ").compactMap { DeliveryEvent(rawValue: String($0)) },
                    format: format, secret: statement.text(4), createdAt: try statement.timestamp(5),
                    disabledAt: try statement.optionalTimestamp(6), disabledReason: statement.optionalText(7),
                    privateDetails: statement.bool(8)))
            }
            return found
        }
    }

    func webhooks() throws -> [WebhookSubscription] { try webhooks(where: "TRUE") }

    func webhook(id: Int64) throws -> WebhookSubscription? {
        try webhooks(where: "id = ?") { $0.bind(1, id) }.first
    }

    func insertWebhook(
        url: String, events: [DeliveryEvent], format: WebhookFormat, privateDetails: Bool, secret: String, at: Date
    ) throws -> WebhookSubscription {
        try connection.execute(
            "INSERT INTO webhooks (url, events, format, secret, created_at, private_details) VALUES (?, ?, ?, ?, ?, ?)"
        ) { statement in
            statement.bind(1, url)
            statement.bind(2, events.map(\.rawValue).joined(separator: " "))
            statement.bind(3, format.rawValue)
            statement.bind(4, secret)
            statement.bind(5, Timestamp.format(at))
            statement.bind(6, privateDetails ? 1 : 0)
        }
        return try webhook(id: try connection.lastInsertedRowID)!
    }

    func deleteWebhook(id: Int64) throws -> Bool {
        try connection.execute("DELETE FROM webhooks WHERE id = ?") { $0.bind(1, id) }
        return connection.changes > 0
    }

    func disableWebhook(id: Int64, at: Date, reason: String) throws {
        try connection.execute(
            "UPDATE webhooks SET disabled_at = ?, disabled_reason = ? WHERE id = ? AND disabled_at IS NULL"
        ) { statement in
            statement.bind(1, Timestamp.format(at))
            statement.bind(2, reason)
            statement.bind(3, id)
        }
    }

    // MARK: Reading the outbox

    private static let messageColumns = """
        id, channel, event, employee_id, webhook_id, address, recipient_name, subject, body, dedupe_key, status,
        attempts, created_at, next_attempt_at, give_up_at, sent_at, last_error, lease_owner, lease_until
        """

    private static func message(_ statement: SQLStatement) throws -> OutboxMessage {
        guard let channel = DeliveryChannel(rawValue: statement.text(1)),
              let event = DeliveryEvent(rawValue: statement.text(2)),
              let status = OutboxStatus(rawValue: statement.text(10))
        else {
            throw SGError.unreadableData("Outbox message \(statement.int64(0)) holds data this program cannot read.")
        }
        return OutboxMessage(
            id: statement.int64(0),
            draft: OutboxDraft(
                channel: channel, event: event, employeeID: statement.optionalInt64(3), webhookID: statement.optionalInt64(4),
                address: statement.text(5), recipientName: statement.text(6), subject: statement.text(7),
                body: statement.text(8), dedupeKey: statement.optionalText(9)),
            status: status, attempts: statement.int(11), createdAt: try statement.timestamp(12),
            nextAttemptAt: try statement.timestamp(13), giveUpAt: try statement.timestamp(14),
            sentAt: try statement.optionalTimestamp(15), lastError: statement.optionalText(16),
            leaseOwner: statement.optionalText(17), leaseUntil: try statement.optionalTimestamp(18))
    }

    private func messages(_ sql: String, _ bind: (SQLStatement) -> Void) throws -> [OutboxMessage] {
        try connection.with(sql) { statement in
            bind(statement)
            var found: [OutboxMessage] = []
            while try statement.step() { found.append(try Self.message(statement)) }
            return found
        }
    }

    func outboxMessage(id: Int64) throws -> OutboxMessage? {
        try messages("SELECT \(Self.messageColumns) FROM outbox WHERE id = ?") { $0.bind(1, id) }.first
    }

    func outboxMessages(status: OutboxStatus?, afterID: Int64?, limit: Int) throws -> [OutboxMessage] {
        try messages(
            "SELECT \(Self.messageColumns) FROM outbox WHERE (?1 IS NULL OR status = ?1) AND id > ?2 ORDER BY id LIMIT ?3"
        ) { statement in
            statement.bind(1, status?.rawValue)
            statement.bind(2, afterID ?? 0)
            statement.bind(3, limit)
        }
    }

    func outboxCounts() throws -> [OutboxStatus: Int] {
        try connection.with("SELECT status, count(*) FROM outbox GROUP BY status") { statement in
            var counts = Dictionary(uniqueKeysWithValues: OutboxStatus.allCases.map { ($0, 0) })
            while try statement.step() {
                if let status = OutboxStatus(rawValue: statement.text(0)) { counts[status] = statement.int(1) }
            }
            return counts
        }
    }

    // MARK: The worker

    func claimDue(owner: String, now: Date, leaseUntil: Date, limit: Int, channels: Set<DeliveryChannel>) throws -> [OutboxMessage] {
        let now = Timestamp.format(now)
        return try messages(Self.claimSQL[connection.dialect]) { statement in
            statement.bind(1, owner)
            statement.bind(2, Timestamp.format(leaseUntil))
            statement.bind(3, now)
            statement.bind(4, limit)
            // The channels space-separated and padded, so the match is exact: " email webhook ".
            statement.bind(5, " " + channels.map(\.rawValue).sorted().joined(separator: " ") + " ")
        }.sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
    }

    /// The claim: the oldest due messages, through outbox_due, which gives them in order. Left to itself, SQLite's
    /// planner would take outbox_status and sort every pending message at each claim, holding the write lock meanwhile.
    static let claimSQL = DialectSQL { dialect in
        """
        UPDATE outbox SET lease_owner = ?1, lease_until = ?2, attempts = attempts + 1
        WHERE id IN (
            SELECT id FROM outbox INDEXED BY outbox_due
            WHERE status = 'pending' AND next_attempt_at <= ?3 AND (lease_until IS NULL OR lease_until <= ?3)
              AND \(dialect.contains("?5", "' ' || channel || ' '"))
            ORDER BY next_attempt_at, id LIMIT ?4)
        RETURNING \(messageColumns)
        """
    }

    /// Runs `sql` for message `id` held by `owner` (bound as ?1 and ?2); says whether a row changed.
    private func held(_ sql: String, id: Int64, owner: String?, _ bind: (SQLStatement) -> Void) throws -> Bool {
        try connection.execute(sql + " WHERE id = ?1 AND status = 'pending' AND (?2 IS NULL OR lease_owner = ?2)") { statement in
            statement.bind(1, id)
            statement.bind(2, owner)
            bind(statement)
        }
        return connection.changes > 0
    }

    func markSent(id: Int64, owner: String, at: Date) throws -> Bool {
        try held(
            "UPDATE outbox SET status = 'sent', sent_at = ?3, last_error = NULL, lease_owner = NULL, lease_until = NULL",
            id: id, owner: owner) { $0.bind(3, Timestamp.format(at)) }
    }

    func reschedule(id: Int64, owner: String, next: Date, error: String) throws -> Bool {
        try held(
            "UPDATE outbox SET next_attempt_at = ?3, last_error = ?4, lease_owner = NULL, lease_until = NULL",
            id: id, owner: owner
        ) { statement in
            statement.bind(3, Timestamp.format(next))
            statement.bind(4, error)
        }
    }

    func markDead(id: Int64, owner: String?, error: String, at: Date) throws -> Bool {
        try held(
            "UPDATE outbox SET status = 'dead', last_error = ?3, next_attempt_at = ?4, lease_owner = NULL, lease_until = NULL",
            id: id, owner: owner
        ) { statement in
            statement.bind(3, error)
            statement.bind(4, Timestamp.format(at))
        }
    }

    func waitingRequests(createdBefore instant: Date) throws -> [(request: HolidayRequest, owner: Employee)] {
        try connection.with(
            """
            SELECT \(Rows.requestColumns), \(Rows.employeeColumnsOfE)
            FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
            WHERE r.status IN ('pending', 'approved-by-manager') AND r.created_at < ? AND e.is_active = 1
            ORDER BY r.created_at, r.id
            """
        ) { statement in
            statement.bind(1, Timestamp.format(instant))
            var found: [(request: HolidayRequest, owner: Employee)] = []
            while try statement.step() {
                found.append((try Rows.request(statement), Rows.employee(statement, from: Rows.requestColumnCount)))
            }
            return found
        }
    }

    func revive(id: Int64?, at: Date, giveUpAt: Date) throws -> Int {
        try connection.execute(
            """
            UPDATE outbox SET status = 'pending', next_attempt_at = ?1, give_up_at = ?2, lease_owner = NULL, lease_until = NULL
            WHERE status = 'dead' AND (?3 IS NULL OR id = ?3)
            """
        ) { statement in
            statement.bind(1, Timestamp.format(at))
            statement.bind(2, Timestamp.format(giveUpAt))
            statement.bind(3, id)
        }
        return connection.changes
    }

    func purgeSent(before date: Date) throws -> Int {
        try connection.execute("DELETE FROM outbox WHERE status = 'sent' AND sent_at < ?") { $0.bind(1, Timestamp.format(date)) }
        return connection.changes
    }
}

/// The holiday and notice transactions write their messages through the outbox, on their own connection.
extension OutboxWriting where Self: SQLOutboxUser {
    func enqueue(_ draft: OutboxDraft, at: Date, giveUpAt: Date) throws -> Bool {
        try SQLOutbox(connection: connection).enqueue(draft, at: at, giveUpAt: giveUpAt)
    }
}

extension AudienceReading where Self: SQLOutboxUser {
    func deliveryConfiguration() throws -> DeliveryConfiguration { try SQLOutbox(connection: connection).deliveryConfiguration() }
    func recipient(employeeID: Int64) throws -> Recipient? { try SQLOutbox(connection: connection).recipient(employeeID: employeeID) }
    func recipients(employeeIDs: [Int64]) throws -> [Recipient] { try SQLOutbox(connection: connection).recipients(employeeIDs: employeeIDs) }
    func everyone() throws -> [Recipient] { try SQLOutbox(connection: connection).everyone() }
    func webhookSubscriptions(for event: DeliveryEvent) throws -> [WebhookSubscription] {
        try SQLOutbox(connection: connection).webhookSubscriptions(for: event)
    }
    func pushDevices(employeeID: Int64) throws -> [Device] { try SQLOutbox(connection: connection).pushDevices(employeeID: employeeID) }
    func leaveTypeIsPrivate(id: Int64) throws -> Bool { try SQLOutbox(connection: connection).leaveTypeIsPrivate(id: id) }
}

/// A store type on one connection that writes messages with its events.
protocol SQLOutboxUser {
    var connection: SQLConnection { get }
}

extension SQLHolidayTransaction: SQLOutboxUser {}
extension SQLNotices: SQLOutboxUser {}
