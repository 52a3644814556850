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
        let notifications: Bool
        let devices: [DeviceBody]

        init(_ settings: NotificationSettings) {
            notifications = settings.notifications
            devices = settings.devices.map(DeviceBody.init)
        }
    }
}
