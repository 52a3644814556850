import SGPostgresMigrations

/// The schema, in order, for SQLite and PostgreSQL. A migration that has shipped is never edited: add a new numbered
/// file (and a line here) instead, and one of the same name in postgres/ when PostgreSQL needs other SQL (README.md).
/// `SchemaTests` checks that every file in this folder and in postgres/ is listed.
public enum SchemaMigrations {
    public struct Migration: Sendable {
        public let identifier: String
        public let sql: String
        /// What PostgreSQL runs for it (postgres/IDENTIFIER.sql); "" when there is nothing to run there.
        public let postgres: String
    }

    public static let all: [Migration] = [
        // SwiftPM names an embedded "0001_initial.sql" `_001_initial_sql` (a leading digit becomes "_").
        Migration(
            identifier: "0001_initial", sql: String(decoding: PackageResources._001_initial_sql, as: UTF8.self),
            postgres: PostgresMigrations.initial),
        Migration(identifier: "0002_people", sql: String(decoding: PackageResources._002_people_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0003_directory_accounts",
            sql: String(decoding: PackageResources._003_directory_accounts_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0004_folded_copies_on_change",
            sql: String(decoding: PackageResources._004_folded_copies_on_change_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0005_delivery", sql: String(decoding: PackageResources._005_delivery_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0006_leave_types_and_half_days",
            sql: String(decoding: PackageResources._006_leave_types_and_half_days_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0007_allowance_changes", sql: String(decoding: PackageResources._007_allowance_changes_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0008_carry_over", sql: String(decoding: PackageResources._008_carry_over_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0009_working_weeks", sql: String(decoding: PackageResources._009_working_weeks_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0010_held_days", sql: String(decoding: PackageResources._010_held_days_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0011_holiday_calendars", sql: String(decoding: PackageResources._011_holiday_calendars_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0012_held_days_spanning_expiry",
            sql: String(decoding: PackageResources._012_held_days_spanning_expiry_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0013_calendar_feeds", sql: String(decoding: PackageResources._013_calendar_feeds_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0014_approved_requests_by_start",
            sql: String(decoding: PackageResources._014_approved_requests_by_start_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0015_token_expiry", sql: String(decoding: PackageResources._015_token_expiry_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0016_company_feeds", sql: String(decoding: PackageResources._016_company_feeds_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0017_sessions", sql: String(decoding: PackageResources._017_sessions_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0018_teams", sql: String(decoding: PackageResources._018_teams_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0019_approved_requests_by_start_and_end", sql: String(decoding: PackageResources._019_approved_requests_by_start_and_end_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0020_idempotency_keys", sql: String(decoding: PackageResources._020_idempotency_keys_sql, as: UTF8.self), postgres: ""),
        Migration(identifier: "0021_push", sql: String(decoding: PackageResources._021_push_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0022_who_is_away_from_indexes",
            sql: String(decoding: PackageResources._022_who_is_away_from_indexes_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0023_view_changes", sql: String(decoding: PackageResources._023_view_changes_sql, as: UTF8.self),
            postgres: PostgresMigrations.viewChanges),
        Migration(
            identifier: "0024_token_changes", sql: String(decoding: PackageResources._024_token_changes_sql, as: UTF8.self),
            postgres: PostgresMigrations.tokenChanges),
        Migration(
            identifier: "0025_session_changes", sql: String(decoding: PackageResources._025_session_changes_sql, as: UTF8.self),
            postgres: PostgresMigrations.sessionChanges),
        Migration(
            identifier: "0026_events_without_view_changes",
            sql: String(decoding: PackageResources._026_events_without_view_changes_sql, as: UTF8.self),
            postgres: PostgresMigrations.eventsWithoutViewChanges),
        Migration(
            identifier: "0027_checks_without_lists",
            sql: String(decoding: PackageResources._027_checks_without_lists_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0028_moves_without_temporary_tables",
            sql: String(decoding: PackageResources._028_moves_without_temporary_tables_sql, as: UTF8.self), postgres: ""),
        Migration(
            identifier: "0029_private_details_and_stale_grants",
            sql: String(decoding: PackageResources._029_private_details_and_stale_grants_sql, as: UTF8.self),
            postgres: PostgresMigrations.privateDetailsAndStaleGrants),
        Migration(
            identifier: "0030_schema_rules", sql: String(decoding: PackageResources._030_schema_rules_sql, as: UTF8.self),
            postgres: PostgresMigrations.schemaRules),
        Migration(
            identifier: "0031_ids_never_reused", sql: String(decoding: PackageResources._031_ids_never_reused_sql, as: UTF8.self),
            postgres: ""),
        Migration(
            identifier: "0032_reverted_requests_undecided",
            sql: String(decoding: PackageResources._032_reverted_requests_undecided_sql, as: UTF8.self),
            postgres: PostgresMigrations.revertedRequestsUndecided),
        Migration(
            identifier: "0033_employment_dates", sql: String(decoding: PackageResources._033_employment_dates_sql, as: UTF8.self),
            postgres: PostgresMigrations.employmentDates),
        Migration(
            identifier: "0034_pro_rata", sql: String(decoding: PackageResources._034_pro_rata_sql, as: UTF8.self),
            postgres: PostgresMigrations.proRata),
        Migration(
            identifier: "0035_seniority", sql: String(decoding: PackageResources._035_seniority_sql, as: UTF8.self),
            postgres: PostgresMigrations.seniority),
        Migration(
            identifier: "0036_accrual", sql: String(decoding: PackageResources._036_accrual_sql, as: UTF8.self),
            postgres: PostgresMigrations.accrual),
    ]
}
