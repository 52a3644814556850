/// PostgreSQL's text of the migrations that differ by dialect (Migrations/README.md). SwiftPM names an embedded file
/// by its base name alone and refuses two of one name in a target, so these files, named as the SQLite ones they
/// stand for, are a target of their own.
public enum PostgresMigrations {
    /// The whole schema as SQLite has it after 0001 to 0022: where PostgreSQL starts.
    public static let initial = String(decoding: PackageResources._001_initial_sql, as: UTF8.self)

    /// 0023's table and triggers, in PostgreSQL's dialect.
    public static let viewChanges = String(decoding: PackageResources._023_view_changes_sql, as: UTF8.self)

    /// 0024's triggers, in PostgreSQL's dialect.
    public static let tokenChanges = String(decoding: PackageResources._024_token_changes_sql, as: UTF8.self)

    /// 0025's triggers, in PostgreSQL's dialect.
    public static let sessionChanges = String(decoding: PackageResources._025_session_changes_sql, as: UTF8.self)

    /// 0026's dropped trigger, in PostgreSQL's dialect.
    public static let eventsWithoutViewChanges = String(decoding: PackageResources._026_events_without_view_changes_sql, as: UTF8.self)

    /// 0029's column and clean-up, in PostgreSQL's types.
    public static let privateDetailsAndStaleGrants = String(
        decoding: PackageResources._029_private_details_and_stale_grants_sql, as: UTF8.self)

    /// 0030's table, in PostgreSQL's types.
    public static let schemaRules = String(decoding: PackageResources._030_schema_rules_sql, as: UTF8.self)

    /// 0032's clean-up, the same statement as SQLite's.
    public static let revertedRequestsUndecided = String(
        decoding: PackageResources._032_reverted_requests_undecided_sql, as: UTF8.self)

    /// 0033's columns, with PostgreSQL's pattern match.
    public static let employmentDates = String(decoding: PackageResources._033_employment_dates_sql, as: UTF8.self)

    /// 0034's columns, the same statements as SQLite's.
    public static let proRata = String(decoding: PackageResources._034_pro_rata_sql, as: UTF8.self)

    /// 0035's columns, the same statements as SQLite's.
    public static let seniority = String(decoding: PackageResources._035_seniority_sql, as: UTF8.self)

    /// 0036's columns, the same statements as SQLite's.
    public static let accrual = String(decoding: PackageResources._036_accrual_sql, as: UTF8.self)
}
