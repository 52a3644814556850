import Foundation
import SGTestSupport
import Testing

/// SG_DATABASE / --database as both binaries read it: a value that names no SQLite file never becomes one.
@Suite struct DatabaseSettingProcessTests {
    /// Runs `product` in an empty folder of its own (also its HOME) and returns the result and what the folder then holds.
    func run(_ product: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (ProcessResult, [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-db-setting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runProduct(
            product, arguments, environment: ["HOME": folder.path, "USER": "operator"].merging(environment) { _, given in given }, directory: folder)
        return (result, try FileManager.default.contentsOfDirectory(atPath: folder.path))
    }

    @Test func anUnknownSchemeIsRefusedAndCreatesNoFile() throws {
        let refusal = "SG_DATABASE / --database 'mysql://x/y' has the scheme 'mysql', which is not supported."
        for (arguments, environment) in [
            (["pending", "--database", "mysql://x/y"], [:]), (["migrate"], ["SG_DATABASE": "mysql://x/y"]),
        ] {
            let (result, files) = try run("sgadmin", arguments, environment: environment)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("sgadmin: invalid database settings:\n  - \(refusal)"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(files.isEmpty, "\(files)")
        }

        let (server, files) = try run("sgserver", ["--database", "mysql://x/y", "--port", "0"])
        #expect(server.status == 2)
        #expect(server.stderr.hasPrefix("sgserver: invalid configuration:\n  - SG_PORT / --port '0' is not a port number (1-65535)\n  - \(refusal)"), "\(server.stderr)")
        #expect(files.isEmpty, "\(files)")
    }

    @Test func anUnreachablePostgresIsNamedAndCreatesNoFile() throws {
        // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
        let url = "postgres://sg:secret@127.0.0.1:1/holidays?sslmode=disable"
        let reason = "The PostgreSQL database at postgres://sg@127.0.0.1:1/holidays cannot be reached"
        let (admin, adminFiles) = try run("sgadmin", ["migrate"], environment: ["SG_DATABASE": url])
        #expect(admin.status == 1)
        #expect(admin.stderr.hasPrefix("sgadmin: " + reason), "\(admin.stderr)")
        #expect(!admin.stderr.contains("secret"))
        #expect(adminFiles.isEmpty, "\(adminFiles)")

        let (server, serverFiles) = try run("sgserver", ["--database", url, "--database-pool-size", "20"])
        #expect(server.status != 0)
        #expect(server.stderr.hasPrefix("sgserver: " + reason), "\(server.stderr)")
        #expect(!server.stderr.contains("secret"))
        #expect(serverFiles.isEmpty, "\(serverFiles)")

        let (badPool, _) = try run("sgadmin", ["pending", "--database-pool-size", "0"], environment: ["SG_DATABASE": url])
        #expect(badPool.status == 1)
        #expect(badPool.stderr.contains("SG_DATABASE_POOL_SIZE / --database-pool-size '0' is not a number between 1 and 200"), "\(badPool.stderr)")
    }
}
