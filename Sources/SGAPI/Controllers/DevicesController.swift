import Foundation
import Hummingbird
import SGCore

/// The logged-in employee's notification switch and the devices that receive notifications.
struct DevicesController {
    let services: Services

    /// Each switch is optional: what is left out stays as it is.
    struct SettingsBody: Decodable {
        let notifications: Bool?
        let emailNotifications: Bool?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            notifications = try container.optional(Bool.self, "notifications")
            emailNotifications = try container.optional(Bool.self, "emailNotifications")
        }
    }

    struct DeviceBody: Decodable {
        let token: String
        let platform: String
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

        /// Registers a device's push token (201 when new, 200 when already registered).
        group.post("/me/devices") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(DeviceBody.self, from: request, context: context)
            let platform = try DeviceRules.platform(body.platform)
            let (device, created) = try await services.devices.registerDevice(
                employeeID: employee.id, token: body.token, platform: platform)
            return try JSON.response(DTO.DeviceBody(device), status: created ? .created : .ok)
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
