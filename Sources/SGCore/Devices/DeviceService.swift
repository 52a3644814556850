import Foundation

/// An employee's notification switch and the devices that receive their notifications.
public struct DeviceService: Sendable {
    public let store: any DeviceStore
    public let clock: any NowProvider

    public init(store: any DeviceStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    public func settings(employeeID: Int64) async throws -> NotificationSettings {
        try await store.read { tx in try Self.settings(tx, employeeID: employeeID) }
    }

    /// Turns channels on or off (nil: unchanged; at least one must be named); push off removes every device of the
    /// employee in the same transaction.
    public func setChannels(employeeID: Int64, push: Bool? = nil, email: Bool? = nil) async throws -> NotificationSettings {
        guard push != nil || email != nil else {
            throw SGError.invalid(field: "notifications", message: "name notifications, emailNotifications or both")
        }
        return try await store.write { tx in
            guard var channels = try tx.channels(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            channels.push = push ?? channels.push
            channels.email = email ?? channels.email
            try tx.setChannels(employeeID: employeeID, channels)
            if !channels.push { try tx.deleteDevices(employeeID: employeeID) }
            return try Self.settings(tx, employeeID: employeeID)
        }
    }

    /// Registers a push token for the employee; registering it again refreshes it (and moves it to this
    /// employee if another one had it: the token names an app install, and the last login owns it). Only the
    /// `DeviceRules.maximumPerEmployee` last registered or refreshed are kept. Returns the device and whether it
    /// is new for this employee.
    public func registerDevice(employeeID: Int64, token: String, platform: DevicePlatform) async throws -> (Device, created: Bool) {
        guard platform != .web else {
            throw SGError.invalid(field: "subscription", message: "a web device registers its subscription {endpoint, keys: {p256dh, auth}}, not a token")
        }
        return try await register(employeeID: employeeID, token: try DeviceRules.token(token), platform: platform, subscription: nil)
    }

    /// Registers a browser's Web Push subscription for the employee, as `registerDevice` does a token; the device's
    /// token is made from the endpoint (`DeviceRules.webToken`), so the same subscription sent again refreshes it.
    public func registerWebDevice(employeeID: Int64, subscription: WebPushSubscription) async throws -> (Device, created: Bool) {
        let subscription = try DeviceRules.subscription(
            endpoint: subscription.endpoint, p256dh: subscription.p256dh, auth: subscription.auth)
        return try await register(
            employeeID: employeeID, token: DeviceRules.webToken(endpoint: subscription.endpoint), platform: .web,
            subscription: subscription)
    }

    private func register(
        employeeID: Int64, token: String, platform: DevicePlatform, subscription: WebPushSubscription?
    ) async throws -> (Device, created: Bool) {
        let now = clock.now()
        return try await store.write { tx in
            guard let channels = try tx.channels(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            guard channels.push else {
                throw SGError.conflict("Notifications are off for this account: turn them on (PUT /v1/me/settings) before registering a device.")
            }
            // A browser's subscription names this server's VAPID key: without Web Push it can never receive anything.
            // A phone's token stays good for when APNs or FCM is set up.
            if platform == .web, try tx.deliveryConfiguration().vapidPublicKey.isEmpty {
                throw SGError.conflict("This server sends no Web Push, so a browser cannot be registered for notifications.")
            }
            let owner = try tx.deviceOwner(token: token)
            let device = try tx.saveDevice(token: token, employeeID: employeeID, platform: platform, subscription: subscription, at: now)
            // Reinstalls leave tokens behind that no one removes: the oldest go, so the devices stay few.
            try tx.trimDevices(employeeID: employeeID, keeping: DeviceRules.maximumPerEmployee)
            return (device, owner != employeeID)
        }
    }

    /// Removes one of the employee's devices; another employee's token is "not found" like an unknown one.
    public func removeDevice(employeeID: Int64, token: String) async throws {
        try await store.write { tx in
            guard try tx.deleteDevice(token: token, employeeID: employeeID) else {
                throw SGError.notFound("No device with that token is registered for this account.")
            }
        }
    }

    private static func settings(_ tx: any DeviceReading, employeeID: Int64) throws -> NotificationSettings {
        guard let channels = try tx.channels(employeeID: employeeID) else {
            throw SGError.notFound("Employee \(employeeID) does not exist.")
        }
        return NotificationSettings(channels: channels, devices: try tx.devices(employeeID: employeeID))
    }
}
