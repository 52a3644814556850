import ArgumentParser
import Foundation

/// The database settings as command-line options, shared by `sgserver` and `sgadmin`. A password has no flag (a
/// command line is visible to every user of the host): it comes from a file.
public struct DatabaseOptions: ParsableArguments {
    @Option(help: "The database: a SQLite file (PATH or sqlite:PATH), or postgres://USER@HOST[:PORT]/DATABASE[?sslmode=MODE] [SG_DATABASE, default ./var/sgemployee.sqlite].")
    public var database: String?
    @Option(help: "PostgreSQL: file whose first line is the password [SG_DATABASE_PASSWORD_FILE, default: PGPASSFILE or ~/.pgpass].")
    public var databasePasswordFile: String?
    @Option(help: "PostgreSQL: connections kept open at most, 1-200 [SG_DATABASE_POOL_SIZE, default 10].")
    public var databasePoolSize: String?
    @Option(help: "PostgreSQL: seconds a query waits for a free connection before it fails [SG_DATABASE_ACQUIRE_TIMEOUT, default 5].")
    public var databaseAcquireTimeout: String?

    public init() {}

    /// The flags given, keyed by their environment variable's name.
    public var flags: [String: String?] {
        [
            "SG_DATABASE": database, "SG_DATABASE_PASSWORD_FILE": databasePasswordFile, "SG_DATABASE_POOL_SIZE": databasePoolSize,
            "SG_DATABASE_ACQUIRE_TIMEOUT": databaseAcquireTimeout,
        ]
    }

    /// The location from these flags, then `environment`; every problem at once.
    public func location(environment: [String: String]) throws(SettingsProblems) -> DatabaseLocation {
        var settings = SettingsResolver(flags: flags, environment: environment)
        let location = settings.databaseLocation()
        return try settings.checked(location)
    }
}

extension SettingsResolver {
    /// SG_DATABASE / --database and the settings that go with it: where the database of both sgserver and sgadmin
    /// is. Surrounding white space is ignored. After a problem, the default file (the problem stops the program).
    public mutating func databaseLocation() -> DatabaseLocation {
        let poolSize = integer("SG_DATABASE_POOL_SIZE", trimmed: true, in: 1...200, default: 10)
        let acquireTimeout = parse(
            "SG_DATABASE_ACQUIRE_TIMEOUT", trimmed: true, default: 5.0, "is not a number of seconds between 0.1 and 300"
        ) { Double($0).flatMap { $0 >= 0.1 && $0 <= 300 ? $0 : nil } }

        let raw = value("SG_DATABASE")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? DatabaseLocation.defaultPath
        guard !raw.isEmpty else {
            problem("\(label("SG_DATABASE")) is empty")
            return .sqlite(path: DatabaseLocation.defaultPath)
        }
        switch DatabaseLocation.parse(raw) {
        case .failure(let refusal):
            problem("\(label("SG_DATABASE")) '\(DatabaseLocation.redacted(raw))' \(refusal.reason)")
            return .sqlite(path: DatabaseLocation.defaultPath)
        case .success(.sqlite(let path)):
            let unused = ["SG_DATABASE_PASSWORD_FILE", "SG_DATABASE_POOL_SIZE", "SG_DATABASE_ACQUIRE_TIMEOUT"].filter { text($0) != nil }
            if !unused.isEmpty {
                warn("\(unused.joined(separator: ", ")) set but SG_DATABASE is a SQLite file: they apply to PostgreSQL only")
            }
            return .sqlite(path: path)
        case .success(.postgres(var location)):
            location.poolSize = poolSize
            location.acquireTimeout = .milliseconds(Int((acquireTimeout * 1000).rounded()))
            location.password = databasePassword(for: location)
            return .postgres(location)
        }
    }

    /// The URL's password, else the first line of SG_DATABASE_PASSWORD_FILE, else the libpq password file's
    /// (PGPASSFILE, or .pgpass in the home directory); nil when none of them has one.
    private mutating func databasePassword(for location: PostgresLocation) -> String? {
        let file = text("SG_DATABASE_PASSWORD_FILE")
        if let password = location.password {
            warn("SG_DATABASE holds a password: anyone who reads the server's environment or command line sees it; prefer SG_DATABASE_PASSWORD_FILE")
            if file != nil { warn("SG_DATABASE_PASSWORD_FILE is not read: SG_DATABASE holds a password") }
            return password
        }
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else {
                problem("\(label("SG_DATABASE_PASSWORD_FILE")) '\(file)' cannot be read")
                return nil
            }
            var line = String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty { problem("\(label("SG_DATABASE_PASSWORD_FILE")) '\(file)' has an empty first line") }
            return line.isEmpty ? nil : line
        }
        guard let passwordFile = text("PGPASSFILE") ?? Self.homeDirectory(text("HOME")).map({ $0 + "/.pgpass" }) else { return nil }
        switch PasswordFile.lookup(passwordFile, for: location) {
        case .found(let password): return password
        case .notFound: return nil
        case .ignored(let reason):
            warn(reason)
            return nil
        }
    }

    /// HOME when set, else the home directory of the user this process runs as, as libpq finds it.
    private static func homeDirectory(_ home: String?) -> String? {
        if let home { return home }
        guard let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }
}

/// libpq's password file (https://www.postgresql.org/docs/current/libpq-pgpass.html), read as libpq reads it: lines
/// `host:port:database:user:password`, `#` comments, `*` for a whole field that matches anything, `\:` and `\\`
/// within a field, the first matching line wins; a file that is not a plain file, or that its group or others may
/// use in any way, is ignored with a warning.
enum PasswordFile {
    enum Lookup: Equatable {
        case found(String)
        case notFound
        /// The warning that says why the file was passed over.
        case ignored(String)
    }

    static func lookup(_ path: String, for location: PostgresLocation) -> Lookup {
        // As libpq: a file that cannot be opened is no password, not an error.
        guard let handle = FileHandle(forReadingAtPath: path) else { return .notFound }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0 else { return .notFound }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .ignored("password file '\(path)' is not a plain file: ignored, as libpq does")
        }
        guard status.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            return .ignored("password file '\(path)' has group or world access: ignored, as libpq does (chmod 0600 it)")
        }
        guard let data = try? handle.readToEnd() else { return .notFound }
        let fields = [location.host, String(location.port), location.database, location.user].map { Array($0.utf8) }
        for var line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map(Array.init) {
            while line.last == UInt8(ascii: "\r") { line.removeLast() }
            guard let first = line.first, first != UInt8(ascii: "#") else { continue }
            var position: Int? = 0
            for field in fields { position = position.flatMap { match(line, from: $0, field) } }
            if let position { return .found(password(line, from: position)) }
        }
        return .notFound
    }

    /// Where the next field starts when the field at `start` matches `token`; nil when it does not.
    static func match(_ line: [UInt8], from start: Int, _ token: [UInt8]) -> Int? {
        let colon = UInt8(ascii: ":"), backslash = UInt8(ascii: "\\")
        if start + 1 < line.count, line[start] == UInt8(ascii: "*"), line[start + 1] == colon { return start + 2 }
        var index = start, matched = 0
        while index < line.count {
            var escaped = false
            if line[index] == backslash {
                index += 1
                escaped = true
                guard index < line.count else { return nil }
            }
            if line[index] == colon, !escaped, matched == token.count { return index + 1 }
            guard matched < token.count, line[index] == token[matched] else { return nil }
            index += 1
            matched += 1
        }
        return nil
    }

    /// The password field at `start`, its escapes undone: up to the next unescaped colon or the line's end.
    static func password(_ line: [UInt8], from start: Int) -> String {
        var bytes: [UInt8] = []
        var index = start
        while index < line.count, line[index] != UInt8(ascii: ":") {
            if line[index] == UInt8(ascii: "\\"), index + 1 < line.count { index += 1 }
            bytes.append(line[index])
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
