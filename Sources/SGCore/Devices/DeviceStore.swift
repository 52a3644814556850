import Foundation

public protocol DeviceReading {
    /// The employee's switch per channel; nil when there is no such employee.
    func channels(employeeID: Int64) throws -> NotificationChannels?
    /// The employee's devices, oldest registration first.
    func devices(employeeID: Int64) throws -> [Device]
    /// Who registered the token last, if anyone.
    func deviceOwner(token: String) throws -> Int64?
    /// How the servers deliver: whether Web Push is on.
    func deliveryConfiguration() throws -> DeliveryConfiguration
}

public protocol DeviceWriting: DeviceReading {
    func setChannels(employeeID: Int64, _ channels: NotificationChannels) throws
    func deleteDevices(employeeID: Int64) throws
    /// Registers the token for the employee, or refreshes it; a token another employee had moves to this one
    /// as a new registration. A web device brings its subscription.
    func saveDevice(token: String, employeeID: Int64, platform: DevicePlatform, subscription: WebPushSubscription?, at: Date) throws -> Device
    /// Removes the employee's devices but the `keeping` last registered or refreshed.
    func trimDevices(employeeID: Int64, keeping: Int) throws
    /// Removes the employee's device; false when they have none with that token.
    func deleteDevice(token: String, employeeID: Int64) throws -> Bool
}

public typealias DeviceStore = TransactionalStore<any DeviceReading, any DeviceWriting>
