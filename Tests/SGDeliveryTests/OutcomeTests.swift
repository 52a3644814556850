import Foundation
import SGCore
@testable import SGDelivery
import Testing

/// How an answer becomes an outcome, and the webhook signature, without a server.
@Suite("Outcomes and signatures")
struct OutcomeTests {
    static let ok: UInt32 = 0
    /// CURLE_SEND_ERROR, as libcurl reports a refused RCPT TO.
    static let sendError: UInt32 = 55
    static let couldNotConnect: UInt32 = 7
    static let timedOut: UInt32 = 28
    static let loginDenied: UInt32 = 67

    @Test("the Standard Webhooks signature of the specification's example")
    func signatureVector() {
        let signature = WebhookSender.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: "1614265330", body: Array(#"{"test": 2432232314}"#.utf8),
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test("SMTP: taken is delivered, 4xx and network failures are temporary, 5xx is final, 53x is configuration")
    func smtp() {
        func outcome(_ code: UInt32, _ reply: Int, _ line: String? = nil) -> DeliveryOutcome {
            SMTPSender.outcome(CurlResponse(
                code: code, error: "RCPT failed: \(reply)", responseCode: reply, replies: (line.map { [$0] } ?? []) + ["221 Bye"]))
        }
        #expect(outcome(Self.ok, 250) == .delivered)
        guard case .permanentFailure(let reason) = outcome(Self.sendError, 550, "550 5.1.1 <x@example.com>: Recipient address rejected") else {
            Issue.record("550 is not final")
            return
        }
        #expect(reason.hasPrefix("550 5.1.1 <x@example.com>: Recipient address rejected"))
        #expect(reason.contains("RCPT failed: 550"))
        if case .temporaryFailure = outcome(Self.sendError, 451, "451 4.7.1 try later") {} else { Issue.record("451 is not temporary") }
        if case .temporaryFailure = outcome(Self.couldNotConnect, 0) {} else { Issue.record("a refused connection is not temporary") }
        if case .temporaryFailure = outcome(Self.timedOut, 0) {} else { Issue.record("a time-out is not temporary") }
        if case .temporaryFailure = outcome(Self.loginDenied, 535) {} else { Issue.record("refused credentials are not temporary") }
        if case .temporaryFailure = outcome(Self.sendError, 530) {} else { Issue.record("530 is not temporary") }
        if case .permanentFailure = outcome(Self.sendError, 554) {} else { Issue.record("554 is not final") }
    }

    @Test("webhooks: 2xx delivered, 410 gone, 408/429/5xx and time-outs temporary, other answers final")
    func webhooks() {
        let now = Date(timeIntervalSince1970: 1_772_452_800)
        func outcome(_ status: Int, code: UInt32 = 0, retryAfter: String? = nil, body: String = "") -> DeliveryOutcome {
            WebhookSender.outcome(
                CurlResponse(code: code, error: "", responseCode: status, body: Array(body.utf8), retryAfter: retryAfter), at: now)
        }
        #expect(outcome(200) == .delivered)
        #expect(outcome(204) == .delivered)
        if case .gone = outcome(410) {} else { Issue.record("410 is not gone") }
        #expect(outcome(500, body: "boom\n") == .temporaryFailure("HTTP 500: boom", retryAfter: nil))
        #expect(outcome(503, retryAfter: "7") == .temporaryFailure("HTTP 503", retryAfter: 7))
        #expect(outcome(429, retryAfter: "Mon, 02 Mar 2026 12:01:00 GMT") == .temporaryFailure("HTTP 429", retryAfter: 60))
        #expect(outcome(408) == .temporaryFailure("HTTP 408", retryAfter: nil))
        #expect(outcome(400, body: "bad") == .permanentFailure("HTTP 400: bad"))
        #expect(outcome(404) == .permanentFailure("HTTP 404"))
        #expect(outcome(301) == .permanentFailure("HTTP 301"))
        if case .temporaryFailure(let reason, _) = outcome(0, code: Self.timedOut) {
            #expect(reason.contains("curl 28"))
        } else {
            Issue.record("a time-out is not temporary")
        }
    }

    @Test("Retry-After: seconds or an HTTP date, in each of its three forms")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 784_111_777 - 30)  // 30 s before Sun, 06 Nov 1994 08:49:37 GMT
        #expect(WebhookSender.retryAfter("120", now: now) == 120)
        #expect(WebhookSender.retryAfter(" 5 ", now: now) == 5)
        #expect(WebhookSender.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
        #expect(WebhookSender.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == 30)
        #expect(WebhookSender.retryAfter("Sun Nov  6 08:49:37 1994", now: now) == 30)
        #expect(WebhookSender.retryAfter("Sun, 06 Nov 1994 08:48:37 GMT", now: now) == 0)
        #expect(WebhookSender.retryAfter("soon", now: now) == nil)
        #expect(WebhookSender.retryAfter("-1", now: now) == nil)
    }
}
