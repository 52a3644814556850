import Foundation

/// A binary of this package (sgadmin, sgserver, sgbench) as built: the test bundle sits in the build products
/// folder beside the executables. The tests run them as an operator would.
public func builtProduct(_ name: String) -> URL {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: ".build/debug/\(name)")
}

public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a built product to its end. Its environment is the tests' own without any SG_* setting of the machine
/// running them, plus `environment`; `stdin` (if any) is its whole standard input; it runs in `directory`, or the
/// tests' own.
public func runProduct(
    _ name: String, _ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil, directory: URL? = nil
) throws -> ProcessResult {
    let process = Process()
    process.executableURL = builtProduct(name)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
    for (key, value) in extra { environment[key] = value }
    process.environment = environment
    let out = Pipe(), err = Pipe(), input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
        stderr: String(decoding: stderr, as: UTF8.self))
}

// MARK: - Sockets on 127.0.0.1

/// A TCP socket bound to a free port of 127.0.0.1 (listening when asked), and its port.
public func boundLoopbackSocket(listening: Bool = false) -> (fd: Int32, port: Int)? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = loopback(port: 0)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard fd >= 0, bound == 0, !listening || listen(fd, 128) == 0 else {
        close(fd)
        return nil
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// A TCP port on 127.0.0.1 that nothing listens on right now.
public func freePort() -> Int {
    guard let (fd, port) = boundLoopbackSocket() else { return 0 }
    close(fd)
    return port
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
public func canConnect(port: Int) -> Bool {
    guard let fd = connectedLoopbackSocket(port: port) else { return false }
    close(fd)
    return true
}

/// A TCP socket connected to 127.0.0.1:`port`; nil when nothing accepts the connection.
public func connectedLoopbackSocket(port: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = loopback(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard fd >= 0, connected == 0 else {
        close(fd)
        return nil
    }
    return fd
}

private func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
}
