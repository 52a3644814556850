import ArgumentParser
import Foundation
import SGCore
import SGStore

struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the database to FILE while the server runs: a consistent copy, readable by its owner only.",
        discussion: "The copy is written beside FILE and renamed over it once whole. An existing FILE is kept unless --force.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Where to write the copy.") var file: String
    @Flag(help: "Replace FILE if it exists.") var force = false

    func run() async throws {
        try await running {
            let database = try global.sqlitePath(for: "backup", instead: "use pg_dump.")
            guard URL(fileURLWithPath: file).standardized != URL(fileURLWithPath: database).standardized else {
                throw SGError.invalid(field: "FILE", message: "is the database itself; name another file")
            }
            let replacing = FileManager.default.fileExists(atPath: file)
            if replacing && !force {
                throw SGError.conflict("\(file) exists; name a new file, or pass --force to replace it.")
            }
            try AppDatabase.backup(databaseAt: database, to: file)
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            printOut("Backed up \(database) to \(file) (\(size) bytes\(replacing ? ", replacing the file there" : "")).\n")
        }
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the database with the backup FILE, after checking it; refused while a server runs on the database.",
        discussion: """
            FILE must pass SQLite's integrity check and carry no schema newer than this program's. A schema older \
            than this program's is brought up to date when the server starts (or by `sgadmin migrate`).
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The backup to restore.") var file: String

    func run() async throws {
        try await running {
            let database = try global.sqlitePath(for: "restore", instead: "use pg_restore.")
            let verified = try AppDatabase.restore(from: file, to: database)
            printOut("Restored \(file) into \(database).\n")
            if !verified.behind.isEmpty {
                printOut("Its schema lacks \(verified.behind.joined(separator: ", ")): start the server or run `sgadmin migrate`.\n")
            }
        }
    }
}

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the database: SQLite's integrity and foreign keys, and the rules' invariants.",
        discussion: """
            Balances never below zero in any year, every request's history ending in its status, no orphan rows, \
            the held-day totals agreeing with the requests, and more (Sources/SGStore/Invariants.sql). Runs beside \
            the server. Exit status: 0 all clean, 2 problems found, 1 the check could not run.
            """)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "One JSON object: {clean, checks: [{check, violations, detail}]}.") var json = false

    static let problemsFound: Int32 = 2

    func run() async throws {
        var findings: [CheckFinding] = []
        try await running {
            let database = try global.open()
            findings = try await database.checkInvariants()
        }
        let problems = findings.filter { $0.violations > 0 }
        if json {
            printOut(Self.json(findings) + "\n")
        } else {
            for finding in findings {
                var line = finding.violations == 0 ? "ok    \(finding.check)" : "FAIL  \(finding.check): \(finding.violations)"
                if let detail = finding.detail { line += " (\(detail))" }
                printOut(TextRules.shownSafely(line) + "\n")
            }
            printOut(problems.isEmpty
                ? "All \(findings.count) checks clean.\n" : "\(problems.count) of \(findings.count) checks found problems.\n")
        }
        if !problems.isEmpty { throw ExitCode(Self.problemsFound) }
    }

    static func json(_ findings: [CheckFinding]) -> String {
        struct Report: Encodable {
            struct Item: Encodable {
                let check: String
                let violations: Int
                let detail: String?
            }
            let clean: Bool
            let checks: [Item]
        }
        let report = Report(
            clean: findings.allSatisfy { $0.violations == 0 },
            checks: findings.map { Report.Item(check: $0.check, violations: $0.violations, detail: $0.detail) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(report)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Create the database or bring its schema up to date.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await running {
            printOut("Schema up to date at \(try global.location.shown): \(try global.migrate().joined(separator: ", ")).\n")
        }
    }
}
