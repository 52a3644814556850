import Foundation
import SGCore
import SGSQLite

/// `DeviceWriting` over one `SQLConnection`.
struct SQLDevices: DeviceWriting {
    let connection: SQLConnection

    func deliveryConfiguration() throws -> DeliveryConfiguration { try SQLOutbox(connection: connection).deliveryConfiguration() }

    static let deviceColumns = "token, platform, created_at, updated_at, endpoint, p256dh, auth"
    static let deviceColumnCount: Int32 = 7

    static func device(_ statement: SQLStatement) throws -> Device {
        guard let platform = DevicePlatform(rawValue: statement.text(1)) else {
            throw SGError.unreadableData("A device holds a platform this program cannot read: '\(statement.text(1))'.")
        }
        var subscription: WebPushSubscription?
        if let endpoint = statement.optionalText(4), let p256dh = statement.optionalText(5), let auth = statement.optionalText(6) {
            subscription = WebPushSubscription(endpoint: endpoint, p256dh: p256dh, auth: auth)
        }
        return Device(
            token: statement.text(0), platform: platform, createdAt: try statement.timestamp(2),
            updatedAt: try statement.timestamp(3), subscription: subscription)
    }

    func channels(employeeID: Int64) throws -> NotificationChannels? {
        try connection.with("SELECT notifications, email_notifications FROM employees WHERE id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? NotificationChannels(push: statement.bool(0), email: statement.bool(1)) : nil
        }
    }

    func devices(employeeID: Int64) throws -> [Device] {
        try connection.with("SELECT \(Self.deviceColumns) FROM devices WHERE employee_id = ? ORDER BY created_at, token") { statement in
            statement.bind(1, employeeID)
            var devices: [Device] = []
            while try statement.step() { devices.append(try Self.device(statement)) }
            return devices
        }
    }

    func deviceOwner(token: String) throws -> Int64? {
        try connection.with("SELECT employee_id FROM devices WHERE token = ?") { statement in
            statement.bind(1, token)
            return try statement.step() ? statement.int64(0) : nil
        }
    }

    func setChannels(employeeID: Int64, _ channels: NotificationChannels) throws {
        try connection.execute("UPDATE employees SET notifications = ?, email_notifications = ? WHERE id = ?") { statement in
            statement.bind(1, channels.push ? 1 : 0)
            statement.bind(2, channels.email ? 1 : 0)
            statement.bind(3, employeeID)
        }
    }

    func deleteDevices(employeeID: Int64) throws {
        try connection.execute("DELETE FROM devices WHERE employee_id = ?") { statement in statement.bind(1, employeeID) }
    }

    func saveDevice(token: String, employeeID: Int64, platform: DevicePlatform, subscription: WebPushSubscription?, at: Date) throws -> Device {
        try connection.with(
            """
            INSERT INTO devices (token, employee_id, platform, created_at, updated_at, endpoint, p256dh, auth)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (token) DO UPDATE SET
                employee_id = excluded.employee_id, platform = excluded.platform, updated_at = excluded.updated_at,
                endpoint = excluded.endpoint, p256dh = excluded.p256dh, auth = excluded.auth,
                created_at = CASE WHEN devices.employee_id = excluded.employee_id THEN devices.created_at ELSE excluded.created_at END
            RETURNING \(Self.deviceColumns)
            """
        ) { statement in
            let stamp = Timestamp.format(at)
            statement.bind(1, token)
            statement.bind(2, employeeID)
            statement.bind(3, platform.rawValue)
            statement.bind(4, stamp)
            statement.bind(5, stamp)
            statement.bind(6, subscription?.endpoint)
            statement.bind(7, subscription?.p256dh)
            statement.bind(8, subscription?.auth)
            guard try statement.step() else { throw SGError.conflict("The device could not be read back.") }
            let device = try Self.device(statement)
            while try statement.step() {}
            return device
        }
    }

    func trimDevices(employeeID: Int64, keeping: Int) throws {
        try connection.execute(
            """
            DELETE FROM devices WHERE employee_id = ?1 AND token NOT IN (
                SELECT token FROM devices WHERE employee_id = ?1 ORDER BY updated_at DESC, token LIMIT ?2)
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, keeping)
        }
    }

    func deleteDevice(token: String, employeeID: Int64) throws -> Bool {
        try connection.execute("DELETE FROM devices WHERE token = ? AND employee_id = ?") { statement in
            statement.bind(1, token)
            statement.bind(2, employeeID)
        }
        return connection.changes > 0
    }
}
