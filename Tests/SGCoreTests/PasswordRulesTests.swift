import Foundation
import Testing
@testable import SGCore

@Suite struct PasswordRulesTests {
    static func refusal(_ password: String, username: String? = "alexandria") -> String? {
        do {
            try PasswordRules.check(password, username: username, field: "newPassword")
            return nil
        } catch let SGError.invalid(field, message) {
            return "\(field): \(message)"
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func newPasswordsObeyEveryRule() {
        #expect(Self.refusal("ten chars!") == nil)
        #expect(Self.refusal("nine char") == "newPassword: at least 10 characters")
        // Characters are code points, as the contract's minLength counts: ten accented letters are enough.
        #expect(Self.refusal(String(repeating: "é", count: 10)) == nil)
        #expect(Self.refusal(String(repeating: "x", count: 256)) == nil)
        #expect(Self.refusal(String(repeating: "x", count: 257)) == "newPassword: at most 256 bytes in UTF-8")
        // 129 two-byte letters are 258 bytes: fewer characters than the limit, more bytes.
        #expect(Self.refusal(String(repeating: "é", count: 129)) == "newPassword: at most 256 bytes in UTF-8")
        #expect(Self.refusal("long enough\u{0}x") == "newPassword: must not contain the NUL character (U+0000)")
        #expect(Self.refusal("Alexandria") == "newPassword: must not be the username")
        #expect(Self.refusal("ALEXANDRIA") == "newPassword: must not be the username")
        #expect(Self.refusal("alexandria!") == nil)
        #expect(Self.refusal("alexandria", username: nil) == nil)
        // Kept as typed: spaces count.
        #expect(Self.refusal("          ") == nil)
    }

    @Test func resetTokensAreURLSafeRandomAndRecognised() {
        let (token, digest) = PasswordService.makeResetToken()
        #expect(token.hasPrefix("sgr_") && token.utf8.count == 47)
        #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        #expect(digest == Digests.sha256(Array(token.utf8)) && digest.count == 32)
        #expect(PasswordService.makeResetToken().token != token)
        #expect(PasswordService.isResetTokenShaped(token))
        for other in ["", "sgr_", "sg_" + token.dropFirst(4), token + "x", String(token.dropLast()) + "=", String(token.dropLast()) + "é"] {
            #expect(!PasswordService.isResetTokenShaped(other), "\(other)")
        }
    }

    @Test func theResetMailCarriesTheLinkOrElseTheToken() {
        let alice = Employee(id: 2, username: "alice", name: "Alice", surname: "Example", email: "alice@example.com", isAdmin: false, isActive: true)
        let linked = ResetMail(employee: alice, token: "sgr_T", publicURL: "https://hr.example.com")
        #expect(linked.body.contains("\nhttps://hr.example.com/reset-password?token=sgr_T\n"))
        #expect(linked.body.contains("30 minutes") && linked.body.contains("alice"))
        let bare = ResetMail(employee: alice, token: "sgr_T", publicURL: "")
        #expect(bare.body.contains("\nsgr_T\n") && !bare.body.contains("reset-password"))
    }
}
