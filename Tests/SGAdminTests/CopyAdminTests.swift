import Foundation
import SGCore
import SGStore
import SGTestSupport
import Testing

/// `sgadmin copy --to` as an operator runs it, into the test cluster's PostgreSQL (SG_TEST_POSTGRES_URL: fails
/// without it).
@Suite struct CopyAdminTests {
    @Test func copiesASQLiteFileIntoPostgresOnceAndRefusesTheSecondTime() async throws {
        let file = TemporaryDatabasePath()
        defer { file.cleanUp() }
        let source = try AppDatabase.open(path: file.path)
        _ = try await DemoCompany.seedIfEmpty(source, today: Fixture.today, bcryptCost: 4)
        let employees = try await source.column(sql: "SELECT username FROM employees ORDER BY id")
        let endpoint = try PostgresTestCluster.shared.newDatabase()
        let url = "postgres://\(endpoint.username)@\(endpoint.host):\(endpoint.port)/\(endpoint.database)?sslmode=disable"
        // The target's password from --to-password-file (the cluster's role has one, in PGPASSFILE).
        let passwordFile = file.path + ".password"
        try Data(((endpoint.password ?? "") + "\n").utf8).write(to: URL(fileURLWithPath: passwordFile))
        defer { try? FileManager.default.removeItem(atPath: passwordFile) }
        let copy = try runProduct(
            "sgadmin", ["copy", "--to", url, "--to-password-file", passwordFile],
            environment: ["SG_DATABASE": file.path, "PGPASSFILE": "/nonexistent"])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("Copied "), "\(copy.stdout)")
        #expect(copy.stdout.contains("The target's invariants hold."), "\(copy.stdout)")
        // Not a terminal: one line per table, when it is done.
        #expect(copy.stderr.split(separator: "\n").contains("employees \(employees.count)/\(employees.count)"), "\(copy.stderr)")

        let target = try AppDatabase.open(postgres: endpoint, schema: .requireCurrent)
        defer { target.closeConnections() }
        #expect(try await target.column(sql: "SELECT username FROM employees ORDER BY id") == employees)

        let again = try runProduct("sgadmin", ["copy", "--to", url], environment: ["SG_DATABASE": file.path])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("sgadmin: The target database is not empty: it has rows in "), "\(again.stderr)")
        #expect(try await target.column(sql: "SELECT username FROM employees ORDER BY id") == employees)
    }

    @Test func badTargetsAreRefusedAndNoFileIsMade() throws {
        let file = TemporaryDatabasePath()
        defer { file.cleanUp() }
        _ = try AppDatabase.open(path: file.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-copy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["SG_DATABASE": file.path]

        let scheme = try runProduct("sgadmin", ["copy", "--to", "mysql://x/y"], environment: environment)
        #expect(scheme.status == 1)
        #expect(scheme.stderr.hasPrefix("sgadmin: invalid --to:\n  - --to 'mysql://x/y' has the scheme 'mysql', which is not supported"), "\(scheme.stderr)")

        let unreachable = try runProduct("sgadmin", ["copy", "--to", "postgres://sg@127.0.0.1:1/holidays?sslmode=disable"], environment: environment)
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr.hasPrefix("sgadmin: The PostgreSQL database at postgres://sg@127.0.0.1:1/holidays cannot be reached"), "\(unreachable.stderr)")

        let sameEngine = try runProduct("sgadmin", ["copy", "--to", folder.appendingPathComponent("copy.sqlite").path], environment: environment)
        #expect(sameEngine.status == 1)
        #expect(sameEngine.stderr.contains("sgadmin backup"), "\(sameEngine.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        let missing = try runProduct("sgadmin", ["copy", "--to", "postgres://sg@127.0.0.1:1/holidays"], environment: ["SG_DATABASE": folder.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No database at"), "\(missing.stderr)")
    }
}
