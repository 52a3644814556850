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

/// An employee's switch per channel of notifications.
public struct NotificationChannels: Sendable, Equatable {
    /// Push to registered devices; off removes the devices.
    public var push: Bool
    /// E-mail of their requests' moves, of requests to decide and of company notices. (Security mail such as a
    /// password reset is sent whatever this says.)
    public var email: Bool

    public init(push: Bool = true, email: Bool = true) {
        self.push = push
        self.email = email
    }
}

/// An employee's notification settings and the devices that will receive them.
public struct NotificationSettings: Sendable, Equatable {
    public var channels: NotificationChannels
    public var devices: [Device]

    public init(channels: NotificationChannels, devices: [Device]) {
        self.channels = channels
        self.devices = devices
    }
}

public enum DeviceRules {
    public static let maximumTokenLength = 4096
    /// Devices kept per employee: a phone, a tablet and a few reinstalls, with room to spare.
    public static let maximumPerEmployee = 10

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
