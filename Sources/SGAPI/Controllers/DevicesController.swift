import Foundation
import Hummingbird
import SGCore

/// The logged-in employee's notification switch and the devices that receive notifications.
struct DevicesController {
    let services: Services

    /// Each switch is optional: what is left out stays as it is.
    struct SettingsBody: JSONObjectBody {
        static let fields = ["notifications", "emailNotifications"]
        static let what = "a setting"

        let notifications: Bool?
        let emailNotifications: Bool?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            notifications = try container.optional(Bool.self, "notifications")
            emailNotifications = try container.optional(Bool.self, "emailNotifications")
        }
    }

    /// `{token, platform: ios|android}`, or a browser's `{platform: web, subscription: {endpoint, keys: {p256dh, auth}}}`
    /// as `PushSubscription.toJSON()` gives it.
    struct DeviceBody: JSONObjectBody {
        static let fields = ["token", "platform", "subscription"]
        static let what = "a device field"

        let token: String?
        let platform: String
        let subscription: Subscription?

        /// `null` for `token` or `subscription` is refused (the contract allows leaving them out, not null).
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            token = try container.optional(String.self, "token")
            platform = try container.required(String.self, "platform")
            subscription = try container.optional(Subscription.self, "subscription")
        }

        struct Subscription: Decodable {
            let endpoint: String
            let keys: Keys
        }

        struct Keys: Decodable {
            let p256dh: String
            let auth: String
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The logged-in employee's notification switch and registered devices.
        group.get("/me/settings") { _, context in
            let employee = try context.requireEmployee()
            return try JSON.response(DTO.SettingsBody(try await services.devices.settings(employeeID: employee.id)))
        }

        /// Turns push (`notifications`) or e-mail on or off; push off also removes every registered device.
        group.put("/me/settings") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(SettingsBody.self, from: request, context: context)
            let settings = try await services.devices.setChannels(
                employeeID: employee.id, push: body.notifications, email: body.emailNotifications)
            return try JSON.response(DTO.SettingsBody(settings))
        }

        /// Registers a device's push token, or a browser's push subscription (201 when new, 200 when already
        /// registered).
        group.post("/me/devices") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(DeviceBody.self, from: request, context: context)
            let platform = try DeviceRules.platform(body.platform)
            let (device, created): (Device, Bool)
            switch (platform, body.subscription) {
            case (.web, let subscription?):
                (device, created) = try await services.devices.registerWebDevice(
                    employeeID: employee.id,
                    subscription: WebPushSubscription(endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth))
            case (.web, nil):
                throw SGError.invalid(field: "subscription", message: "a web device sends its push subscription {endpoint, keys: {p256dh, auth}}")
            case (_, .some):
                throw SGError.invalid(field: "subscription", message: "only a web device sends a subscription; \(platform.rawValue) sends its token")
            case (_, nil):
                guard let token = body.token else { throw SGError.invalid(field: "token", message: "the token the platform issued is required") }
                (device, created) = try await services.devices.registerDevice(employeeID: employee.id, token: token, platform: platform)
            }
            return try JSON.response(DTO.DeviceBody(device), status: created ? .created : .ok)
        }

        /// The server's VAPID public key, the `applicationServerKey` a browser subscribes with; 404 without Web Push.
        group.get("/push/vapid-public-key") { _, context in
            _ = try context.requireEmployee()
            let key = try await services.core.delivery.configuration().vapidPublicKey
            guard !key.isEmpty else { throw SGError.notFound("This server sends no Web Push (no SG_VAPID_PRIVATE_KEY_FILE).") }
            return try JSON.response(["publicKey": key])
        }

        /// Unregisters one of the logged-in employee's devices.
        group.delete("/me/devices/:token") { _, context in
            let employee = try context.requireEmployee()
            let token = context.parameters.get("token").flatMap { $0.removingPercentEncoding } ?? ""
            try await services.devices.removeDevice(employeeID: employee.id, token: token)
            return Response(status: .noContent)
        }
    }
}
