import Foundation
import GRDB
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// The built sgserver as an operator runs it, on `database`, with `environment` added; stopped with SIGKILL by `stop`.
final class LiveServer: @unchecked Sendable {
    let port = freePort()
    let process = Process()

    init(database: String, environment extra: [String: String] = [:]) throws {
        process.executableURL = builtProduct("sgserver")
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
        environment["SG_DATABASE"] = database
        environment["SG_PORT"] = String(port)
        environment["SG_LOG_LEVEL"] = "error"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let started = Date()
        while !canConnect(port: port), process.isRunning, Date().timeIntervalSince(started) < 30 { usleep(50_000) }
        guard canConnect(port: port) else {
            stop()
            throw TestSetupError("sgserver did not listen on \(port)")
        }
    }

    /// Status and body of a GET, through curl.
    func get(_ path: String, port: Int? = nil) throws -> (status: Int, body: String) {
        let output = try runTool("/usr/bin/env", [
            "curl", "-sS", "--max-time", "10", "-w", "\n%{http_code}", "http://127.0.0.1:\(port ?? self.port)\(path)",
        ])
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

@Suite(.serialized) struct OperatingAdminTests {
    /// Backups taken while requests are written are consistent copies; one restored into another path passes
    /// `sgadmin check` and holds every request written before it began.
    @Test func backupWhileWritingThenRestoreElsewhereAndCheck() async throws {
        let path = TemporaryDatabasePath(), restored = TemporaryDatabasePath()
        defer { path.cleanUp(); restored.cleanUp() }
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("sg-backup-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: backup) }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)

        let writes = Task {
            var written = 0
            for offset in 0..<400 where !Task.isCancelled {
                let day = f.weekday(10 + offset)
                let employee = offset % 2 == 0 ? f.alice : f.bob
                // Sick leave: approved at once, no allowance to run out of.
                if (try? await f.service.createRequest(
                    for: employee.id, period: LeavePeriod(start: day, end: day), leaveTypeID: 2, comment: "", actor: employee.actor)) != nil
                {
                    written += 1
                }
            }
            return written
        }
        // The backups below block their thread while sgadmin runs: on a busy machine (two cores, other suites
        // running theirs) the writes could start only after the last one. Back up once they are under way.
        let initial = try await f.count("holiday_requests")
        let deadline = Date().addingTimeInterval(30)
        while try await f.count("holiday_requests") == initial, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        var before = 0
        for round in 0..<3 {
            before = try await f.count("holiday_requests")
            // The first makes the file; the next two replace it, which takes --force.
            let result = try cli.run(["backup", backup] + (round == 0 ? [] : ["--force"]))
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasPrefix("Backed up "))
        }
        writes.cancel()
        let written = await writes.value
        #expect(written > 0)

        let attributes = try FileManager.default.attributesOfItem(atPath: backup)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = URL(fileURLWithPath: backup).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".partial-") && $0.contains("sg-backup") }.isEmpty)

        let restore = try AdminCLI(databasePath: restored.path).run(["restore", backup])
        #expect(restore.status == 0, "\(restore.stderr)")
        let check = try AdminCLI(databasePath: restored.path).run(["check"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("ok    history ends in the current status"))
        let copy = try DatabaseQueue(path: restored.path)
        let copied = try await copy.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM holiday_requests") ?? 0 }
        #expect(copied >= before, "the last backup began after \(before) requests; it holds \(copied)")
    }

    @Test func checkFindsAPlantedViolationAndSaysSoInItsExitStatus() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let request = try await f.service.createRequest(for: f.alice.id, start: f.weekday(5), end: f.weekday(5), comment: "", actor: f.alice.actor)
        let cli = AdminCLI(databasePath: path.path)
        let clean = try cli.run(["check", "--json"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(clean.stdout.utf8)) as? [String: Any])
        #expect(report["clean"] as? Bool == true)
        #expect((report["checks"] as? [Any])?.count ?? 0 > 10)

        // Behind the rules' back: the status changes without a history entry.
        try await f.database.write { db in
            try db.execute(sql: "UPDATE holiday_requests SET status = 'cancelled' WHERE id = ?", arguments: [request.id])
        }
        let dirty = try cli.run(["check"])
        #expect(dirty.status == 2, "\(dirty.stdout)\(dirty.stderr)")
        #expect(dirty.stdout.contains("FAIL  history ends in the current status: 1"), "\(dirty.stdout)")
        #expect(dirty.stdout.contains("ok    integrity_check"))
        let json = try cli.run(["check", "--json"])
        #expect(json.status == 2)
        #expect(json.stdout.contains(#""clean":false"#))

        // Could not run at all: another status.
        let missing = try AdminCLI(databasePath: path.path + ".missing").run(["check"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("sgadmin: "))
    }

    @Test func restoreRefusesWhileAServerHoldsTheDatabaseAndFilesItCannotTrust() async throws {
        let path = TemporaryDatabasePath(), other = TemporaryDatabasePath()
        defer { path.cleanUp(); other.cleanUp() }
        let backup = FileManager.default.temporaryDirectory.appendingPathComponent("sg-backup-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: backup) }
        _ = try await Fixture.make(path: other.path)
        #expect(try AdminCLI(databasePath: other.path).run(["backup", backup]).status == 0)

        _ = try await Fixture.make(path: path.path)
        let cli = AdminCLI(databasePath: path.path)
        let server = try LiveServer(database: path.path)
        let refused = try cli.run(["restore", backup])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("A server has the database"), "\(refused.stderr)")
        // A second server may share the database; the restore is refused while any runs.
        #expect(try server.get("/v1/health").status == 200)
        server.stop()
        // A server killed with SIGKILL leaves no lock behind.
        let restored = try cli.run(["restore", backup])
        #expect(restored.status == 0, "\(restored.stderr)")

        // Not a database, or one from a newer version: refused before anything is touched.
        let junk = backup + ".junk"
        defer { try? FileManager.default.removeItem(atPath: junk) }
        try Data("not a database at all, just some bytes".utf8).write(to: URL(fileURLWithPath: junk))
        let notADatabase = try cli.run(["restore", junk])
        #expect(notADatabase.status == 1)
        #expect(notADatabase.stderr.contains("not a readable SQLite database"), "\(notADatabase.stderr)")
        let newer = try DatabaseQueue(path: backup)
        try await newer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_the_future')") }
        try newer.close()
        let tooNew = try cli.run(["restore", backup])
        #expect(tooNew.status == 1)
        #expect(tooNew.stderr.contains("newer version"), "\(tooNew.stderr)")
        #expect(try cli.run(["check"]).status == 0)
    }

    /// Whether the server has closed `fd` within `seconds`: a read that ends (0) or fails.
    static func closedByServer(_ fd: Int32, within seconds: Double) -> Bool {
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        let got = read(fd, &byte, 1)
        return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// The metrics listener keeps the API's limits: an idle connection is closed after the idle time-out, and past
    /// its cap further connections are closed as soon as they are accepted.
    @Test func theMetricsListenerClosesIdleConnectionsAndCapsThem() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        _ = try await Fixture.make(path: path.path)
        let metricsPort = freePort()
        let server = try LiveServer(database: path.path, environment: ["SG_METRICS_ADDRESS": "127.0.0.1:\(metricsPort)", "SG_IDLE_TIMEOUT": "1"])
        defer { server.stop() }
        let started = Date()
        while !canConnect(port: metricsPort), Date().timeIntervalSince(started) < 10 { usleep(50_000) }
        let idle = try #require(connectedLoopbackSocket(port: metricsPort))
        defer { close(idle) }
        #expect(Self.closedByServer(idle, within: 4), "an idle connection is closed after SG_IDLE_TIMEOUT")

        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<(ConnectionLimits.metricsConnections + 4) {
            if let fd = connectedLoopbackSocket(port: metricsPort) { held.append(fd) }
        }
        // Every connection past the cap is closed at once (well within the one-second idle time-out); those within it
        // stay open until their time-out.
        var polled = held.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let deadline = Date().addingTimeInterval(0.4)
        while Date() < deadline { _ = poll(&polled, nfds_t(polled.count), 50) }
        let closedAtOnce = polled.filter { $0.revents & Int16(POLLIN | POLLHUP) != 0 }.count
        #expect(held.count == ConnectionLimits.metricsConnections + 4)
        #expect(closedAtOnce == 4, "\(closedAtOnce) of \(held.count) closed at once")
    }

    /// The metrics listener apart from the API's; readiness 503 once the database's disk is full.
    @Test(.enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func metricsListenerAndReadinessOnAFullDisk() async throws {
        let disk = try #require(SmallDisk(kilobytes: 8192))
        defer { disk.remove() }
        let database = disk.folder + "/sg.sqlite"
        let metricsPort = freePort()
        let server = try LiveServer(database: database, environment: ["SG_METRICS_ADDRESS": "127.0.0.1:\(metricsPort)"])
        defer { server.stop() }
        #expect(try server.get("/v1/health/ready").status == 200)
        #expect(try server.get("/metrics").status == 404)
        let metrics = try server.get("/metrics", port: metricsPort)
        #expect(metrics.status == 200)
        #expect(metrics.body.contains(#"sg_http_requests_total{route="/v1/health/ready",method="GET",status="200"} 1"#), "\(metrics.body)")

        // The kernel refuses to remount the disk read-only while the server has the database open for writing; a
        // full disk is the same check's other half (free space and the read-only flag, from statvfs).
        disk.fill()
        // Readiness answers are reused for a second.
        usleep(1_100_000)
        let ready = try server.get("/v1/health/ready")
        #expect(ready.status == 503)
        #expect(ready.body.contains("database: the disk holding the database is full"), "\(ready.body)")
        #expect(try server.get("/v1/health").status == 200)
    }
}
