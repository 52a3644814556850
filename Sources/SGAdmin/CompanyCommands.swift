import ArgumentParser
import Foundation
import SGCore

struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "company", abstract: "Show and change the company's details and settings.", subcommands: [Show.self, Change.self])

    struct Show: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the company's details and settings.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let company = try await context.services.company.company()
            Output(
                columns: [
                    "name", "address", "phone", "email", "website", "working_week", "default_allowance", "time_zone",
                    "carry_over_cap", "carry_over_expiry", "pro_rata", "pro_rata_rounding", "seniority", "seniority_from", "accrual", "feeds",
                ],
                rows: [[
                    .text(company.settings.name), .text(company.contact.address ?? ""), .text(company.contact.phone ?? ""),
                    .text(company.contact.email ?? ""), .text(company.contact.website ?? ""),
                    .text(company.settings.workingWeek.code), .number(company.settings.defaultAllowance),
                    .text(company.settings.timeZoneIdentifier), .days(company.settings.carryOver.cap),
                    .text(company.settings.carryOver.expiryCode), .text(company.settings.proRata.method.rawValue),
                    .text(company.settings.proRata.rounding.rawValue), .text(company.settings.seniority.code),
                    .text(company.settings.seniority.from.rawValue), .text(company.settings.accrual.code),
                    .text(company.feeds.joined(separator: " ")),
                ]]
            ).print(format)
        }
    }

    struct Change: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change some of the company's details and settings, all at once or none.",
            discussion: "An empty value clears the address, phone, e-mail or website. --feed replaces the news feeds with those given, in order.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The company's name.") var name: String?
        @Option(help: "Postal address.") var address: String?
        @Option(help: "Phone number.") var phone: String?
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "Web site, https://…") var website: String?
        @Option(help: "Working days as ISO weekday digits, 1 = Monday ... 7 = Sunday, e.g. 12345.") var workingWeek: String?
        @Option(help: "Default allowance in working days a year.") var defaultAllowance: Int?
        @Option(help: "Time zone for \"today\", e.g. Europe/Madrid.") var timeZone: String?
        @Option(help: "Unused days that carry into the next year, at most (0.5 steps; 0: none).") var carryOverCap: String?
        @Option(help: "The day carried days expire after, as MM-DD, e.g. 03-31.") var carryOverExpiry: String?
        @Option(help: "How allowances follow employment dates and working weeks: off, calendar-days or whole-months.") var proRata: String?
        @Option(help: "How a pro-rated allowance is rounded to half days: up, down or nearest.") var proRataRounding: String?
        @Option(help: "Extra days from years of service, as years:days, e.g. 5:1,10:2 (\"\" removes them).") var seniority: String?
        @Option(help: "From when extra days count: year (the year a tier is reached) or anniversary.") var seniorityFrom: String?
        @Option(help: "How the allowance is earned: year (all at once), or period:credited:advance, e.g. month:start:none, quarter:end:5, month:start:year.")
        var accrual: String?
        @Option(name: .customLong("feed"), help: "A news feed (RSS or Atom) for the main screen, http(s)://…; repeat for several.") var feeds: [String] = []
        @Flag(help: "Remove every news feed.") var noFeeds = false

        func run(_ context: AdminContext) async throws {
            var patch = CompanyPatch()
            patch.name = name
            // Blank text clears a field: CompanyRules says so for the API and for this command alike.
            func change(_ value: String?) -> SGCore.Change<String> { value.map(SGCore.Change.set) ?? .keep }
            patch.address = change(address)
            patch.phone = change(phone)
            patch.email = change(email)
            patch.website = change(website)
            if let workingWeek {
                patch.workingWeek = try CompanyRules.workingWeek(code: workingWeek, field: "--working-week")
            }
            patch.defaultAllowance = defaultAllowance
            patch.timeZone = timeZone
            if let carryOverCap {
                // The range is the rules' to check (CompanyRules).
                guard let cap = HalfDays(days: carryOverCap) else {
                    throw SGError.invalid(field: "--carry-over-cap", message: "'\(carryOverCap)' is not a number of days in steps of 0.5")
                }
                patch.carryOverCap = cap
            }
            patch.carryOverExpiry = carryOverExpiry
            patch.proRata = proRata
            patch.proRataRounding = proRataRounding
            if let seniority {
                guard let tiers = SeniorityPolicy.tiers(code: seniority) else {
                    throw SGError.invalid(field: "--seniority", message: "'\(seniority)' is not a list of years:days such as 5:1,10:2")
                }
                patch.seniority = tiers
            }
            patch.seniorityFrom = seniorityFrom
            patch.accrual = try accrual.map { try AccrualPlan.parse(code: $0, field: "--accrual") }
            if noFeeds {
                guard feeds.isEmpty else { throw SGError.invalid(field: "--no-feeds", message: "give either --feed or --no-feeds, not both") }
                patch.feeds = []
            } else if !feeds.isEmpty {
                patch.feeds = try CompanyRules.feeds(feeds, field: "--feed")
            }
            guard patch != CompanyPatch() else {
                throw SGError.invalid(field: "options", message: "nothing to change: give at least one option (see --help)")
            }
            let services = context.services
            let company = try await services.company.updateCompany(patch, by: try await context.actor())
            printOut("Company updated: \(company.settings.name), working week \(company.settings.workingWeek), "
                + "default allowance \(company.settings.defaultAllowance), time zone \(company.settings.timeZoneIdentifier), "
                + "carry-over up to \(company.settings.carryOver.cap) days until \(company.settings.carryOver.expiryCode), "
                + "pro rata \(company.settings.proRata.method.rawValue)"
                + (company.settings.proRata.method == .off ? "" : " rounded \(company.settings.proRata.rounding.rawValue)")
                + (company.settings.seniority.tiers.isEmpty
                    ? "" : ", seniority \(company.settings.seniority.code) from the \(company.settings.seniority.from.rawValue)")
                + (company.settings.accrual.isYearly ? "" : ", accrual \(company.settings.accrual.code)")
                + (patch.feeds == nil ? "" : ", \(company.feeds.count) news feed\(company.feeds.count == 1 ? "" : "s")") + ".\n")
        }
    }
}
