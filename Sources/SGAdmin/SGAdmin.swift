import ArgumentParser
import Foundation
import SGCore
import SGSettings
import SGSQLite
import SGStore

/// `sgadmin`: the server host's command line over the same rules and database as the API.
///
/// Every command names itself (`commandName`): ArgumentParser otherwise derives each name from its type with
/// `String(describing:)`, whose protocol conformance lookups over every loaded library took a third of the start of
/// any command, `--help` included (issue 20).
public struct SGAdmin: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sgadmin",
        abstract: "Administer SGEmployee: holiday requests, allowances, users, public holidays, notices, the company, exports.",
        discussion: """
            Works on the server's database (--database or SG_DATABASE), through the same rules as the API, \
            while the server runs. Transitions are recorded as the user named by --as (default: the OS user).
            """,
        subcommands: [
            Pending.self, List.self, Show.self, Approve.self, Reject.self, Revert.self, Cancel.self,
            AllowanceCommand.self, UserCommand.self, HolidaysCommand.self, NoticeCommand.self, CompanyCommand.self,
            Migrate.self, Export.self, LDAPCommand.self, OutboxCommand.self, WebhookCommand.self, LeaveTypeCommand.self,
            Backup.self, Restore.self, Check.self, Copy.self,
            TeamCommand.self, PushCommand.self,
        ])

    public init() {}
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(name: .customLong("as"), help: "Who is acting, recorded in the history: an admin's username or the operator's name [default: the OS user].")
    var actingAs: String?

    /// The database the settings name; settings with a problem are refused, each one named.
    var location: DatabaseLocation {
        get throws {
            do throws(SettingsProblems) {
                return try database.location(environment: ProcessInfo.processInfo.environment)
            } catch {
                throw SGError.malformed(error.report("invalid database settings"))
            }
        }
    }

    /// The SQLite file, for what only a file has (`backup`, `restore`); refused for PostgreSQL, with what to use.
    func sqlitePath(for command: String, instead: String) throws -> String {
        let location = try location
        guard let path = location.sqlitePath else {
            throw SGError.conflict("`sgadmin \(command)` works on a SQLite file; \(location.shown) is PostgreSQL: \(instead)")
        }
        return path
    }

    /// The core's services over the database, which must exist and be at this program's schema.
    func services() throws -> CoreServices {
        var settings = SettingsResolver(flags: [:], environment: ProcessInfo.processInfo.environment)
        let destinations = settings.destinationPolicy()
        if !settings.problems.isEmpty { throw SGError.malformed(settings.problems.joined(separator: "; ")) }
        return try location.open(schema: .requireCurrent).services(destinations: destinations)
    }

    /// The database, which must exist and be at this program's schema.
    func open() throws -> AppDatabase {
        try location.open(schema: .requireCurrent)
    }

    /// Creates the database or brings its schema up to date; returns every migration applied.
    func migrate() throws -> [String] {
        try location.open(schema: .migrate).appliedMigrations()
    }

    /// The actor for transitions: an employee named by --as must be an active admin; any other name is the
    /// operator of this host, who acts as an admin and is recorded as "NAME (sgadmin)".
    func actor(_ services: CoreServices) async throws -> Actor {
        let name = actingAs ?? ProcessInfo.processInfo.environment["USER"] ?? ProcessInfo.processInfo.environment["LOGNAME"] ?? "operator"
        if let employee = try await services.accounts.employee(username: name) {
            guard employee.isActive, employee.isAdmin else {
                throw SGError.forbidden("\(employee.username) is not an active admin; pass --as with an admin's username.")
            }
            return employee.actor
        }
        return Actor(employeeID: nil, name: "\(name) (sgadmin)", isAdmin: true)
    }
}

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

/// Runs a command body, turning rule errors into a message on stderr and exit status 1.
func running(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as SGError {
        FileHandle.standardError.write(Data("sgadmin: \(error.message)\n".utf8))
        throw ExitCode(1)
    }
}

/// Rows printed as an aligned table, JSON (array of objects) or CSV.
struct Output {
    let columns: [String]
    let rows: [[CSV.Cell]]

    /// Writes the rows to standard output in `format`, about 64 KiB at a time. The whole text built first, then
    /// copied into a string and again into data, took 44 MB for `sgadmin pending` of the 20,000 rows of a company
    /// of 100,000, and the memory's page faults were a tenth of its time.
    func print(_ format: OutputFormat) {
        var out = StandardOutput()
        switch format {
        case .csv:
            CSV.append(columns.map(CSV.Cell.text), to: &out.bytes)
            for row in rows {
                // Quoted cells may keep their line breaks; other control characters are escaped as in the table.
                CSV.append(row.map(Self.safeInCSV), to: &out.bytes)
                out.flushIfFull()
            }
        case .json:
            let objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(columns, row)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: (try? encoder.encode(objects)) ?? Data("[]".utf8), as: UTF8.self)
            out.bytes.append(contentsOf: TextRules.jsonWithEscapedControls(json).utf8)
            out.bytes.append(UInt8(ascii: "\n"))
        case .table:
            // The columns' widths first; each cell is made plain again as its line is written.
            var widths = columns.map(Self.width)
            for row in rows {
                for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.width(Self.plain(cell))) }
            }
            // Into one buffer: a string per padded cell and per line took a tenth of `sgadmin pending`.
            func line(_ values: [String]) {
                for (index, value) in values.enumerated() {
                    out.bytes.append(contentsOf: value.utf8)
                    guard index < values.count - 1 else { break }
                    out.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[index] - Self.width(value) + 2))
                }
                out.bytes.append(UInt8(ascii: "\n"))
                out.flushIfFull()
            }
            line(columns)
            for row in rows { line(row.map(Self.plain)) }
        }
        out.flush()
    }

    /// A text cell with every control character but line breaks and tabs shown escaped.
    static func safeInCSV(_ cell: CSV.Cell) -> CSV.Cell {
        guard case .text(let text) = cell else { return cell }
        return .text(TextRules.shownSafely(text, keeping: ["\n", "\r", "\t"]))
    }

    /// Characters a cell takes on a terminal line, as `String.count` says; printable ASCII is counted by its bytes.
    static func width(_ text: String) -> Int {
        TextRules.isPrintableASCII(text) ? text.utf8.count : text.count
    }

    /// A cell on one line of a terminal: line breaks become spaces, other control characters escapes.
    static func plain(_ cell: CSV.Cell) -> String {
        switch cell {
        // Most cells are printable ASCII, and most others hold no line break: look at the bytes before asking
        // Foundation to replace anything.
        case .text(let text):
            TextRules.isPrintableASCII(text)
                ? text : TextRules.shownSafely(text.utf8.contains(0x0A) ? text.replacingOccurrences(of: "\n", with: " ") : text)
        case .number(let number): String(number)
        case .days(let days): days.description
        case .flag(let flag): flag ? "yes" : "no"
        case .absent: ""
        }
    }
}

func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// Bytes for standard output, written a buffer at a time.
struct StandardOutput {
    static let bufferSize = 64 << 10
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(Self.bufferSize + 4096) }

    mutating func flushIfFull() { if bytes.count >= Self.bufferSize { flush() } }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}

extension SGAdmin {
    /// Parses and runs one command line, exiting with its status (what `main()` does, callable from another module).
    public static func run(_ arguments: [String]) async -> Never {
        SQLiteLibrary.configureForThisProcess()
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(withError: nil)
        } catch {
            exit(withError: error)
        }
    }
}
