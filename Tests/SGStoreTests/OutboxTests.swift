import Foundation
import GRDB
import SGCore
@testable import SGStore
import SGTestSupport
import Testing

/// The outbox through the real store: who hears of what, in the event's transaction, and the worker's side of it
/// (leases, attempts, backoff, dead messages) without any network.
@Suite struct OutboxTests {
    private func emailOn(_ f: Fixture, publicURL: String = "https://hr.example.com") async throws {
        try await f.services.delivery.announce(DeliveryConfiguration(emailEnabled: true, publicURL: publicURL))
    }

    private func all(_ f: Fixture) async throws -> [OutboxMessage] {
        try await f.services.delivery.messages(limit: 1000)
    }

    private func actor(_ employee: Employee) -> Actor {
        Actor(employeeID: employee.id, name: employee.username, isAdmin: employee.isAdmin)
    }

    /// A page says whether more follow even at the largest limit, and counts the outbox it was read from.
    @Test func aFullPageAtTheLargestLimitPointsToTheNext() async throws {
        let f = try await Fixture.make()
        let limit = DeliveryService.maximumLimit
        try await f.services.delivery.store.write { tx in
            for n in 0...limit {
                try tx.enqueue(OutboxDraft(channel: .email, event: .holidayRequested, address: "m\(n)@example.com", body: "\(n)"), at: f.clock.now())
            }
        }
        let first = try await f.services.delivery.page(limit: limit)
        #expect(first.items.count == limit && first.nextAfterID == first.items.last?.id)
        #expect(first.counts[.pending] == limit + 1)
        let last = try await f.services.delivery.page(afterID: first.nextAfterID, limit: limit)
        #expect(last.items.map(\.draft.address) == ["m\(limit)@example.com"] && last.nextAfterID == nil)
    }

    /// A claim reads the due messages in order from outbox_due and stops at its limit, however many are pending: not
    /// all of them sorted each time (a notice to 100,000 employees went out at 20 e-mails a second that way).
    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func aClaimReadsOnlyTheDueMessagesItTakes() async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan(SQLOutbox.claimSQL[.sqlite], ["owner", "2026-01-01", "2026-01-01", 10, " email "])
        #expect(plan.contains("USING INDEX outbox_due"), "\(plan)")
        #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
    }

    @Test func withEmailOffAndNoSubscriptionNothingIsWritten() async throws {
        let f = try await Fixture.make()
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        #expect(try await all(f).isEmpty)
    }

    @Test func aNewRequestGoesToTheApproversAndADecisionToTheOwner() async throws {
        let f = try await Fixture.make()
        try await emailOn(f)
        let request = try await f.service.createRequest(
            for: f.bob.id, start: f.weekday(7), end: f.weekday(7), comment: "Dentist", actor: actor(f.bob))
        var messages = try await all(f)
        #expect(messages.map(\.draft.address).sorted() == ["admin2@example.com", "admin@example.com"])
        #expect(messages.allSatisfy { $0.draft.event == .holidayRequested && $0.status == .pending && $0.draft.channel == .email })
        let first = try #require(messages.first)
        #expect(first.draft.subject.contains("José Núñez, \"Pepe\""))
        #expect(first.draft.body.contains("Dentist"))
        #expect(first.draft.body.contains("https://hr.example.com/holidays/\(request.id)"))

        try await f.service.perform(.approve, on: request.id, by: actor(f.admin))
        messages = try await all(f)
        let decision = try #require(messages.last)
        #expect(messages.count == 3)
        #expect(decision.draft.address == "bob@example.com")
        #expect(decision.draft.event == .holidayApproved)
        #expect(decision.draft.subject.contains("approved"))
        #expect(decision.draft.body.contains("approved by admin"))

        // The owner cancels: the approvers hear of it, the owner (who did it) does not.
        try await f.service.perform(.cancel, on: request.id, by: actor(f.bob))
        let cancelled = try await all(f).dropFirst(3)
        #expect(cancelled.map(\.draft.address).sorted() == ["admin2@example.com", "admin@example.com"])
        #expect(cancelled.allSatisfy { $0.draft.event == .holidayCancelled })
    }

    @Test("push: one message per device on the configured platforms, in the reader's language; approvers read a private type as an absence")
    func push() async throws {
        let f = try await Fixture.make()
        try await f.services.delivery.announce(DeliveryConfiguration(publicURL: "https://hr.example.com", pushPlatforms: [.ios, .android]))
        _ = try await f.services.devices.registerDevice(employeeID: f.admin.id, token: "apns-admin-phone", platform: .ios)
        _ = try await f.services.devices.registerDevice(employeeID: f.bob.id, token: "fcm-bob-phone", platform: .android)
        // Web Push is not configured: a browser cannot even register.
        await #expect(throws: SGError.self) {
            try await f.services.devices.registerWebDevice(employeeID: f.bob.id, subscription: WebPushSubscription(
                endpoint: "https://push.example.net/bob",
                p256dh: "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4", auth: "BTBZMqHH6r4Tts7J_aSIgg"))
        }
        var patch = ProfilePatch()
        patch.language = .set("es")
        _ = try await f.services.people.updateProfile(employeeID: f.admin.id, patch, owned: [], directoryKind: "local")
        let medical = try await f.services.leaveTypes.create(
            LeaveTypeChange(name: "medical", drawsOnAllowance: false, needsApproval: true, isPrivate: true), by: actor(f.admin))

        let request = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(8)), leaveTypeID: medical.id,
            comment: "Surgery", actor: actor(f.bob))
        let asked = try await all(f)
        // E-mail is off; only the admin with a device hears of it, in Spanish, without the type or the comment.
        #expect(asked.map(\.draft.channel) == [.push])
        let toAdmin = try #require(asked.first)
        #expect(toAdmin.draft.address == "apns-admin-phone" && toAdmin.draft.employeeID == f.admin.id && toAdmin.draft.recipientName == "ios")
        let text = try #require(PushNotification(json: toAdmin.draft.body))
        #expect(text.title.hasPrefix("Por decidir: José Núñez"), "\(text.title)")
        #expect(text.body.hasPrefix("Ausencia del \(f.weekday(7)) al \(f.weekday(8))"), "\(text.body)")
        #expect(!text.body.lowercased().contains("medical") && !text.body.contains("Surgery"))
        #expect(text.requestId == request.id && text.event == "holiday.requested")

        try await f.service.perform(.reject, on: request.id, by: actor(f.admin), note: "Overlaps the audit")
        let toBob = try #require(try await all(f).last)
        #expect(toBob.draft.address == "fcm-bob-phone" && toBob.draft.event == .holidayRejected)
        let rejected = try #require(PushNotification(json: toBob.draft.body))
        #expect(rejected.title == "Request rejected")
        #expect(rejected.body.hasPrefix("Medical leave \(f.weekday(7)) to \(f.weekday(8))") && rejected.body.hasSuffix("by admin: Overlaps the audit"))

        // Push off removes the devices: nothing more is written for them.
        _ = try await f.services.devices.setChannels(employeeID: f.bob.id, push: false)
        let second = try await f.service.createRequest(
            for: f.bob.id, start: f.weekday(12), end: f.weekday(12), comment: "", actor: actor(f.bob))
        let before = try await all(f).count
        _ = try await f.service.perform(.approve, on: second.id, by: actor(f.admin))
        #expect(try await all(f).count == before)
    }

    @Test func theEmailSwitchIsRespected() async throws {
        let f = try await Fixture.make()
        try await emailOn(f)
        _ = try await f.services.devices.setChannels(employeeID: f.secondAdmin.id, email: false)
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        #expect(try await all(f).map(\.draft.address) == ["admin@example.com"])
    }

    @Test func aRefusedMoveWritesNoMessage() async throws {
        let f = try await Fixture.make()
        try await emailOn(f)
        let request = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        let before = try await all(f).count
        // A rejection needs a reason; approving twice is a wrong state; both refuse without writing.
        await #expect(throws: SGError.self) { try await f.service.perform(.reject, on: request.id, by: actor(f.admin)) }
        try await f.service.perform(.approve, on: request.id, by: actor(f.admin))
        let afterApprove = try await all(f).count
        await #expect(throws: SGError.self) { try await f.service.perform(.approve, on: request.id, by: actor(f.admin)) }
        #expect(afterApprove == before + 1)
        #expect(try await all(f).count == afterApprove)
    }

    @Test func webhooksGetTheEventsTheyAskedFor() async throws {
        let f = try await Fixture.make()
        let op = Fixture.operatorActor
        let hook = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/a", events: [.holidayApproved]), by: op)
        let slack = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.slack.example/b", events: [.holidayRequested, .holidayApproved], format: .slack), by: op)
        #expect(hook.secret.hasPrefix("whsec_"))
        #expect(Data(base64Encoded: String(hook.secret.dropFirst(6)))?.count == 32)

        let request = try await f.service.createRequest(
            for: f.bob.id, start: f.weekday(7), end: f.weekday(8), comment: "", actor: actor(f.bob))
        try await f.service.perform(.approve, on: request.id, by: actor(f.admin), note: "Enjoy")
        let messages = try await all(f)
        #expect(messages.map(\.draft.webhookID) == [slack.id, hook.id, slack.id])
        #expect(messages.allSatisfy { $0.draft.channel == .webhook })

        let standard = try #require(messages.first { $0.draft.webhookID == hook.id })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(standard.draft.body.utf8)) as? [String: Any])
        #expect(json["type"] as? String == "holiday.approved")
        let data = try #require(json["data"] as? [String: Any])
        let body = try #require(data["request"] as? [String: Any])
        let employee = try #require(data["employee"] as? [String: Any])
        #expect(body["id"] as? Int == Int(request.id))
        #expect(body["status"] as? String == "approved")
        #expect(body["decidedBy"] as? String == "admin")
        #expect(employee["name"] as? String == "José")
        #expect(data["note"] as? String == "Enjoy")

        let text = try #require(try JSONSerialization.jsonObject(with: Data(messages[0].draft.body.utf8)) as? [String: String])
        #expect(text["text"]?.contains("José Núñez") == true)

        // A removed subscription gets nothing more; its messages stay.
        try await f.services.webhooks.remove(id: slack.id, by: op)
        try await f.service.perform(.revert, on: request.id, by: actor(f.admin))
        #expect(try await all(f).count == 3)
    }

    @Test func subscriptionsAreChecked() async throws {
        let f = try await Fixture.make()
        let op = Fixture.operatorActor
        for (url, insecure) in [("http://hooks.example.com/x", false), ("ftp://example.com/x", false), ("not a url", false),
                                ("https://user:pw@example.com/x", false), ("/relative", true)] {
            await #expect(throws: SGError.self) {
                _ = try await f.services.webhooks.add(WebhookDraft(url: url, events: [.holidayApproved], allowInsecure: insecure), by: op)
            }
        }
        await #expect(throws: SGError.self) {
            _ = try await f.services.webhooks.add(WebhookDraft(url: "https://example.com", events: []), by: op)
        }
        await #expect(throws: SGError.self) {
            _ = try await f.services.webhooks.add(WebhookDraft(url: "https://example.com", events: [.passwordReset]), by: op)
        }
        await #expect(throws: SGError.self) {
            _ = try await f.services.webhooks.list(by: Actor(employeeID: f.alice.id, name: "alice", isAdmin: false))
        }
        // Internal addresses, and names that only look like this machine's, are refused unless allowed.
        for url in ["http://127.0.0.1:8080/x", "http://127.attacker.example/x", "https://169.254.169.254/", "https://10.0.0.1/x"] {
            await #expect(throws: SGError.self, "\(url)") {
                _ = try await f.services.webhooks.add(WebhookDraft(url: url, events: [.holidayApproved]), by: op)
            }
        }
        let allowing = f.database.services(clock: f.clock, destinations: try DestinationPolicy(parsing: "127.0.0.1:8080"))
        _ = try await allowing.webhooks.add(WebhookDraft(url: "http://127.0.0.1:8080/x", events: [.holidayApproved]), by: op)
        _ = try await f.services.webhooks.add(
            WebhookDraft(url: "http://intranet.local/x", events: [.holidayApproved], allowInsecure: true), by: op)
        #expect(try await f.services.webhooks.list(by: op).count == 2)
        #expect(try await f.count("webhooks") == 2)
    }

    @Test func aNoticeGoesToEveryoneWhoWantsEmail() async throws {
        let f = try await Fixture.make()
        try await emailOn(f, publicURL: "")
        _ = try await f.services.devices.setChannels(employeeID: f.alice.id, email: false)
        _ = try await f.services.notices.post(NoticeDraft(title: "Cañón party", body: "Friday.", pinned: false, expiresOn: nil), by: Fixture.operatorActor)
        let messages = try await all(f)
        #expect(messages.map(\.draft.address).sorted() == ["admin2@example.com", "admin@example.com", "bob@example.com"])
        #expect(messages.allSatisfy { $0.draft.subject == "Notice: Cañón party" && !$0.draft.body.contains("http") })
    }

    @Test func claimsLeaseRecordAndGiveUp() async throws {
        let f = try await Fixture.make()
        let policy = RetryPolicy(firstDelay: 10, maximumDelay: 100, lease: 60)
        let delivery = DeliveryService(store: f.database.outboxStore, clock: f.clock, policy: policy)
        try await emailOn(f)
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))

        // Two workers never hold the same message.
        let a = try await delivery.claim(owner: "a", limit: 1)
        let b = try await delivery.claim(owner: "b", limit: 10)
        #expect(a.count == 1 && b.count == 1 && a[0].id != b[0].id)
        #expect(try await delivery.claim(owner: "c", limit: 10).isEmpty)
        #expect(a[0].attempts == 1)

        // A worker that lost its lease changes nothing; a live lease records.
        f.clock.set(f.clock.now().addingTimeInterval(61))
        let reclaimed = try await delivery.claim(owner: "c", limit: 10)
        #expect(Set(reclaimed.map(\.id)) == Set([a[0].id, b[0].id]))
        #expect(reclaimed.allSatisfy { $0.attempts == 2 })
        #expect(try await delivery.record(.delivered, for: a[0], owner: "a") == .sent)
        #expect(try await delivery.message(id: a[0].id).status == .pending)

        let first = try #require(reclaimed.first { $0.id == a[0].id })
        let second = try #require(reclaimed.first { $0.id == b[0].id })
        #expect(try await delivery.record(.delivered, for: first, owner: "c") == .sent)
        let sent = try await delivery.message(id: first.id)
        #expect(sent.status == .sent && sent.sentAt == f.clock.now() && sent.leaseOwner == nil)

        // A temporary failure waits (between half and all of 10 s × 2^(attempts-1)), then may be claimed again.
        #expect(try await delivery.record(.temporaryFailure("451 busy"), for: second, owner: "c", jitter: 1) == .pending)
        var retried = try await delivery.message(id: second.id)
        #expect(retried.nextAttemptAt == f.clock.now().addingTimeInterval(20))
        #expect(retried.lastError == "451 busy")
        #expect(try await delivery.claim(owner: "c", limit: 10).isEmpty)
        f.clock.set(f.clock.now().addingTimeInterval(20))
        let again = try #require(try await delivery.claim(owner: "c", limit: 10).first)

        // Past the give-up time, a temporary failure is final; the operator can revive it for a new period.
        f.clock.set(f.clock.now().addingTimeInterval(86_400))
        #expect(try await delivery.record(.temporaryFailure("451 busy"), for: again, owner: "c") == .dead)
        retried = try await delivery.message(id: second.id)
        #expect(retried.status == .dead && retried.lastError?.contains("gave up after 3 attempts") == true)
        #expect(try await delivery.retry(id: second.id).status == .pending)
        await #expect(throws: SGError.self) { _ = try await delivery.retry(id: second.id) }
        let revived = try #require(try await delivery.claim(owner: "d", limit: 10).first)
        #expect(try await delivery.record(.permanentFailure("550 no such user"), for: revived, owner: "d") == .dead)
        #expect(try await delivery.retryDead() == 1)
        #expect(try await delivery.counts() == [.pending: 1, .sent: 1, .dead: 0])

        // Sent messages are purged by date.
        #expect(try await delivery.purgeSent(before: f.day(-1)) == 0)
        #expect(try await delivery.purgeSent(before: f.day(2)) == 1)
        #expect(try await delivery.counts()[.sent] == 0)
    }

    @Test func retryAfterIsHonouredAndDelaysGrowWithJitter() {
        let policy = RetryPolicy(firstDelay: 30, maximumDelay: 3600)
        #expect(policy.delay(afterAttempts: 1, retryAfter: nil, jitter: 0) == 15)
        #expect(policy.delay(afterAttempts: 1, retryAfter: nil, jitter: 1) == 30)
        #expect(policy.delay(afterAttempts: 3, retryAfter: nil, jitter: 1) == 120)
        #expect(policy.delay(afterAttempts: 40, retryAfter: nil, jitter: 1) == 3600)
        #expect(policy.delay(afterAttempts: 1, retryAfter: 300, jitter: 1) == 300)
        #expect(policy.delay(afterAttempts: 1, retryAfter: 90_000, jitter: 1) == 3600)
    }

    @Test func aGoneEndpointDisablesItsSubscription() async throws {
        let f = try await Fixture.make()
        let hook = try await f.services.webhooks.add(
            WebhookDraft(url: "https://hooks.example.com/a", events: [.holidayRequested]), by: Fixture.operatorActor)
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        let message = try #require(try await f.services.delivery.claim(owner: "w", limit: 1).first)
        #expect(try await f.services.delivery.record(.gone("410 Gone"), for: message, owner: "w") == .dead)
        let disabled = try await f.services.webhooks.subscription(id: hook.id, by: Fixture.operatorActor)
        #expect(disabled.disabledAt != nil && disabled.disabledReason == "410 Gone")
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: actor(f.alice))
        #expect(try await all(f).count == 1)
    }

    @Test func remindersGoOnceADayFromTheMorning() async throws {
        let f = try await Fixture.make()
        try await emailOn(f)
        let noon = f.clock.now()
        _ = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        let baseline = try await all(f).count
        // Not yet waited 48 hours.
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 0)
        // Three days later, at 07:00 UTC (company zone UTC): before the reminder hour.
        f.clock.set(noon.addingTimeInterval(3 * 86_400 - 5 * 3600))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 0)
        f.clock.set(noon.addingTimeInterval(3 * 86_400 - 3 * 3600))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 2)
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 0)
        let digests = try await all(f).dropFirst(baseline)
        #expect(digests.allSatisfy { $0.draft.event == .holidayReminder && $0.draft.subject == "1 holiday request waits for your decision" })
        #expect(digests.first?.draft.body.contains("Alice Example") == true)
        // The next day, another digest.
        f.clock.set(noon.addingTimeInterval(4 * 86_400))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 2)
    }
    /// With teams, the people asked to decide hear of a request: the team's approvers and a running substitute, not
    /// the admins; at the second stage, the admins; the daily digest goes to the same people.
    @Test func teamRequestsGoToTheirApproversAndSubstitutes() async throws {
        let f = try await Fixture.make()
        try await emailOn(f)
        let hash = "x"
        let sue = try await f.services.accounts.addEmployee(NewEmployee(
            username: "sue", name: "Sue", surname: "Stand-in", email: "sue@example.com", isAdmin: false, passwordHash: hash))
        let teams = f.services.teams
        let team = try await teams.create(name: "Support", twoStage: true, by: Fixture.operatorActor)
        _ = try await teams.addMember(teamID: team.id, employeeID: f.alice.id, by: Fixture.operatorActor)
        _ = try await teams.addApprover(teamID: team.id, employeeID: f.bob.id, by: Fixture.operatorActor)
        _ = try await teams.delegate(from: actor(f.bob), to: sue.id, from: f.today, until: f.day(10))
        let noon = f.clock.now()
        let request = try await f.service.createRequest(
            for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: actor(f.alice))
        var messages = try await all(f)
        #expect(messages.map(\.draft.address).sorted() == ["bob@example.com", "sue@example.com"])
        // A digest to the same two, two days later.
        f.clock.set(noon.addingTimeInterval(3 * 86_400))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 2)
        let afterDigest = try await all(f).count
        _ = try await f.service.perform(.approve, on: request.id, by: actor(f.bob))
        messages = Array(try await all(f).dropFirst(afterDigest))
        #expect(messages.map(\.draft.address).sorted() == ["admin2@example.com", "admin@example.com", "alice@example.com"])
        #expect(messages.first { $0.draft.address == "admin@example.com" }?.draft.subject.hasPrefix("To decide:") == true)
    }
}
