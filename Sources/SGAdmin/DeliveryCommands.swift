import ArgumentParser
import Foundation
import SGCore

extension OutboxStatus: ExpressibleByArgument {}
extension WebhookFormat: ExpressibleByArgument {}

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "Inspect, retry and purge the messages the server delivers (e-mail, webhooks).",
        subcommands: [List.self, Show.self, Retry.self, Purge.self])

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List messages by id.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "pending, sent or dead [default: all].") var status: OutboxStatus?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            var messages: [OutboxMessage] = []
            var after: Int64?
            repeat {
                let page = try await services.delivery.page(status: status, afterID: after, limit: DeliveryService.maximumLimit)
                messages += page.items
                after = page.nextAfterID
            } while after != nil
            Output(
                columns: ["id", "status", "channel", "event", "to", "attempts", "created_at", "next_attempt_at", "sent_at", "last_error"],
                rows: messages.map {
                    [.number(Int($0.id)), .text($0.status.rawValue), .text($0.draft.channel.rawValue),
                     .text($0.draft.event.rawValue), .text($0.draft.address), .number($0.attempts),
                     .text(Timestamp.format($0.createdAt)),
                     .text($0.status == .pending ? Timestamp.format($0.nextAttemptAt) : ""),
                     .text($0.sentAt.map(Timestamp.format) ?? ""), .text($0.lastError ?? "")]
                }
            ).print(format)
        }
    }

    struct Show: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one message whole.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The message id.") var id: Int64

        func run(_ context: AdminContext) async throws {
            let message = try await context.services.delivery.message(id: id)
            func shown(_ text: String) -> String { TextRules.shownSafely(text, keeping: ["\n", "\t"]) }
            let draft = message.draft
            var text = """
                Message \(message.id)  \(message.status.rawValue)
                Channel:       \(draft.channel.rawValue)
                Event:         \(draft.event.rawValue)
                To:            \(shown(draft.recipientName.isEmpty ? draft.address : "\(draft.recipientName) <\(draft.address)>"))
                Delivery id:   \(message.deliveryID)
                Attempts:      \(message.attempts)
                Created:       \(Timestamp.format(message.createdAt))

                """
            switch message.status {
            case .pending: text += "Next attempt:  \(Timestamp.format(message.nextAttemptAt))\nGives up at:   \(Timestamp.format(message.giveUpAt))\n"
            case .sent: text += "Sent:          \(message.sentAt.map(Timestamp.format) ?? "-")\n"
            case .dead: text += "Dead since:    \(Timestamp.format(message.nextAttemptAt))\n"
            }
            if let error = message.lastError { text += "Last error:    \(shown(error))\n" }
            if !draft.subject.isEmpty { text += "Subject:       \(shown(draft.subject))\n" }
            text += "\n\(shown(draft.body))\n"
            printOut(text)
        }
    }

    struct Retry: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry",
            abstract: "Move a dead message (or every dead one) back to pending, due now, with a new day of tries.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The message id.") var id: Int64?
        @Flag(help: "Every dead message.") var dead = false

        func run(_ context: AdminContext) async throws {
            let services = context.services
            switch (id, dead) {
            case (let id?, false):
                _ = try await services.delivery.retry(id: id)
                printOut("Message \(id) is pending again.\n")
            case (nil, true):
                let count = try await services.delivery.retryDead()
                printOut("\(count) dead message\(count == 1 ? " is" : "s are") pending again.\n")
            default:
                throw SGError.invalid(field: "ID", message: "name one message id, or --dead for every dead message")
            }
        }
    }

    struct Purge: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "purge",
            abstract: "Delete sent messages sent before a date (the server keeps them \(Int(DeliveryService.sentRetention / 86_400)) days).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "YYYY-MM-DD: messages sent before this day (company time zone) are deleted.") var sentBefore: String

        func run(_ context: AdminContext) async throws {
            let day = try CalendarDate.parse(sentBefore, field: "--sent-before")
            let count = try await context.services.delivery.purgeSent(before: day)
            printOut("Deleted \(count) sent message\(count == 1 ? "" : "s").\n")
        }
    }
}

struct WebhookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhook", abstract: "Manage webhook subscriptions.", subcommands: [Add.self, List.self, Remove.self])

    struct Add: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Subscribe a URL to events; prints the signing secret, shown only this once.",
            discussion: "Events: \(DeliveryEvent.subscribable.map(\.rawValue).joined(separator: ", ")).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "https URL (http only to this machine, or with --allow-insecure).") var url: String
        @Option(name: .customLong("event"), help: "An event to send (repeat the option for more).") var events: [String] = []
        @Option(help: "standard (signed JSON) or slack ({\"text\": …}).") var format: WebhookFormat = .standard
        @Flag(help: "Allow plain http to a host other than this machine.") var allowInsecure = false
        @Flag(help: "Name private leave types (sick leave) and carry their comments and notes; without it they are absences.")
        var privateDetails = false

        func run(_ context: AdminContext) async throws {
            let events = try self.events.map { name in
                guard let event = DeliveryEvent(rawValue: name) else {
                    throw SGError.invalid(
                        field: "--event",
                        message: "'\(name)' is not one of \(DeliveryEvent.subscribable.map(\.rawValue).joined(separator: ", "))")
                }
                return event
            }
            let services = context.services
            let created = try await services.webhooks.add(
                WebhookDraft(url: url, events: events, format: format, allowInsecure: allowInsecure, privateDetails: privateDetails),
                by: try await context.actor())
            printOut("Webhook \(created.id) added for \(created.events.map(\.rawValue).joined(separator: ", ")).\nSecret (shown only now): \(created.secret)\n")
        }
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List subscriptions (without their secrets).")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let all = try await services.webhooks.list(by: try await context.actor())
            Output(
                columns: ["id", "url", "format", "events", "private_details", "created_at", "disabled_at", "disabled_reason"],
                rows: all.map {
                    [.number(Int($0.id)), .text($0.url), .text($0.format.rawValue),
                     .text($0.events.map(\.rawValue).joined(separator: " ")), .flag($0.privateDetails),
                     .text(Timestamp.format($0.createdAt)),
                     .text($0.disabledAt.map(Timestamp.format) ?? ""), .text($0.disabledReason ?? "")]
                }
            ).print(format)
        }
    }

    struct Remove: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a subscription; its messages stay in the outbox.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The webhook id.") var id: Int64

        func run(_ context: AdminContext) async throws {
            let services = context.services
            try await services.webhooks.remove(id: id, by: try await context.actor())
            printOut("Webhook \(id) removed.\n")
        }
    }
}
