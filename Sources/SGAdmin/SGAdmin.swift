import ArgumentParser
import Foundation
import SGCore
import SGSettings
import SGSQLite
import SGStore

/// `sgadmin`: the server host's command line over the same rules and database as the API.
///
/// Every command names itself (`commandName`): ArgumentParser otherwise derives each name from its type with
/// `String(describing:)`, whose protocol conformance lookups over every loaded library slow the start of any
/// command, `--help` included.
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

    /// The actor for transitions: --as names an active admin, or, without it, the operator of this host acts as an
    /// admin, recorded as "NAME (sgadmin)" under their OS user name (as the employee of that username, if there is one
    /// and they are an active admin). A name that is not an employee's is refused: a mistyped admin would otherwise
    /// be recorded as an operator.
    func actor(_ services: CoreServices) async throws -> Actor {
        let environment = ProcessInfo.processInfo.environment
        let name = actingAs ?? environment["USER"] ?? environment["LOGNAME"] ?? "operator"
        guard let employee = try await services.accounts.employee(username: name) else {
            if let actingAs {
                throw SGError.notFound(
                    "No employee has the username '\(actingAs)': --as names an admin. Without --as you act as the operator of this host.")
            }
            return Actor(employeeID: nil, name: "\(name) (sgadmin)", isAdmin: true)
        }
        guard employee.isActive, employee.isAdmin else {
            throw SGError.forbidden("\(employee.username) is not an active admin; pass --as with an admin's username.")
        }
        return employee.actor
    }
}

/// A command that works on the database through the core's services. Its opening is here, once: the settings and
/// the database (`GlobalOptions`), the services, and a rule's refusal as `sgadmin: …` on stderr with status 1.
protocol DatabaseCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    func run(_ context: AdminContext) async throws
}

extension DatabaseCommand {
    func run() async throws {
        try await running { try await run(AdminContext(global: global, services: try global.services())) }
    }
}

/// What a command works with: the core's services over the database, and who acts (`--as`, or the operator).
struct AdminContext {
    let global: GlobalOptions
    let services: CoreServices

    /// The actor recorded in histories: an admin named by `--as`, or the operator of this host.
    func actor() async throws -> Actor { try await global.actor(services) }

    /// The employee of that username, or a "not found" naming it.
    func employee(_ username: String) async throws -> Employee { try await findEmployee(services, username) }
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

extension SGAdmin {
    /// Parses and runs one command line, exiting with its status (what `main()` does, callable from another module).
    /// A command line that does not parse gets one line, `sgadmin: …`, and where to read the usage.
    public static func run(_ arguments: [String]) async -> Never {
        SQLiteLibrary.configureForThisProcess()
        let arguments = globalOptionsAfterCommand(arguments)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            let code = exitCode(for: error)
            // Help and version requests, and --help's text, are ArgumentParser's to print.
            guard code != .success else { exit(withError: error) }
            var text = Self.message(for: error)
            if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
            let topic = commandPath(arguments).joined(separator: " ")
            FileHandle.standardError.write(Data("sgadmin: \(text)\nSee 'sgadmin \(topic.isEmpty ? "" : topic + " ")--help'.\n".utf8))
            Foundation.exit(code.rawValue)
        }
        do {
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

    /// The names of the command and subcommands that `arguments` start with: ["user", "list"].
    static func commandPath(_ arguments: [String]) -> [String] {
        var path: [String] = []
        var commands = configuration.subcommands
        for argument in arguments {
            guard let next = commands.first(where: { $0.configuration.commandName == argument }) else { break }
            path.append(argument)
            commands = next.configuration.subcommands
        }
        return path
    }

    /// The options every command takes, when given before the command (`sgadmin --database X pending`), moved after
    /// it, where each command reads them.
    static func globalOptionsAfterCommand(_ arguments: [String]) -> [String] {
        let global: Set<String> = ["--database", "--database-password-file", "--database-pool-size", "--database-acquire-timeout", "--as"]
        var leading: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            let name = String(argument.prefix { $0 != "=" })
            guard global.contains(name) else { break }
            leading.append(argument)
            if !argument.contains("="), index + 1 < arguments.endIndex {
                leading.append(arguments[index + 1])
                index += 1
            }
            index += 1
        }
        guard !leading.isEmpty else { return arguments }
        var rest = Array(arguments[index...])
        let end = rest.firstIndex(of: "--") ?? rest.endIndex
        rest.insert(contentsOf: leading, at: end)
        return rest
    }
}
