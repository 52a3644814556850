import ArgumentParser
import Foundation
import SGSettings
import Testing

@Suite("the database settings: SG_DATABASE as a path or a URL, its password and pool")
struct DatabaseSettingsTests {
    struct Resolved {
        let location: DatabaseLocation
        let problems: [String]
        let warnings: [String]

        var postgres: PostgresLocation? {
            if case .postgres(let location) = location { location } else { nil }
        }
    }

    /// The database settings from `environment` and `flags`. HOME is a folder without a .pgpass unless given, so the
    /// password file of the user running the tests is never read.
    static func resolve(_ environment: [String: String], flags: [String: String] = [:]) throws -> Resolved {
        var options = try DatabaseOptions.parse([])
        options.database = flags["SG_DATABASE"]
        options.databasePasswordFile = flags["SG_DATABASE_PASSWORD_FILE"]
        options.databasePoolSize = flags["SG_DATABASE_POOL_SIZE"]
        options.databaseAcquireTimeout = flags["SG_DATABASE_ACQUIRE_TIMEOUT"]
        var settings = SettingsResolver(flags: options.flags, environment: ["HOME": "/nonexistent-home"].merging(environment) { _, given in given })
        let location = settings.databaseLocation()
        return Resolved(location: location, problems: settings.problems, warnings: settings.warnings)
    }

    static func location(_ value: String) throws -> DatabaseLocation {
        let resolved = try resolve(["SG_DATABASE": value])
        #expect(resolved.problems.isEmpty, "\(value): \(resolved.problems)")
        return resolved.location
    }

    /// The one problem `value` has, after "SG_DATABASE / --database 'shown' ".
    static func refusal(_ value: String, shown: String? = nil) throws -> String {
        let problems = try resolve(["SG_DATABASE": value]).problems
        #expect(problems.count == 1, "\(value): \(problems)")
        let prefix = "SG_DATABASE / --database '\(shown ?? value.trimmingCharacters(in: .whitespaces))' "
        let problem = problems.first ?? ""
        #expect(problem.hasPrefix(prefix), "\(problem)")
        return String(problem.dropFirst(prefix.count))
    }

    /// A folder of its own, removed by the caller.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-db-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, to file: URL, mode: Int = 0o600) throws {
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }

    @Test("a path without a scheme is a SQLite file, taken as it is")
    func plainPaths() throws {
        #expect(try Self.resolve([:]).location == .sqlite(path: "./var/sgemployee.sqlite"))
        for path in ["var/sg.sqlite", "/srv/sg.sqlite", "./a:b.sqlite", "dir/x:y.sqlite", "/srv/my db.sqlite", "my%20db.sqlite", "sg.sqlite?x"] {
            #expect(try Self.location(path) == .sqlite(path: path))
        }
        #expect(try Self.location("  /srv/sg.sqlite \n") == .sqlite(path: "/srv/sg.sqlite"))
        #expect(try Self.resolve(["SG_DATABASE": "/env.sqlite"], flags: ["SG_DATABASE": "flag.sqlite"]).location == .sqlite(path: "flag.sqlite"))
    }

    @Test("sqlite:PATH and sqlite://PATH are PATH, percent-decoded; sqlite:///abs is /abs")
    func sqliteURLs() throws {
        #expect(try Self.location("sqlite:var/sg.sqlite") == .sqlite(path: "var/sg.sqlite"))
        #expect(try Self.location("sqlite://var/sg.sqlite") == .sqlite(path: "var/sg.sqlite"))
        #expect(try Self.location("sqlite:/srv/sg.sqlite") == .sqlite(path: "/srv/sg.sqlite"))
        #expect(try Self.location("sqlite:///srv/sg.sqlite") == .sqlite(path: "/srv/sg.sqlite"))
        #expect(try Self.location("SQLite:///srv/sg.sqlite") == .sqlite(path: "/srv/sg.sqlite"))
        #expect(try Self.location("sqlite:///srv/my%20d%C3%A9p%3Fb.sqlite") == .sqlite(path: "/srv/my dép?b.sqlite"))

        for value in ["sqlite:", "sqlite://"] {
            #expect(try Self.refusal(value) == "names no file (sqlite:PATH or sqlite:///ABSOLUTE/PATH)")
        }
        #expect(try Self.refusal("sqlite:///srv/sg.sqlite?mode=ro").hasPrefix("has a query or fragment"))
        #expect(try Self.refusal("sqlite:x#y").hasPrefix("has a query or fragment"))
        for value in ["sqlite:sg%zz.sqlite", "sqlite:sg%0.sqlite", "sqlite:sg%00.sqlite", "sqlite:sg%FF.sqlite", "sqlite:sg%"] {
            #expect(try Self.refusal(value).hasPrefix("has a % that is not followed by two hexadecimal digits"), "\(value)")
        }
    }

    @Test("an empty value, or one of white space only, is refused")
    func empty() throws {
        for value in ["", "   ", "\n"] {
            #expect(try Self.resolve(["SG_DATABASE": value]).problems == ["SG_DATABASE / --database is empty"])
        }
    }

    @Test("any other scheme is refused by name, with the accepted forms; a password in it is not shown")
    func otherSchemes() throws {
        for (value, scheme) in [
            ("mysql://x/y", "mysql"), ("http://db.example.com/sg", "http"), ("postgress://sg@db/sg", "postgress"),
            ("file:///srv/sg.sqlite", "file"), ("backup:2024.sqlite", "backup"), ("C:\\sg.sqlite", "C"),
        ] {
            let refusal = try Self.refusal(value)
            #expect(refusal.hasPrefix("has the scheme '\(scheme)', which is not supported. Give a SQLite file as PATH"), "\(refusal)")
            #expect(refusal.contains("postgres://USER@HOST[:PORT]/DATABASE") && refusal.contains("./NAME"))
        }
        let problems = try Self.resolve(["SG_DATABASE": "mysql://sg:s3cret@db/sg"]).problems
        #expect(problems.count == 1 && problems[0].hasPrefix("SG_DATABASE / --database 'mysql://sg:***@db/sg' has the scheme 'mysql'"))
        #expect(!problems[0].contains("s3cret"))
    }

    @Test("postgres:// and postgresql:// as libpq reads them")
    func postgresURLs() throws {
        let full = try #require(Self.resolve(["SG_DATABASE": "postgres://sg@db.example.com:6432/holidays?sslmode=verify-full"]).postgres)
        #expect(full.host == "db.example.com" && full.port == 6432 && full.user == "sg" && full.database == "holidays")
        #expect(full.sslMode == .verifyFull && full.password == nil)
        #expect(full.poolSize == 10 && full.acquireTimeout == .seconds(5))

        var expected = PostgresLocation(host: "db", user: "sg", database: "holidays")
        #expect(try Self.location("postgresql://sg@db/holidays") == .postgres(expected))
        #expect(try Self.location("POSTGRES://sg@db/holidays?") == .postgres(expected))
        expected.sslMode = .disable
        #expect(try Self.location("postgres://sg@db:5432/holidays?sslmode=disable") == .postgres(expected))
        for mode in PostgresLocation.SSLMode.allCases {
            #expect(try Self.resolve(["SG_DATABASE": "postgres://sg@db/h?sslmode=\(mode.rawValue)"]).postgres?.sslMode == mode)
        }

        let encoded = try #require(Self.resolve(["SG_DATABASE": "postgres://j%C3%BCrgen%40corp@db-1.example_x.com/hol%2Fidays%20%3A"]).postgres)
        #expect(encoded.user == "jürgen@corp" && encoded.database == "hol/idays :" && encoded.host == "db-1.example_x.com")
        #expect(try Self.resolve(["SG_DATABASE": "postgres://sg@%64b/h"]).postgres?.host == "db")

        let v6 = try #require(Self.resolve(["SG_DATABASE": "postgres://sg@[::1]:5433/holidays"]).postgres)
        #expect(v6.host == "::1" && v6.port == 5433)
        #expect(v6.description == "sg@[::1]:5433/holidays")
        #expect(try Self.resolve(["SG_DATABASE": "postgres://sg@[2001:db8::7]/h"]).postgres?.host == "2001:db8::7")
        #expect(try Self.resolve(["SG_DATABASE": "postgres://sg@10.0.0.5/h"]).postgres?.host == "10.0.0.5")
    }

    @Test("hostile and incomplete PostgreSQL URLs are refused, each with its reason")
    func badPostgresURLs() throws {
        let noHost = "names no host (postgres://USER@HOST[:PORT]/DATABASE)"
        #expect(try Self.refusal("postgres://") == noHost)
        #expect(try Self.refusal("postgres://sg@/holidays") == noHost)
        #expect(try Self.refusal("postgres://sg@:5432/holidays") == noHost)
        #expect(try Self.refusal("postgres:sg@db/holidays") == "is not a URL: write postgres://USER@HOST[:PORT]/DATABASE")
        let noDatabase = "names no database (postgres://USER@HOST[:PORT]/DATABASE)"
        #expect(try Self.refusal("postgres://sg@db") == noDatabase)
        #expect(try Self.refusal("postgres://sg@db/") == noDatabase)
        #expect(try Self.refusal("postgres://sg@db/?sslmode=require") == noDatabase)
        #expect(try Self.refusal("postgres://db/holidays") == "names no user (postgres://USER@HOST[:PORT]/DATABASE)")
        #expect(try Self.refusal("postgres://:pw@db/holidays", shown: "postgres://:***@db/holidays").hasPrefix("names no user"))
        for port in ["0", "70000", "abc", "", "-1", "+5432", "5432x", "99999999999999999999"] {
            #expect(try Self.refusal("postgres://sg@db:\(port)/h") == "has the port '\(port)', which is not a port number (1-65535)")
        }
        #expect(try Self.refusal("postgres://sg@[::1]:0/h") == "has the port '0', which is not a port number (1-65535)")
        #expect(try Self.refusal("postgres://sg@db/h?sslmode=bogus") == "has sslmode 'bogus', which is not one of disable, allow, prefer, require, verify-ca, verify-full")
        #expect(try Self.refusal("postgres://sg@db/h?sslmode=REQUIRE").hasPrefix("has sslmode 'REQUIRE'"))
        #expect(try Self.refusal("postgres://sg@db/h?application_name=sg") == "has the parameter 'application_name', which is not supported (only sslmode is)")
        #expect(try Self.refusal("postgres://sg@db/h?sslmode=require&connect%5Ftimeout=3").hasPrefix("has the parameter 'connect_timeout'"))
        #expect(try Self.refusal("postgres://sg@db/h?sslmode") == "has the parameter 'sslmode' without =VALUE")
        #expect(try Self.refusal("postgres://sg@db/h?sslmode=require&&x=1") == "has the parameter '' without =VALUE")
        #expect(try Self.refusal("postgres://sg@db/h?sslmode=require&sslmode=disable") == "gives sslmode twice")
        #expect(try Self.refusal("postgres://sg@db1,db2/h") == "lists several hosts: give one")
        #expect(try Self.refusal("postgres://sg@[::1/h") == "has a [ without its ] around an IPv6 address")
        #expect(try Self.refusal("postgres://sg@[]/h") == noHost)
        #expect(try Self.refusal("postgres://sg@[db.example.com]/h") == "has '[db.example.com]', which is not an IPv6 address")
        #expect(try Self.refusal("postgres://sg@[::1]x/h").hasPrefix("has 'x' after the IPv6 address"))
        #expect(try Self.refusal("postgres://sg@::1/h") == noHost)
        #expect(try Self.refusal("postgres://sg:p@ss@db/h", shown: "postgres://sg:***@ss@db/h").hasPrefix("has the host 'ss@db', which is not a host name"))
        #expect(try Self.refusal("postgres://sg@d%2Fb/h").hasPrefix("has the host 'd/b'"))
        #expect(try Self.refusal("postgres://sg@db/my db").hasPrefix("has white space or control characters"))
        #expect(try Self.refusal("postgres://sg@db/h\u{7}").hasPrefix("has white space or control characters"))
        #expect(try Self.refusal("postgres://sg@db/h#x").hasPrefix("has a #"))
        #expect(try Self.refusal("postgres://s%zzg@db/h").hasPrefix("has a % that is not followed by two hexadecimal digits"))
        #expect(try Self.refusal("postgres://sg@db/h%00").hasPrefix("has a % that is not followed by two hexadecimal digits"))
    }

    @Test("the password: the URL's, else SG_DATABASE_PASSWORD_FILE's first line, else the libpq password file's")
    func passwordPrecedence() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("db-password")
        try Self.write("from the file\r\nsecond line\n", to: file)
        let pgpass = folder.appendingPathComponent("pgpass")
        try Self.write("db:5432:holidays:sg:from pgpass\n", to: pgpass)
        let url = "postgres://sg@db/holidays"

        let inURL = try Self.resolve(
            ["SG_DATABASE": "postgres://sg:from%20the%20url@db/holidays", "SG_DATABASE_PASSWORD_FILE": file.path, "PGPASSFILE": pgpass.path])
        #expect(inURL.postgres?.password == "from the url")
        #expect(inURL.problems.isEmpty)
        #expect(inURL.warnings.contains { $0.hasPrefix("SG_DATABASE holds a password") })
        #expect(inURL.warnings.contains("SG_DATABASE_PASSWORD_FILE is not read: SG_DATABASE holds a password"))
        #expect(!"\(try #require(inURL.postgres))".contains("from the url"))

        let fromFile = try Self.resolve(["SG_DATABASE": url, "PGPASSFILE": pgpass.path], flags: ["SG_DATABASE_PASSWORD_FILE": file.path])
        #expect(fromFile.postgres?.password == "from the file")
        #expect(fromFile.problems.isEmpty && fromFile.warnings.isEmpty)

        #expect(try Self.resolve(["SG_DATABASE": url, "PGPASSFILE": pgpass.path]).postgres?.password == "from pgpass")
        #expect(try Self.resolve(["SG_DATABASE": url]).postgres?.password == nil)

        // ~/.pgpass when PGPASSFILE is not set.
        try FileManager.default.copyItem(at: pgpass, to: folder.appendingPathComponent(".pgpass"))
        #expect(try Self.resolve(["SG_DATABASE": url, "HOME": folder.path]).postgres?.password == "from pgpass")

        let missing = folder.appendingPathComponent("missing").path
        #expect(try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_PASSWORD_FILE": missing]).problems == [
            "SG_DATABASE_PASSWORD_FILE / --database-password-file '\(missing)' cannot be read"
        ])
        let empty = folder.appendingPathComponent("empty")
        try Self.write("\nsecond\n", to: empty)
        #expect(try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_PASSWORD_FILE": empty.path]).problems == [
            "SG_DATABASE_PASSWORD_FILE / --database-password-file '\(empty.path)' has an empty first line"
        ])
        let bare = folder.appendingPathComponent("bare")
        try Self.write("no newline", to: bare)
        #expect(try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_PASSWORD_FILE": bare.path]).postgres?.password == "no newline")
    }

    /// The password the libpq file at `path` gives `location`, and the warnings on the way.
    static func pgpass(_ path: URL, _ location: String = "postgres://sg@db.example.com/holidays") throws -> (String?, [String]) {
        let resolved = try resolve(["SG_DATABASE": location, "PGPASSFILE": path.path])
        #expect(resolved.problems.isEmpty, "\(resolved.problems)")
        return (resolved.postgres?.password, resolved.warnings)
    }

    @Test("the libpq password file: first matching line, * fields, \\: and \\\\ escapes, comments")
    func pgpassMatching() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass")
        try Self.write(
            """
            # comment:*:*:*:not this
            other.example.com:*:*:*:wrong host
            db.example.com:6432:*:*:wrong port
            db.example.com:5432:other:*:wrong database
            db.example.com:5432:holidays:admin:wrong user

            db.example.com:5432:holidays:sg:p\\:a\\\\ss:ignored field
            *:*:*:*:later line
            \\:\\:1:*:*:*:v6 password
            *:*:sp\\*cial:*:escaped star\r
            \\*:*:*:star-user:literal star host
            *:*:*:*
            """, to: file)
        #expect(try Self.pgpass(file) == ("p:a\\ss", []))
        #expect(try Self.pgpass(file, "postgres://x@elsewhere/db").0 == "later line")
        #expect(try Self.pgpass(file, "postgres://sg@db.example.com:6432/holidays").0 == "wrong port")
        #expect(try Self.pgpass(file, "postgres://sg@[::1]/holidays").0 == "later line")

        let wildcardsLast = folder.appendingPathComponent("pgpass-v6")
        try Self.write("\\:\\:1:*:*:*:v6 password\n*:*:sp\\*cial:*:escaped star\r\n*:*:*:*:any\n", to: wildcardsLast)
        #expect(try Self.pgpass(wildcardsLast, "postgres://sg@[::1]/holidays").0 == "v6 password")
        #expect(try Self.pgpass(wildcardsLast, "postgres://sg@db/sp*cial").0 == "escaped star")
        #expect(try Self.pgpass(wildcardsLast, "postgres://sg@db/spXcial").0 == "any")
        // An escaped * is a literal; a line that ends before its password field matches nothing.
        let partial = folder.appendingPathComponent("pgpass-partial")
        try Self.write("db:*:*:\\*:starred\ndb:*:*:*\n", to: partial)
        #expect(try Self.pgpass(partial, "postgres://sg@db/h").0 == nil)
        #expect(try Self.pgpass(partial, "postgres://%2A@db/h").0 == "starred")
        #expect(try Self.pgpass(folder.appendingPathComponent("absent")) == (nil, []))
    }

    @Test("the libpq password file is ignored, with a warning, unless it is a plain file of mode 0600 or stricter")
    func pgpassPermissions() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass")
        for mode in [0o600, 0o400, 0o700] {
            try Self.write("*:*:*:*:secret\n", to: file, mode: mode)
            #expect(try Self.pgpass(file) == ("secret", []), "mode \(String(mode, radix: 8))")
        }
        for mode in [0o640, 0o604, 0o644, 0o610, 0o601] {
            try Self.write("*:*:*:*:secret\n", to: file, mode: mode)
            #expect(try Self.pgpass(file) == (nil, [
                "password file '\(file.path)' has group or world access: ignored, as libpq does (chmod 0600 it)"
            ]), "mode \(String(mode, radix: 8))")
        }
        #expect(try Self.pgpass(folder) == (nil, ["password file '\(folder.path)' is not a plain file: ignored, as libpq does"]))
    }

    @Test("the pool's size and the wait for a connection: defaults, flags, variables, bad values named")
    func pool() throws {
        let url = "postgres://sg@db/holidays"
        let given = try #require(Self.resolve(
            ["SG_DATABASE": url, "SG_DATABASE_POOL_SIZE": "7", "SG_DATABASE_ACQUIRE_TIMEOUT": "9"], flags: ["SG_DATABASE_POOL_SIZE": "200"]).postgres)
        #expect(given.poolSize == 200 && given.acquireTimeout == .seconds(9))
        #expect(try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_ACQUIRE_TIMEOUT": " 0.25 "]).postgres?.acquireTimeout == .milliseconds(250))
        #expect(try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_POOL_SIZE": "1"]).postgres?.poolSize == 1)

        let problems = try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_POOL_SIZE": "0", "SG_DATABASE_ACQUIRE_TIMEOUT": "soon"]).problems
        #expect(problems == [
            "SG_DATABASE_POOL_SIZE / --database-pool-size '0' is not a number between 1 and 200",
            "SG_DATABASE_ACQUIRE_TIMEOUT / --database-acquire-timeout 'soon' is not a number of seconds between 0.1 and 300",
        ])
        for (size, timeout) in [("201", "0"), ("-1", "301"), ("ten", "nan"), ("", "0.01")] {
            let problems = try Self.resolve(["SG_DATABASE": url, "SG_DATABASE_POOL_SIZE": size, "SG_DATABASE_ACQUIRE_TIMEOUT": timeout]).problems
            #expect(problems.count == (size.isEmpty ? 1 : 2), "\(size), \(timeout): \(problems)")
        }

        // With SQLite they are still checked, and their being set is worth a warning.
        let sqlite = try Self.resolve(["SG_DATABASE_POOL_SIZE": "5", "SG_DATABASE_PASSWORD_FILE": "/nonexistent"])
        #expect(sqlite.location == .sqlite(path: "./var/sgemployee.sqlite") && sqlite.problems.isEmpty)
        #expect(sqlite.warnings == ["SG_DATABASE_PASSWORD_FILE, SG_DATABASE_POOL_SIZE set but SG_DATABASE is a SQLite file: they apply to PostgreSQL only"])
        #expect(try Self.resolve(["SG_DATABASE_POOL_SIZE": "500"]).problems.count == 1)
    }

    @Test("sgserver's settings carry the location, and its problems join the others")
    func inServerSettings() throws {
        let flags = try ServerSettingsTests.flags()
        let settings = try ServerSettings.resolve(flags: flags, environment: ["SG_DATABASE": "postgres://sg@db/holidays", "HOME": "/nonexistent-home"])
        #expect(settings.database == .postgres(PostgresLocation(host: "db", user: "sg", database: "holidays")))
        #expect(try ServerSettingsTests.problems(environment: ["SG_DATABASE": "mysql://x/y", "SG_PORT": "0"]).count == 2)
        #expect(try DatabaseOptions.parse(["--database", "sqlite:///srv/sg.sqlite"]).location(environment: [:]) == .sqlite(path: "/srv/sg.sqlite"))
        #expect(throws: SettingsProblems.self) { try DatabaseOptions.parse(["--database", "mysql://x/y"]).location(environment: [:]) }
    }

    @Test("a location names its file (SQLite only) and shows itself without the password")
    func shownAndFile() {
        #expect(DatabaseLocation.sqlite(path: "/srv/sg.sqlite").sqlitePath == "/srv/sg.sqlite")
        var location = PostgresLocation(host: "db", user: "sg", database: "h", password: "secret", sslMode: .require)
        location.poolSize = 20
        let postgres = DatabaseLocation.postgres(location)
        #expect(postgres.sqlitePath == nil)
        #expect(postgres.shown == "postgres://sg@db:5432/h")
        let endpoint = location.endpoint
        #expect(endpoint.password == "secret" && endpoint.tls == .require && endpoint.poolSize == 20 && endpoint.database == "h")
    }
}
