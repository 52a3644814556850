import Foundation
import Testing
import SGCore

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
}
