import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in service the tests could not start, or a tool that failed.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Runs blocking work (processes, waits) on a Dispatch thread: on Swift's cooperative pool, which has one thread
/// per core, it would delay every other test's continuations and skew their timing.
public func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs a tool to its end (with `input` on its standard input) and returns what it printed; throws when it fails.
@discardableResult
public func runTool(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let stdin = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : stdin
    try process.run()
    if let input {
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw TestSetupError("\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
    }
    return text
}

/// A stand-in service run by the tests (slapd, aiosmtpd, a webhook receiver): started with its output appended to
/// `log`, ready once its ports accept connections, killed on `stop`.
public final class ServerProcess: @unchecked Sendable {
    public let log: URL
    private let lock = NSLock()
    private var process: Process?

    public init(log: URL) {
        self.log = log
    }

    /// Starts `executable` with `arguments` and waits (at most `timeout` seconds) until every one of `ports` on
    /// 127.0.0.1 accepts connections; otherwise kills it and throws with its output.
    public func start(_ executable: String, _ arguments: [String], ports: [Int], timeout: TimeInterval) throws {
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        lock.withLock { self.process = process }
        let started = Date()
        while Date().timeIntervalSince(started) < timeout {
            if ports.allSatisfy(canConnect(port:)) { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        stop()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw TestSetupError("\(URL(fileURLWithPath: arguments.first ?? executable).lastPathComponent) did not start on port \(ports.map(String.init).joined(separator: ", ")): \(text)")
    }

    /// Kills the process and waits for it: to a client, a service that crashed. SIGKILL rather than SIGTERM: a child
    /// started from a Dispatch thread inherits that thread's blocked signals, SIGTERM included.
    public func stop() {
        let process = lock.withLock { () -> Process? in
            defer { self.process = nil }
            return self.process
        }
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
