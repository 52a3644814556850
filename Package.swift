// swift-tools-version:6.2
import PackageDescription

// Our own targets build in Swift 6 language mode with warnings treated as errors
// so that "no warnings in our code" is checked by every build, not by eye.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(["-warnings-as-errors"]),
]

let package = Package(
    name: "sgemployee",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sgserver", targets: ["sgserver"]),
        .executable(name: "sgadmin", targets: ["sgadmin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // Already in the graph through Hummingbird: named here for the channel handler that bounds a request's
        // read time (SGAPI/ConnectionLimits.swift).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // GET /metrics: swift-metrics is already in the graph through Hummingbird; Prometheus is its backend.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // PostgreSQL, the second engine, for several servers on one shared database.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already in the graph through postgres-nio: named for the TLS settings of `sslmode`.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        // Domain values and rules. Imports no web framework, database or directory client.
        .target(name: "SGCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")], swiftSettings: strict),
        // Numbered SQL files, embedded so both binaries carry their schema.
        .target(
            name: "SGMigrations",
            dependencies: ["SGPostgresMigrations"],
            path: "Migrations",
            exclude: ["postgres", "schema", "README.md"],
            resources: [
                .embedInCode("0001_initial.sql"),
                .embedInCode("0002_people.sql"),
                .embedInCode("0003_directory_accounts.sql"),
                .embedInCode("0004_folded_copies_on_change.sql"),
                .embedInCode("0005_delivery.sql"),
                .embedInCode("0006_leave_types_and_half_days.sql"),
                .embedInCode("0007_allowance_changes.sql"),
                .embedInCode("0008_carry_over.sql"),
                .embedInCode("0009_working_weeks.sql"),
                .embedInCode("0010_held_days.sql"),
                .embedInCode("0011_holiday_calendars.sql"),
                .embedInCode("0012_held_days_spanning_expiry.sql"),
                .embedInCode("0013_calendar_feeds.sql"),
                .embedInCode("0014_approved_requests_by_start.sql"),
                .embedInCode("0015_token_expiry.sql"),
                .embedInCode("0016_company_feeds.sql"),
                .embedInCode("0017_sessions.sql"),
                .embedInCode("0018_teams.sql"),
                .embedInCode("0019_approved_requests_by_start_and_end.sql"),
                .embedInCode("0020_idempotency_keys.sql"),
                .embedInCode("0021_push.sql"),
                .embedInCode("0022_who_is_away_from_indexes.sql"),
                .embedInCode("0023_view_changes.sql"),
                .embedInCode("0024_token_changes.sql"),
                .embedInCode("0025_session_changes.sql"),
                .embedInCode("0026_events_without_view_changes.sql"),
                .embedInCode("0027_checks_without_lists.sql"),
                .embedInCode("0028_moves_without_temporary_tables.sql"),
                .embedInCode("0029_private_details_and_stale_grants.sql"),
                .embedInCode("0030_schema_rules.sql"),
                .embedInCode("0031_ids_never_reused.sql"),
                .embedInCode("0032_reverted_requests_undecided.sql"),
                .embedInCode("0033_employment_dates.sql"),
                .embedInCode("0034_pro_rata.sql"),
                .embedInCode("0035_seniority.sql"),
                .embedInCode("0036_accrual.sql"),
            ],
            swiftSettings: strict
        ),
        // PostgreSQL's files of the migrations that differ by dialect, named as SQLite's: a target of their own, since
        // SwiftPM refuses two embedded files of one name in a target.
        .target(
            name: "SGPostgresMigrations",
            path: "Migrations/postgres",
            resources: [
                .embedInCode("0001_initial.sql"), .embedInCode("0023_view_changes.sql"), .embedInCode("0024_token_changes.sql"),
                .embedInCode("0025_session_changes.sql"), .embedInCode("0026_events_without_view_changes.sql"),
                .embedInCode("0029_private_details_and_stale_grants.sql"), .embedInCode("0030_schema_rules.sql"),
                .embedInCode("0032_reverted_requests_undecided.sql"), .embedInCode("0033_employment_dates.sql"),
                .embedInCode("0034_pro_rata.sql"), .embedInCode("0035_seniority.sql"),
                .embedInCode("0036_accrual.sql"),
            ],
            swiftSettings: strict
        ),
        // SQLite's C API with prepared statements kept per connection, pooled read connections and caches that
        // last until the next commit. Knows nothing of holidays.
        .target(
            name: "SGSQLite",
            dependencies: [
                // Only the system's sqlite3 C module, not GRDB itself.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CSQLiteConfig",
            ],
            swiftSettings: strict
        ),
        // The same statements on PostgreSQL: a connection of postgres-nio behind SGSQLite's statement API, driven
        // synchronously from threads of its own. Knows nothing of holidays.
        .target(
            name: "SGPostgres",
            dependencies: [
                "SGSQLite",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SGStore",
            dependencies: [
                "SGCore",
                "SGMigrations",
                // The statements of the rules and the hot reads.
                "SGSQLite",
                "SGPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            // bench/run.sh and `sgadmin check` read the same invariants (Invariants.postgres.sql: on PostgreSQL).
            resources: [.embedInCode("Invariants.sql"), .embedInCode("Invariants.postgres.sql")],
            swiftSettings: strict
        ),
        // OpenLDAP's client library (libldap, liblber), from the system: apt-get install libldap-dev.
        .systemLibrary(name: "CLDAP", providers: [.apt(["libldap-dev"]), .brew(["openldap"])]),
        // Logins against a company LDAP directory, and the `sgadmin ldap` checks and sync.
        .target(
            name: "SGLDAP",
            dependencies: [
                "CLDAP",
                "SGCore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // libcurl from the system (apt-get install libcurl4-openssl-dev), through a shim for its variadic calls.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // Sends the outbox: e-mail over SMTP and signed webhooks over HTTP (libcurl), and the server's delivery
        // worker. The core composes the messages; this only carries them.
        .target(
            name: "SGDelivery",
            dependencies: [
                "SGCore",
                "CCurl",
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 for the FCM service account's OAuth assertion.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The web app (clients/web): plain files, embedded so that the one sgserver binary serves it.
        .target(
            name: "SGWebApp",
            path: "clients/web",
            exclude: ["tests", "README.md"],
            sources: ["WebAppFiles.swift"],
            resources: [
                .embedInCode("index.html"), .embedInCode("sw.js"), .embedInCode("manifest.webmanifest"),
                .embedInCode("css/app.css"), .embedInCode("icons/icon-192.png"), .embedInCode("icons/icon-512.png"),
                .embedInCode("icons/icon.svg"), .embedInCode("js/api.js"), .embedInCode("js/dom.js"),
                .embedInCode("js/format.js"), .embedInCode("js/i18n.js"), .embedInCode("js/lang/en.js"),
                .embedInCode("js/lang/es.js"), .embedInCode("js/main.js"), .embedInCode("js/offline.js"),
                .embedInCode("js/problems.js"), .embedInCode("js/push.js"), .embedInCode("js/router.js"),
                .embedInCode("js/screens/admin-company.js"), .embedInCode("js/screens/admin-employee-new.js"),
                .embedInCode("js/screens/admin-employee.js"), .embedInCode("js/screens/admin-employees.js"),
                .embedInCode("js/screens/admin-exports.js"), .embedInCode("js/screens/admin-leave-types.js"),
                .embedInCode("js/screens/admin-message.js"), .embedInCode("js/screens/admin-notices.js"),
                .embedInCode("js/screens/admin-outbox.js"), .embedInCode("js/screens/admin-public-holidays.js"),
                .embedInCode("js/screens/admin-team.js"), .embedInCode("js/screens/admin-teams.js"),
                .embedInCode("js/screens/admin-webhooks.js"), .embedInCode("js/screens/admin.js"),
                .embedInCode("js/screens/company.js"), .embedInCode("js/screens/decision.js"),
                .embedInCode("js/screens/delegation.js"), .embedInCode("js/screens/holiday.js"),
                .embedInCode("js/screens/holidays.js"), .embedInCode("js/screens/home.js"),
                .embedInCode("js/screens/login.js"), .embedInCode("js/screens/notice.js"),
                .embedInCode("js/screens/notices.js"), .embedInCode("js/screens/people.js"),
                .embedInCode("js/screens/person.js"), .embedInCode("js/screens/profile.js"),
                .embedInCode("js/screens/request.js"), .embedInCode("js/screens/requests.js"),
                .embedInCode("js/screens/reset.js"), .embedInCode("js/screens/settings.js"),
                .embedInCode("js/screens/team-calendar.js"), .embedInCode("js/shell.js"), .embedInCode("js/staff.js"),
                .embedInCode("js/ui.js"),
            ],
            swiftSettings: strict
        ),
        // zlib from the system (apt-get install zlib1g-dev): the web app's files are sent gzip-compressed.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // sqlite3_config, which Swift cannot call (it is variadic), for the process-wide settings of SGSQLite.
        .systemLibrary(name: "CSQLiteConfig", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Kept response bodies, compressed (LZ4's block format).
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
        .target(
            name: "SGAPI",
            dependencies: [
                "CLZ4",
                "CZlib",
                "SGCore",
                "SGStore",
                "SGWebApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // Settings from flags and the environment for sgserver and sgadmin (the SG_LDAP_*, SG_SMTP_* and delivery
        // options too), read by one resolver that reports every problem at once.
        .target(
            name: "SGSettings",
            dependencies: [
                "SGCore",
                // SG_DATABASE opens SQLite or PostgreSQL.
                "SGStore",
                "SGPostgres",
                "SGLDAP",
                "SGDelivery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SGAdmin",
            dependencies: [
                "SGCore",
                "SGStore",
                "SGSQLite",
                "SGLDAP",
                "SGSettings",
                // sgadmin push test sends directly.
                "SGDelivery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sgserver",
            dependencies: [
                "SGAPI",
                "SGStore",
                "SGSQLite",
                "SGCore",
                "SGLDAP",
                "SGDelivery",
                "SGSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "sgadmin", dependencies: ["SGAdmin"], swiftSettings: strict),
        // Benchmark tools for `make bench`: a synthetic company written straight into a new database. Not a product.
        .executableTarget(
            name: "sgbench",
            dependencies: [
                "SGCore",
                "SGStore",
                "SGSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Fixtures shared by the test targets: a fixed clock, a database with a few employees.
        .target(name: "SGTestSupport", dependencies: ["SGCore", "SGStore", "SGPostgres", .product(name: "GRDB", package: "GRDB.swift")], path: "Tests/SGTestSupport", swiftSettings: strict),
        .testTarget(name: "SGCoreTests", dependencies: ["SGCore"], swiftSettings: strict),
        // Against the PostgreSQL cluster that scripts/postgres.sh starts for `make test`.
        .testTarget(name: "SGPostgresTests", dependencies: ["SGPostgres", "SGSQLite"], swiftSettings: strict),
        .testTarget(name: "SGSQLiteTests", dependencies: ["SGSQLite", .product(name: "GRDBSQLite", package: "GRDB.swift")], swiftSettings: strict),
        .testTarget(
            name: "SGStoreTests",
            dependencies: ["SGCore", "SGMigrations", "SGSQLite", "SGStore", "SGTestSupport", .product(name: "GRDBSQLite", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGAPITests",
            dependencies: [
                // SGDelivery: the company feeds' refresher, against feeds served by scripts/delivery/feed_server.py.
                "SGAPI", "SGCore", "SGDelivery", "SGStore", "SGTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGBenchTests",
            dependencies: [
                // The tests run the built sgbench binary, as `make bench` does.
                "sgbench", "SGCore", "SGStore", "SGTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGLDAPTests",
            dependencies: [
                "SGLDAP", "SGAPI", "SGCore", "SGStore", "SGTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGDeliveryTests",
            dependencies: [
                // A real SQLite file through the real store, a real aiosmtpd and webhook receiver (scripts/delivery),
                // the push services' stand-ins (scripts/delivery/push_server.py), and the built sgserver and sgadmin.
                "sgserver", "sgadmin", "SGDelivery", "SGCore", "SGStore", "SGTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGSettingsTests",
            dependencies: [
                "SGSettings", "SGLDAP", "SGDelivery", "SGCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SGAdminTests",
            dependencies: [
                // The tests run the built sgadmin and sgserver binaries, as an operator would.
                "sgadmin", "sgserver", "SGAPI", "SGCore", "SGStore", "SGTestSupport", "SGPostgres",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
