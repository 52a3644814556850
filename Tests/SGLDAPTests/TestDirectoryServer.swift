import Foundation
import Logging
import SGLDAP
import SGTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real slapd on 127.0.0.1, made from scripts/ldap (slapd.conf.in + directory.ldif), one per test. It can be
/// stopped and started again on the same port with the same data, and modified as the directory's admin.
final class TestDirectoryServer: @unchecked Sendable {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = repository.appendingPathComponent("scripts/ldap/slapd-test.sh").path

    static let baseDN = "dc=example,dc=com"
    static let serviceDN = "cn=sgemployee,ou=services,dc=example,dc=com"
    static let servicePassword = "service-secret"
    static let adminGroup = "cn=holiday-admins,ou=groups,dc=example,dc=com"

    let workdir: URL
    private(set) var port: Int
    /// The ldaps:// port, when started with TLS.
    private(set) var tlsPort: Int?
    private let process: ServerProcess

    var url: String { "ldap://127.0.0.1:\(port)" }
    var ldapsURL: String { "ldaps://127.0.0.1:\(tlsPort ?? 0)" }
    /// The test CA that signed the server's certificate (TLS only).
    var caFile: String { workdir.appendingPathComponent("tls/ca.pem").path }

    private init(workdir: URL, port: Int, tlsPort: Int?) {
        self.workdir = workdir
        self.port = port
        self.tlsPort = tlsPort
        process = ServerProcess(log: workdir.appendingPathComponent("slapd.log"))
    }

    /// Prepares a fresh directory and starts slapd on a free port; with `tls`, StartTLS on that port and
    /// ldaps:// on another, with a certificate from a throwaway CA (`caFile`).
    static func startNow(tls: Bool = false) throws -> TestDirectoryServer {
        let workdir = FileManager.default.temporaryDirectory.appendingPathComponent("sg-slapd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workdir, withIntermediateDirectories: true)
        try runTool("/bin/sh", [script, "prepare", workdir.path])
        if tls { try runTool("/bin/sh", [script, "tls", workdir.path]) }
        // A free port can be taken by someone else before slapd binds it: try a few.
        var lastError: (any Error)?
        for _ in 0..<3 {
            let server = TestDirectoryServer(workdir: workdir, port: freePort(), tlsPort: tls ? freePort() : nil)
            do {
                try server.launchNow()
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    /// Starts slapd (again) on `port` and waits until it accepts connections.
    func launchNow() throws {
        try process.start(
            "/bin/sh", [Self.script, "run", workdir.path, String(port)] + (tlsPort.map { [String($0)] } ?? []),
            ports: [port] + (tlsPort.map { [$0] } ?? []), timeout: 10)
    }

    /// Kills slapd and waits for it to exit; the port is then closed. To a client it is a directory that crashed;
    /// the mdb database survives it.
    func stopNow() {
        process.stop()
    }

    func restart() async throws {
        try await offload { self.stopNow(); try self.launchNow() }
    }

    /// Starts slapd again on the same port with the same data.
    func launch() async throws {
        try await offload { try self.launchNow() }
    }

    func stop() async {
        try? await offload { self.stopNow() }
    }

    /// Stops slapd and removes its files.
    func shutdown() async {
        try? await offload {
            self.stopNow()
            try? FileManager.default.removeItem(at: self.workdir)
        }
    }

    /// Applies an LDIF change as the directory's admin (ldapmodify).
    func modify(_ ldif: String) async throws {
        try await offload { try self.modifyNow(ldif) }
    }

    private func modifyNow(_ ldif: String) throws {
        try runTool(
            "/usr/bin/env",
            ["ldapmodify", "-x", "-H", url, "-D", "cn=admin,\(Self.baseDN)", "-w", "root-secret"], input: ldif)
    }

    /// A search-then-bind configuration with the service account and no admin rule.
    func configuration(timeout: Double = 2, connectTimeout: Double = 2) -> LDAPConfiguration {
        LDAPConfiguration(
            url: url, baseDN: Self.baseDN, bindDN: Self.serviceDN, bindPassword: Self.servicePassword,
            connectTimeout: connectTimeout, timeout: timeout)
    }

}

/// Runs `body` with a fresh directory server, stopped afterwards whatever happens.
func withDirectoryServer<T>(
    tls: Bool = false, _ body: (TestDirectoryServer) async throws -> T
) async throws -> T {
    let server = try await offload { try TestDirectoryServer.startNow(tls: tls) }
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}

/// A directory that has hung: it listens, the kernel accepts connections, and nothing ever answers.
final class HangingDirectory: @unchecked Sendable {
    let port: Int
    private let fd: Int32

    init() throws {
        guard let (fd, port) = boundLoopbackSocket(listening: true) else {
            throw TestSetupError("cannot listen for the hanging directory")
        }
        self.fd = fd
        self.port = port
    }

    var url: String { "ldap://127.0.0.1:\(port)" }

    func close() { closeDescriptor(fd) }
}

private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}

extension Logger {
    /// The directory's log lines are expected in these tests (refused logins, outages): keep the output readable.
    static var quiet: Logger {
        var logger = Logger(label: "sgemployee.ldap.test")
        logger.logLevel = .critical
        return logger
    }
}
