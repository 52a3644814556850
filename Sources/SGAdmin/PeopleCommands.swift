import ArgumentParser
import Foundation
import SGCore

struct NoticeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notice", abstract: "Post, list and delete company notices.", subcommands: [Post.self, List.self, Delete.self])

    struct Post: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "post", abstract: "Post a company notice for everyone.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The title (one line).") var title: String
        @Option(help: "The text; or --body-stdin.") var body: String?
        @Flag(help: "Read the text from standard input.") var bodyStdin = false
        @Flag(help: "Show it above the other notices.") var pinned = false
        @Option(help: "The last day it is shown, YYYY-MM-DD (company time zone) [default: until deleted].") var expires: String?

        func run() async throws {
            try await running {
                let text: String
                switch (body, bodyStdin) {
                case (let body?, false): text = body
                case (nil, true): text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                default: throw SGError.invalid(field: "--body", message: "give the text with either --body or --body-stdin")
                }
                let expiresOn = try expires.map { try CalendarDate.parse($0, field: "--expires") }
                let services = try global.services()
                let notice = try await services.notices.post(
                    NoticeDraft(title: title, body: text, pinned: pinned, expiresOn: expiresOn),
                    by: try await global.actor(services))
                printOut("Posted notice \(notice.id)\(notice.pinned ? " (pinned)" : "")\(notice.expiresOn.map { ", shown through \($0)" } ?? "").\n")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List company notices, pinned first, then newest first.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include expired notices.") var all = false
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let services = try global.services()
                let today = try await services.company.today()
                let actor = try await global.actor(services)
                var after: NoticeCursor?
                var notices: [Notice] = []
                while true {
                    let page = try await services.notices.board(for: actor, includeExpired: all, after: after, limit: NoticeService.maximumLimit)
                    notices += page.items
                    guard let next = page.next else { break }
                    after = next
                }
                Output(
                    columns: ["id", "title", "pinned", "expires_on", "expired", "author", "created_at", "body"],
                    rows: notices.map {
                        [.number(Int($0.id)), .text($0.title), .text($0.pinned ? "yes" : "no"),
                         .text($0.expiresOn?.description ?? ""), .text($0.isExpired(today: today) ? "yes" : "no"),
                         .text($0.author), .text(Timestamp.format($0.createdAt)), .text($0.body)]
                    }
                ).print(format)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a company notice.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The notice id.") var id: Int64

        func run() async throws {
            try await running {
                let services = try global.services()
                try await services.notices.delete(id: id, by: try await global.actor(services))
                printOut("Deleted notice \(id).\n")
            }
        }
    }
}

struct CompanyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "company", abstract: "Show and change the company's details and settings.", subcommands: [Show.self, Change.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the company's details and settings.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let company = try await global.services().company.company()
                Output(
                    columns: [
                        "name", "address", "phone", "email", "website", "working_week", "default_allowance", "time_zone",
                        "carry_over_cap", "carry_over_expiry", "feeds",
                    ],
                    rows: [[
                        .text(company.settings.name), .text(company.contact.address ?? ""), .text(company.contact.phone ?? ""),
                        .text(company.contact.email ?? ""), .text(company.contact.website ?? ""),
                        .text(company.settings.workingWeek.code), .number(company.settings.defaultAllowance),
                        .text(company.settings.timeZoneIdentifier), .days(company.settings.carryOver.cap),
                        .text(company.settings.carryOver.expiryCode), .text(company.feeds.joined(separator: " ")),
                    ]]
                ).print(format)
            }
        }
    }

    struct Change: AsyncParsableCommand {
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
        @Option(name: .customLong("feed"), help: "A news feed (RSS or Atom) for the main screen, http(s)://…; repeat for several.") var feeds: [String] = []
        @Flag(help: "Remove every news feed.") var noFeeds = false

        func run() async throws {
            try await running {
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
                if noFeeds {
                    guard feeds.isEmpty else { throw SGError.invalid(field: "--no-feeds", message: "give either --feed or --no-feeds, not both") }
                    patch.feeds = []
                } else if !feeds.isEmpty {
                    patch.feeds = try CompanyRules.feeds(feeds, field: "--feed")
                }
                guard patch != CompanyPatch() else {
                    throw SGError.invalid(field: "options", message: "nothing to change: give at least one option (see --help)")
                }
                let services = try global.services()
                let company = try await services.company.updateCompany(patch, by: try await global.actor(services))
                printOut("Company updated: \(company.settings.name), working week \(company.settings.workingWeek), "
                    + "default allowance \(company.settings.defaultAllowance), time zone \(company.settings.timeZoneIdentifier), "
                    + "carry-over up to \(company.settings.carryOver.cap) days until \(company.settings.carryOver.expiryCode)"
                    + (patch.feeds == nil ? "" : ", \(company.feeds.count) news feed\(company.feeds.count == 1 ? "" : "s")") + ".\n")
            }
        }
    }
}
