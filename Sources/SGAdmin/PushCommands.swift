import ArgumentParser
import Foundation
import SGCore
import SGDelivery
import SGSettings

struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Web Push keys, and a test push to an employee's devices.",
        subcommands: [VapidKeys.self, Test.self])

    struct VapidKeys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vapid-keys",
            abstract: "Make the server's Web Push (VAPID) key: writes the private key, prints the public one.",
            discussion: "Point SG_VAPID_PRIVATE_KEY_FILE at the file. Browsers subscribe with the public key (applicationServerKey), which the server also serves at GET /v1/push/vapid-public-key.")
        @Argument(help: "The PEM file to write (readable by its owner only); an existing file is left alone.") var file: String

        func run() async throws {
            try await running {
                let (pem, publicKey) = WebPushConfiguration.newKey()
                // O_EXCL: a key in use is never overwritten by mistake.
                let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                guard descriptor >= 0 else {
                    throw SGError.conflict(
                        errno == EEXIST ? "\(file) exists already; remove it first or name another file." : "cannot create \(file): \(String(cString: strerror(errno)))")
                }
                let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                try handle.write(contentsOf: Data(pem.utf8))
                try handle.close()
                printOut("Wrote the private key to \(file).\nPublic key (applicationServerKey): \(publicKey)\n")
            }
        }
    }

    struct Test: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a test push to every device of an employee now, and print what each service answered.",
            discussion: "Reads the same SG_APNS_*, SG_FCM_*, SG_VAPID_* and SG_TLS_CA_FILE settings as sgserver. A device the service no longer knows is removed, as the server does.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String

        func run(_ context: AdminContext) async throws {
            var settings = SettingsResolver(flags: [:], environment: ProcessInfo.processInfo.environment)
            let caFile = settings.text("SG_TLS_CA_FILE")
            if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
                settings.problem("SG_TLS_CA_FILE '\(caFile)' cannot be read")
            }
            let push = settings.pushConfiguration(caFile: caFile)
            guard settings.problems.isEmpty else { throw SGError.invalid(field: "settings", message: settings.problems.joined(separator: "; ")) }
            guard !push.platforms.isEmpty else {
                throw SGError.conflict("Push is off: set SG_APNS_*, SG_FCM_SERVICE_ACCOUNT_FILE or SG_VAPID_* as for sgserver.")
            }
            let services = context.services
            guard let employee = try await services.accounts.employee(username: username) else {
                throw SGError.notFound("No employee is called \(username).")
            }
            let devices = try await services.devices.settings(employeeID: employee.id).devices
            guard !devices.isEmpty else {
                printOut("\(username) has no device registered.\n")
                return
            }
            let sender = PushSender(configuration: push)
            let lane = CurlLane(name: "sgadmin.push")
            let now = Date()
            var failures = 0
            for device in devices {
                let notification = PushNotification(
                    title: "SGEmployee", body: "A test notification for \(employee.fullName).", event: "push.test")
                let message = OutboxMessage(
                    id: 0,
                    draft: OutboxDraft(
                        channel: .push, event: .noticePublished, employeeID: employee.id, address: device.token,
                        recipientName: device.platform.rawValue, subject: notification.title, body: notification.json),
                    status: .pending, attempts: 1, createdAt: now, nextAttemptAt: now, giveUpAt: now.addingTimeInterval(3600))
                let outcome = await sender.send(message, to: device, at: now, on: lane)
                let shown = device.token.count > 24 ? device.token.prefix(20) + "…" : Substring(device.token)
                switch outcome {
                case .delivered:
                    printOut("\(device.platform.rawValue) \(shown): delivered\n")
                case .gone(let reason):
                    try? await services.devices.removeDevice(employeeID: employee.id, token: device.token)
                    printOut("\(device.platform.rawValue) \(shown): no longer registered, removed (\(reason))\n")
                case .temporaryFailure(let reason, _), .permanentFailure(let reason):
                    failures += 1
                    printOut("\(device.platform.rawValue) \(shown): failed: \(reason)\n")
                }
            }
            await lane.close()
            if failures > 0 { throw ExitCode(1) }
        }
    }
}
