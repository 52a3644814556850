import Foundation
import SGCore

extension DTO {
    struct DeviceBody: Encodable {
        let token: String
        let platform: DevicePlatform
        let createdAt: String
        let updatedAt: String

        init(_ device: Device) {
            token = device.token
            platform = device.platform
            createdAt = Timestamp.format(device.createdAt)
            updatedAt = Timestamp.format(device.updatedAt)
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
