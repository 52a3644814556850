import ArgumentParser
import Foundation
import SGPostgres
import SGStore

/// Where the database of sgserver and sgadmin is: a SQLite file, or a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    public static let defaultPath = "./var/sgemployee.sqlite"

    /// How SG_DATABASE may be written, for messages.
    static let acceptedForms =
        "a SQLite file as PATH, sqlite:PATH or sqlite:///ABSOLUTE/PATH, or postgres://USER@HOST[:PORT]/DATABASE[?sslmode=MODE]"

    /// What a SG_DATABASE value names, its password not yet looked up. A value with no scheme is a file path, taken
    /// as it is. `sqlite:` then an optional `//` then a percent-encoded path: `sqlite:var/x.sqlite` and
    /// `sqlite://var/x.sqlite` are the relative `var/x.sqlite`, `sqlite:/srv/x.sqlite` and `sqlite:///srv/x.sqlite`
    /// the absolute `/srv/x.sqlite`. `postgres://` and `postgresql://` as libpq reads them, one host only.
    /// The error's text follows "NAME 'value' " in a message.
    static func parse(_ value: String) -> Result<DatabaseLocation, Refusal> {
        guard let scheme = scheme(of: value) else { return .success(.sqlite(path: value)) }
        let rest = value.dropFirst(scheme.count + 1)
        switch scheme.lowercased() {
        case "sqlite":
            return sqlite(rest.hasPrefix("//") ? rest.dropFirst(2) : rest)
        case "postgres", "postgresql":
            guard rest.hasPrefix("//") else { return .failure(Refusal("is not a URL: write postgres://USER@HOST[:PORT]/DATABASE")) }
            return PostgresLocation.parse(rest.dropFirst(2)).map(DatabaseLocation.postgres)
        default:
            return .failure(Refusal(
                "has the scheme '\(scheme)', which is not supported. Give \(acceptedForms) (a file name with a colon: ./NAME)"))
        }
    }

    /// Why a SG_DATABASE value is refused.
    struct Refusal: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// RFC 3986's scheme: a letter, then letters, digits, `+`, `-` or `.`, up to the first colon; nil when the
    /// value does not start with one (a path such as `./a:b` or `var/a:b`).
    static func scheme(of value: String) -> Substring? {
        guard let colon = value.firstIndex(of: ":") else { return nil }
        let scheme = value[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme
    }

    private static func sqlite(_ encoded: Substring) -> Result<DatabaseLocation, Refusal> {
        if encoded.contains("?") || encoded.contains("#") {
            return .failure(Refusal("has a query or fragment, which a sqlite: URL does not take (percent-encode ? as %3F, # as %23)"))
        }
        guard let path = percentDecoded(encoded) else { return .failure(badPercent) }
        guard !path.isEmpty else { return .failure(Refusal("names no file (sqlite:PATH or sqlite:///ABSOLUTE/PATH)")) }
        return .success(.sqlite(path: path))
    }

    static let badPercent = Refusal("has a % that is not followed by two hexadecimal digits, encodes a NUL (%00), or decodes to text that is not UTF-8")

    /// `%XX` replaced by its byte; nil for a `%` not followed by two hexadecimal digits, `%00` (which no C string
    /// holds) or bytes that are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue), high | low != 0 else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(bytes: bytes, encoding: .utf8)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The value as it may be shown: a password in a URL's user information (`user:password@`) replaced by `***`.
    static func redacted(_ value: String) -> String {
        guard let slashes = value.range(of: "://") else { return value }
        let authority = value[slashes.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.firstIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return value }
        return String(value[..<value.index(after: colon)]) + "***" + String(value[at...])
    }
}

/// A PostgreSQL server and database, with the password found for them and the pool's settings.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var host: String
    public var port: Int = 5432
    public var user: String
    public var database: String
    /// From the URL, SG_DATABASE_PASSWORD_FILE or the libpq password file, in that order; nil: none found.
    public var password: String?
    public var sslMode: SSLMode = .prefer
    /// Connections kept open at most (SG_DATABASE_POOL_SIZE).
    public var poolSize: Int = 10
    /// How long a query waits for a connection of the pool (SG_DATABASE_ACQUIRE_TIMEOUT).
    public var acquireTimeout: Duration = .seconds(5)

    public init(host: String, port: Int = 5432, user: String, database: String, password: String? = nil, sslMode: SSLMode = .prefer) {
        self.host = host
        self.port = port
        self.user = user
        self.database = database
        self.password = password
        self.sslMode = sslMode
    }

    /// libpq's `sslmode`, with its default.
    public typealias SSLMode = PostgresEndpoint.TLSMode

    /// What the engine connects with.
    public var endpoint: PostgresEndpoint {
        PostgresEndpoint(
            host: host, port: port, username: user, password: password, database: database, tls: sslMode, poolSize: poolSize,
            acquireTimeout: acquireTimeout)
    }

    /// `user@host:port/database`, never the password: what logs and messages show, dumped or reflected too.
    public var description: String {
        "\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)"
    }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// What follows `postgres://`: `[user[:password]@]host[:port]/database[?sslmode=MODE]`, each part
    /// percent-encoded as libpq reads it.
    static func parse(_ text: Substring) -> Result<PostgresLocation, DatabaseLocation.Refusal> {
        func refuse(_ reason: String) -> Result<PostgresLocation, DatabaseLocation.Refusal> { .failure(.init(reason)) }
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return refuse("has white space or control characters: percent-encode them (a space is %20)")
        }
        if text.contains("#") { return refuse("has a #, which a PostgreSQL URL does not take (percent-encode it as %23)") }

        let main = text.prefix { $0 != "?" }
        let query = main.endIndex < text.endIndex ? text[text.index(after: main.endIndex)...] : nil
        let authority = main.prefix { $0 != "/" }
        let path = authority.endIndex < main.endIndex ? main[main.index(after: authority.endIndex)...] : nil

        var userInfo: Substring = ""
        var hostAndPort = authority
        if let at = authority.firstIndex(of: "@") {
            userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
        }
        let encodedUser = userInfo.prefix { $0 != ":" }
        let encodedPassword = encodedUser.endIndex < userInfo.endIndex ? userInfo[userInfo.index(after: encodedUser.endIndex)...] : ""

        if hostAndPort.contains(",") { return refuse("lists several hosts: give one") }
        var encodedHost = hostAndPort
        var encodedPort: Substring?
        var bracketed = false
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return refuse("has a [ without its ] around an IPv6 address") }
            encodedHost = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return refuse("has '\(after)' after the IPv6 address, where :PORT or /DATABASE belongs") }
                encodedPort = after.dropFirst()
            }
            bracketed = true
        } else if let colon = hostAndPort.firstIndex(of: ":") {
            encodedHost = hostAndPort[..<colon]
            encodedPort = hostAndPort[hostAndPort.index(after: colon)...]
        }

        guard let user = DatabaseLocation.percentDecoded(encodedUser), let password = DatabaseLocation.percentDecoded(encodedPassword),
              let host = DatabaseLocation.percentDecoded(encodedHost), let database = path.map(DatabaseLocation.percentDecoded) ?? ""
        else { return .failure(DatabaseLocation.badPercent) }

        if host.isEmpty { return refuse("names no host (postgres://USER@HOST[:PORT]/DATABASE)") }
        if bracketed {
            var address = in6_addr()
            if inet_pton(AF_INET6, host, &address) != 1 { return refuse("has '[\(host)]', which is not an IPv6 address") }
        } else if !host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) {
            return refuse(
                "has the host '\(host)', which is not a host name or address (an IPv6 address goes in [ ]; percent-encode @ in a password as %40)")
        }
        var port = 5432
        if let encodedPort {
            guard !encodedPort.isEmpty, encodedPort.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(encodedPort),
                  (1...65535).contains(number)
            else { return refuse("has the port '\(encodedPort)', which is not a port number (1-65535)") }
            port = number
        }
        if user.isEmpty { return refuse("names no user (postgres://USER@HOST[:PORT]/DATABASE)") }
        if database.isEmpty { return refuse("names no database (postgres://USER@HOST[:PORT]/DATABASE)") }

        var location = PostgresLocation(host: host, port: port, user: user, database: database, password: password.isEmpty ? nil : password)
        var given = Set<String>()
        for parameter in query.map({ $0.isEmpty ? [] : $0.split(separator: "&", omittingEmptySubsequences: false) }) ?? [] {
            guard let equals = parameter.firstIndex(of: "=") else { return refuse("has the parameter '\(parameter)' without =VALUE") }
            guard let name = DatabaseLocation.percentDecoded(parameter[..<equals]),
                  let value = DatabaseLocation.percentDecoded(parameter[parameter.index(after: equals)...])
            else { return .failure(DatabaseLocation.badPercent) }
            guard name == "sslmode" else { return refuse("has the parameter '\(name)', which is not supported (only sslmode is)") }
            guard given.insert(name).inserted else { return refuse("gives \(name) twice") }
            guard let mode = SSLMode(rawValue: value) else {
                return refuse("has sslmode '\(value)', which is not one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            location.sslMode = mode
        }
        return .success(location)
    }
}

extension DatabaseLocation {
    /// The SQLite file, or nil for PostgreSQL (for what only a file has: backups, the server's hold on it).
    public var sqlitePath: String? {
        if case .sqlite(let path) = self { return path }
        return nil
    }

    /// Opens the database, SQLite or PostgreSQL: both binaries open it here. `checkpointing` applies to SQLite.
    public func open(schema: AppDatabase.SchemaPolicy, checkpointing: AppDatabase.Checkpointing = .automatic) throws -> AppDatabase {
        switch self {
        case .sqlite(let path): try AppDatabase.open(path: path, schema: schema, checkpointing: checkpointing)
        case .postgres(let location): try AppDatabase.open(postgres: location.endpoint, schema: schema)
        }
    }

    /// For messages: the file, or the PostgreSQL database without its password.
    public var shown: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let location): "postgres://\(location)"
        }
    }
}
