import Foundation
import SGTestSupport
import Testing

/// The built sgserver as a service manager runs it: started, then stopped with SIGTERM.
@Suite struct ServerProcessTests {
    @Test func sigtermStopsTheServerWithStatusZero() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-server-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = freePort()
        let process = Process()
        process.executableURL = builtProduct("sgserver")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
        environment["SG_DATABASE"] = folder.appendingPathComponent("sgemployee.sqlite").path
        environment["SG_PORT"] = String(port)
        environment["SG_LOG_LEVEL"] = "error"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()

        let started = Date()
        while !canConnect(port: port), process.isRunning, Date().timeIntervalSince(started) < 30 {
            usleep(50_000)
        }
        #expect(canConnect(port: port), "sgserver did not listen on \(port)")
        // Past the first background checkpoint, so that shutdown interrupts the service's wait between two.
        usleep(300_000)
        #expect(process.isRunning)

        process.terminate()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0, "stderr: \(String(decoding: stderr, as: UTF8.self))")
    }

    @Test func aTakenPortIsOneSentenceSayingHowToChooseAnother() throws {
        let (socket, port) = try #require(boundLoopbackSocket(listening: true))
        defer { close(socket) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-server-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = builtProduct("sgserver")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
        environment["SG_DATABASE"] = folder.appendingPathComponent("sgemployee.sqlite").path
        environment["SG_LOG_LEVEL"] = "error"
        process.environment = environment
        process.arguments = ["--host", "127.0.0.1", "--port", String(port)]
        process.standardInput = FileHandle.nullDevice
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Bounded: a server that listened after all is stopped, and the expectations below say so.
        let started = Date()
        while process.isRunning, Date().timeIntervalSince(started) < 30 { usleep(50_000) }
        if process.isRunning { process.terminate() }
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 1, "stdout: \(stdout)")
        #expect(stderr == """
            sgserver: 127.0.0.1:\(port) is already in use, by another sgserver or another program. \
            Stop it, or choose another port: --port or SG_PORT (make run PORT=8081).

            """)
        #expect(!stdout.contains("listening"), "\(stdout)")
    }

    @Test func badSettingsAreNamedTogetherWithStatusTwo() throws {
        let result = try runProduct(
            "sgserver", ["--port", "70000", "--log-level", "loud"], environment: ["SG_PORT": "8080", "SG_ACCESS_TOKEN_MINUTES": "forever"])
        #expect(result.status == 2)
        #expect(result.stderr == """
            sgserver: invalid configuration:
              - SG_PORT / --port '70000' is not a port number (1-65535)
              - SG_ACCESS_TOKEN_MINUTES / --access-token-minutes 'forever' is not a number between 1 and 1440
              - SG_LOG_LEVEL / --log-level 'loud' is not one of trace, debug, info, notice, warning, error, critical

            """)
    }
}
