import ArgumentParser
import Foundation
import SGCore

struct NoticeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notice", abstract: "Post, list and delete company notices.", subcommands: [Post.self, List.self, Delete.self])

    struct Post: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "post", abstract: "Post a company notice for everyone.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "The title (one line).") var title: String
        @Option(help: "The text; or --body-stdin.") var body: String?
        @Flag(help: "Read the text from standard input.") var bodyStdin = false
        @Flag(help: "Show it above the other notices.") var pinned = false
        @Option(help: "The last day it is shown, YYYY-MM-DD (company time zone) [default: until deleted].") var expires: String?

        func run(_ context: AdminContext) async throws {
            let text: String
            switch (body, bodyStdin) {
            case (let body?, false): text = body
            case (nil, true): text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            default: throw SGError.invalid(field: "--body", message: "give the text with either --body or --body-stdin")
            }
            let expiresOn = try expires.map { try CalendarDate.parse($0, field: "--expires") }
            let services = context.services
            let notice = try await services.notices.post(
                NoticeDraft(title: title, body: text, pinned: pinned, expiresOn: expiresOn),
                by: try await context.actor())
            printOut("Posted notice \(notice.id)\(notice.pinned ? " (pinned)" : "")\(notice.expiresOn.map { ", shown through \($0)" } ?? "").\n")
        }
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List company notices, pinned first, then newest first.")
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include expired notices.") var all = false
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let today = try await services.company.today()
            let actor = try await context.actor()
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
                    [.number(Int($0.id)), .text($0.title), .flag($0.pinned),
                     .text($0.expiresOn?.description ?? ""), .flag($0.isExpired(today: today)),
                     .text($0.author), .text(Timestamp.format($0.createdAt)), .text($0.body)]
                }
            ).print(format)
        }
    }

    struct Delete: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a company notice.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The notice id.") var id: Int64

        func run(_ context: AdminContext) async throws {
            let services = context.services
            try await services.notices.delete(id: id, by: try await context.actor())
            printOut("Deleted notice \(id).\n")
        }
    }
}
