import Foundation

public enum DevicePlatform: String, Sendable, Codable, CaseIterable {
    case ios, android
}

/// A phone or tablet that wants push notifications for an employee.
public struct Device: Sendable, Equatable {
    public var token: String
    public var platform: DevicePlatform
    public var createdAt: Date
    public var updatedAt: Date

    public init(token: String, platform: DevicePlatform, createdAt: Date, updatedAt: Date) {
        self.token = token
        self.platform = platform
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// An employee's notification settings and the devices that will receive them.
public struct NotificationSettings: Sendable, Equatable {
    public var notifications: Bool
    public var devices: [Device]

    public init(notifications: Bool, devices: [Device]) {
        self.notifications = notifications
        self.devices = devices
    }
}

public enum DeviceRules {
    public static let maximumTokenLength = 4096

    /// A push token as APNs and FCM issue them: letters, digits and `-_.:~` (so it can also sit in a URL path).
    public static func token(_ text: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:~")
        guard (8...maximumTokenLength).contains(text.count), text.allSatisfy(allowed.contains) else {
            throw SGError.invalid(
                field: "token", message: "8 to \(maximumTokenLength) characters from letters, digits and - _ . : ~ (the token the platform issued)")
        }
        return text
    }

    public static func platform(_ text: String) throws -> DevicePlatform {
        guard let platform = DevicePlatform(rawValue: text) else {
            throw SGError.invalid(
                field: "platform", message: "'\(text)' is not one of \(DevicePlatform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return platform
    }
}

public struct CompanySettings: Sendable, Equatable {
    public var name: String
    public var workingWeek: WorkingWeek
    public var defaultAllowance: Int
    public var timeZoneIdentifier: String {
        didSet { timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt }
    }
    /// The zone of `timeZoneIdentifier` (UTC if the identifier is unknown), made once rather than at each "today".
    public private(set) var timeZone: TimeZone

    public init(name: String, workingWeek: WorkingWeek, defaultAllowance: Int, timeZoneIdentifier: String) {
        self.name = name
        self.workingWeek = workingWeek
        self.defaultAllowance = defaultAllowance
        self.timeZoneIdentifier = timeZoneIdentifier
        self.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt
    }
}
