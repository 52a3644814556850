import ArgumentParser
import Foundation
import SGCore
import SGSettings
import SGStore

struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy the whole database into an empty one on the other engine: SQLite to PostgreSQL, or back.",
        discussion: """
            TARGET is a SQLite file or postgres://USER@HOST[:PORT]/DATABASE[?sslmode=MODE], read as --database is. \
            It is created or migrated first, and must hold nothing but what the migrations put there (which the \
            copy replaces). Every row of every table is copied in one transaction from one snapshot of the source, \
            counters continue after the copy, row counts are compared before the commit, then the invariants are \
            checked on the target (exit status 2 when they find problems). On failure nothing is written.
            """)
    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("to"), help: "The database to copy into: a SQLite file or a postgres:// URL.") var target: String
    @Option(help: "PostgreSQL target: file whose first line is the password [default: the URL's, then PGPASSFILE or ~/.pgpass].")
    var toPasswordFile: String?

    func run() async throws {
        var problems: [CheckFinding] = []
        try await running {
            let source = try global.location
            let target = try targetLocation()
            switch (source, target) {
            case (.sqlite, .sqlite):
                throw SGError.conflict("Both databases are SQLite files: use `sgadmin backup` to copy a file.")
            case (.postgres, .postgres):
                throw SGError.conflict("Both databases are PostgreSQL: use pg_dump and pg_restore.")
            default:
                break
            }
            let from = try source.open(schema: .requireCurrent)
            defer { from.closeConnections() }
            let newFile = target.sqlitePath.map { !FileManager.default.fileExists(atPath: $0) } ?? false
            let copied: [CopiedCount]
            let to: AppDatabase
            do {
                to = try target.open(schema: .migrate)
                let terminal = isatty(STDERR_FILENO) == 1
                copied = try await from.copy(to: to) { table, done, total in
                    Self.show(table: table, done: done, total: total, terminal: terminal)
                }
            } catch {
                // A file this command created holds nothing worth keeping.
                if newFile, let path = target.sqlitePath {
                    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
                throw error
            }
            defer { to.closeConnections() }
            let rows = copied.reduce(0) { $0 + $1.rows }
            printOut("Copied \(rows) rows in \(copied.count) tables from \(source.shown) to \(target.shown).\n")
            problems = try await to.checkInvariants().filter { $0.violations > 0 }
            for problem in problems { printOut(TextRules.shownSafely("FAIL  \(problem.check): \(problem.violations)") + "\n") }
            if problems.isEmpty { printOut("The target's invariants hold.\n") }
        }
        if !problems.isEmpty { throw ExitCode(Check.problemsFound) }
    }

    /// TARGET by the rules of --database; its password from --to-password-file, the URL or the libpq file, never
    /// from the source's SG_DATABASE_PASSWORD_FILE.
    private func targetLocation() throws -> DatabaseLocation {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_DATABASE") }
        var settings = SettingsResolver(
            flags: ["SG_DATABASE": target, "SG_DATABASE_PASSWORD_FILE": toPasswordFile], environment: environment)
        let location = settings.databaseLocation()
        do throws(SettingsProblems) {
            return try settings.checked(location)
        } catch {
            // The settings speak of --database; here they are --to's.
            let report = error.report("invalid --to")
                .replacingOccurrences(of: "SG_DATABASE_PASSWORD_FILE / --database-password-file", with: "--to-password-file")
                .replacingOccurrences(of: "SG_DATABASE / --database", with: "--to")
            throw SGError.malformed(report)
        }
    }

    /// "employees 1200/10000" rewritten in place on a terminal; elsewhere one line per table, when it is done.
    private static func show(table: String, done: Int, total: Int, terminal: Bool) {
        if terminal {
            let end = done == total ? "\n" : ""
            FileHandle.standardError.write(Data("\r\u{1B}[K\(table) \(done)/\(total)\(end)".utf8))
        } else if done == total {
            FileHandle.standardError.write(Data("\(table) \(total)/\(total)\n".utf8))
        }
    }
}
