import ArgumentParser
import Foundation
import Logging
import SGCore
import SGLDAP
import SGSettings
import SGStore

/// `sgadmin ldap check` and `sgadmin ldap sync`, with the server's SG_LDAP_* settings.
struct LDAPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ldap",
        abstract: "Check and synchronise the company LDAP directory.",
        discussion: "Reads the same SG_LDAP_* settings as sgserver (environment, or the --ldap-* options).",
        subcommands: [Check.self, Sync.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Explain step by step what a login does for a user, without their password.",
            discussion: "Connect, service bind, search, entry found, groups, role, and what the app holds. Exits 1 when a login would fail.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup(title: "LDAP directory") var ldap: LDAPOptions
        @Argument(help: "The username as typed at login.") var username: String

        func run() async throws {
            try await running {
                let directory = LDAPDirectory(configuration: try ldap.configuration(), logger: quietLogger())
                // The app's side is optional: a check works before the database exists.
                let location = try global.location
                let exists = location.sqlitePath.map { FileManager.default.fileExists(atPath: $0) } ?? true
                let services = exists ? try? global.services() : nil
                let report = await directory.check(username: username, accounts: services?.accounts)
                printOut(report.text() + "\n")
                if !report.succeeded { throw ExitCode(1) }
            }
        }
    }

    struct Sync: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Create or refresh an employee for every directory user; deactivate those no longer there.",
            discussion: """
                Users are listed with SG_LDAP_SYNC_FILTER (default: the user filter with {username} as *). \
                Only employees the directory created are deactivated; local accounts are left alone. If the \
                directory lists nobody, nothing is deactivated unless --allow-empty is given.
                """)
        @OptionGroup var global: GlobalOptions
        @OptionGroup(title: "LDAP directory") var ldap: LDAPOptions
        @Flag(help: "Deactivate every directory employee even if the directory lists nobody.") var allowEmpty = false
        @Flag(help: "No progress bar, even on a terminal.") var quiet = false

        func run(_ context: AdminContext) async throws {
            let directory = LDAPDirectory(configuration: try ldap.configuration(), logger: quietLogger())
            let services = context.services
            let bar = ProgressBar(enabled: !quiet && isatty(STDERR_FILENO) == 1)
            let result = try await directory.sync(into: services.accounts, allowEmpty: allowEmpty) { done, total in
                bar.show(done, of: total)
            }
            bar.finish()
            printOut("""
                Directory users: \(result.found). Created \(result.created), refreshed \(result.updated), \
                deactivated \(result.deactivated); \(result.admins) admin\(result.admins == 1 ? "" : "s").

                """)
            for reason in result.skipped { printOut("Skipped \(reason)\n") }
            for reason in result.employmentKept { printOut("Employment dates kept for \(reason)\n") }
        }
    }
}

extension LDAPOptions {
    /// The configuration from these options and the environment, or every problem at once.
    func configuration() throws -> LDAPConfiguration {
        do throws(SettingsProblems) {
            return try configuration(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw SGError.invalid(field: "SG_LDAP_*", message: error.report("invalid LDAP configuration"))
        }
    }
}

extension LDAPOptions {
    /// The directory `sgserver` checks logins against (SG_DIRECTORY, default local), with these SG_LDAP_* settings:
    /// which fields it holds, whether it creates the employees, and who it still lists.
    func loginDirectory(_ services: CoreServices) throws -> any EmployeeDirectory {
        switch ProcessInfo.processInfo.environment["SG_DIRECTORY"] ?? "local" {
        case "local":
            // sgadmin checks no password through it: the cheapest decoy cost will do.
            return LocalAccountDirectory(accounts: services.accounts.store, cost: 4)
        case "ldap":
            return LDAPDirectory(configuration: try configuration(), logger: quietLogger())
        case let other:
            throw SGError.invalid(field: "SG_DIRECTORY", message: "'\(other)' is not supported (supported: local, ldap)")
        }
    }
}

/// The directory's own log lines would repeat what the report says; keep errors only.
private func quietLogger() -> Logger {
    var logger = Logger(label: "sgadmin.ldap")
    logger.logLevel = .error
    return logger
}

/// A one-line progress bar on standard error, redrawn in place; nothing when not on a terminal.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let lock = NSLock()
    private var drawn = false

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ done: Int, of total: Int) {
        guard enabled, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
        lock.withLock {
            drawn = true
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    func finish() {
        lock.withLock {
            if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}
