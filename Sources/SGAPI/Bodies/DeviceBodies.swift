import Foundation
import SGCore

extension DTO {
    struct DeviceBody: Encodable {
        /// For a web device, made from its endpoint: what `DELETE /v1/me/devices/{token}` takes.
        let token: String
        let platform: DevicePlatform
        let createdAt: String
        let updatedAt: String
        /// A web device's push service endpoint (its keys are not shown again).
        let endpoint: String?

        init(_ device: Device) {
            token = device.token
            platform = device.platform
            createdAt = Timestamp.format(device.createdAt)
            updatedAt = Timestamp.format(device.updatedAt)
            endpoint = device.subscription?.endpoint
        }
    }

    struct SettingsBody: Encodable {
        /// Push to the registered devices.
        let notifications: Bool
        let emailNotifications: Bool
        let devices: [DeviceBody]

        init(_ settings: NotificationSettings) {
            notifications = settings.channels.push
            emailNotifications = settings.channels.email
            devices = settings.devices.map(DeviceBody.init)
        }
    }
}
