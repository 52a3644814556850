import Foundation
import SGCore
import SGStore
import SGTestSupport
import Testing

/// A private leave type's name, its comment and the notes on it reach only its owner, through every channel: the
/// approvers' e-mails, their daily digest, push, and every webhook that was not opted in to private details.
@Suite struct PrivateLeaveMessagesTests {
    private func actor(_ employee: Employee) -> Actor {
        Actor(employeeID: employee.id, name: employee.username, isAdmin: employee.isAdmin)
    }

    /// The words that must not leave with a message for anyone but the owner.
    static let secrets = ["Medical", "medical", "Surgery on the knee", "Bring the X-ray", "sick", "Sick", "Flu since Sunday"]

    static func payload(_ message: OutboxMessage) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(message.draft.body.utf8))) as? [String: Any] ?? [:]
    }

    @Test func privateDetailsReachOnlyTheOwnerAndOptedInWebhooks() async throws {
        let f = try await Fixture.make()
        try await f.services.delivery.announce(
            DeliveryConfiguration(emailEnabled: true, publicURL: "https://hr.example.com", pushPlatforms: [.ios]))
        _ = try await f.services.devices.registerDevice(employeeID: f.admin.id, token: "apns-admin-phone", platform: .ios)
        let op = Fixture.operatorActor
        let plain = try await f.services.webhooks.add(WebhookDraft(url: "https://hooks.example.com/a", events: DeliveryEvent.subscribable), by: op)
        let slack = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/slack", events: DeliveryEvent.subscribable, format: .slack), by: op)
        let optedIn = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/hr", events: DeliveryEvent.subscribable, privateDetails: true), by: op)
        #expect(!plain.privateDetails && optedIn.privateDetails)
        #expect(try await f.services.webhooks.subscription(id: optedIn.id, by: op).privateDetails)
        let medical = try await f.services.leaveTypes.create(
            LeaveTypeChange(name: "medical", drawsOnAllowance: false, needsApproval: true, isPrivate: true), by: actor(f.admin))

        // Asked, cancelled with a note, asked again, rejected with a reason, and reminded of in the digest; then sick
        // leave, approved at once.
        let noon = f.clock.now()
        let first = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(8)), leaveTypeID: medical.id,
            comment: "Surgery on the knee", actor: actor(f.bob))
        try await f.service.perform(.cancel, on: first.id, by: actor(f.bob), note: "Bring the X-ray")
        let second = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(14), end: f.weekday(14)), leaveTypeID: medical.id,
            comment: "Surgery on the knee", actor: actor(f.bob))
        f.clock.set(noon.addingTimeInterval(3 * 86_400))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 2)
        try await f.service.perform(.reject, on: second.id, by: actor(f.admin), note: "Bring the X-ray")
        _ = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(21), end: f.weekday(21)), leaveTypeID: LeaveType.sickID,
            comment: "Flu since Sunday", actor: actor(f.bob))

        let messages = try await f.services.delivery.messages(limit: 1000)
        let toOthers = messages.filter { $0.draft.channel != .webhook && $0.draft.employeeID != f.bob.id }
        let toOwner = messages.filter { $0.draft.channel != .webhook && $0.draft.employeeID == f.bob.id }
        let hooks = messages.filter { $0.draft.channel == .webhook && $0.draft.webhookID != optedIn.id }
        let opted = messages.filter { $0.draft.webhookID == optedIn.id }
        #expect(Set(toOthers.map(\.draft.channel)) == [.email, .push])
        #expect(toOthers.contains { $0.draft.event == .holidayReminder })
        #expect(toOthers.contains { $0.draft.event == .holidayCancelled })
        #expect(Set(hooks.map(\.draft.webhookID)) == [plain.id, slack.id])
        #expect(Set(hooks.map(\.draft.event)) == [.holidayRequested, .holidayCancelled, .holidayRejected, .holidayApproved])
        for message in toOthers + hooks {
            let text = message.draft.subject + "\n" + message.draft.body
            for secret in Self.secrets { #expect(!text.contains(secret), "\(message.draft.channel) \(message.draft.event) holds \(secret): \(text)") }
        }
        #expect(toOthers.contains { ($0.draft.subject + $0.draft.body).contains("Absence") })
        for hook in hooks where hook.draft.webhookID == plain.id {
            let request = (Self.payload(hook)["data"] as? [String: Any])?["request"] as? [String: Any]
            #expect(request?["leaveType"] as? String == "absence" && request?["leaveTypeId"] is NSNull && request?["comment"] as? String == "")
            #expect((Self.payload(hook)["data"] as? [String: Any])?["note"] as? String == "")
        }
        // The owner reads their own request whole; the opted-in webhook gets the details.
        #expect(toOwner.contains { $0.draft.event == .holidayRejected && $0.draft.body.contains("Bring the X-ray") && $0.draft.body.contains("medical leave") })
        let optedBodies = opted.map(\.draft.body).joined()
        #expect(optedBodies.contains("\"leaveType\":\"medical\"") && optedBodies.contains("Surgery on the knee") && optedBodies.contains("Bring the X-ray"))
        #expect(optedBodies.contains("\"leaveType\":\"sick\"") && optedBodies.contains("Flu since Sunday"))
    }
}
