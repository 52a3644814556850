import Foundation
import SGCore
@testable import SGDelivery
import Testing

/// The e-mail's bytes, without a server: dates, encoded words, quoted-printable, addresses, and that no text can
/// add a header.
@Suite("E-mail format")
struct MailFormatTests {
    @Test("Date is RFC 5322 in UTC", arguments: [
        (0.0, "Thu, 01 Jan 1970 00:00:00 +0000"),
        (1_772_452_800, "Mon, 02 Mar 2026 12:00:00 +0000"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"),
        (-86_400, "Wed, 31 Dec 1969 00:00:00 +0000"),
        (4_102_444_799.9, "Thu, 31 Dec 2099 23:59:59 +0000"),
    ])
    func date(seconds: Double, expected: String) {
        #expect(MailMessage.date(Date(timeIntervalSince1970: seconds)) == expected)
    }

    /// The words of an encoded header value, each decoded on its own.
    static func decodedWords(_ value: String) -> [String?] {
        value.components(separatedBy: "\r\n").flatMap { $0.split(separator: " ") }.map { word in
            guard word.hasPrefix("=?UTF-8?B?"), word.hasSuffix("?="),
                  let data = Data(base64Encoded: String(word.dropFirst(10).dropLast(2)))
            else { return nil }
            return String(data: data, encoding: .utf8)
        }
    }

    @Test("a non-ASCII subject: encoded words of at most 75 characters, cut between characters, lines of at most 78")
    func encodedSubject() {
        for subject in [
            "Holiday request from José Ñúñez: 2026-08-10 to 2026-08-21",
            String(repeating: "Vacaciones de José Ñúñez en Añón — ", count: 8),
            String(repeating: "日本語のテキスト", count: 12),
            "👩‍👩‍👧‍👦 family day " + String(repeating: "🎉", count: 40),
            "é",
        ] {
            let header = MailMessage.unstructured("Subject", subject)
            let lines = header.components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.count <= 78 }, "\(lines.map(\.count))")
            #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
            let value = String(header.dropFirst("Subject: ".count))
            let words = Self.decodedWords(value)
            #expect(value.components(separatedBy: "\r\n").flatMap { $0.split(separator: " ") }.allSatisfy { $0.count <= 75 })
            // Every word is whole UTF-8 by itself, and together they are the subject.
            #expect(words.allSatisfy { $0 != nil })
            #expect(words.compactMap { $0 }.joined() == subject)
        }
    }

    @Test("an ASCII subject stays readable, folded at spaces when long")
    func asciiSubject() {
        #expect(MailMessage.unstructured("Subject", "Your holiday 2026-08-10 is approved") == "Subject: Your holiday 2026-08-10 is approved")
        let long = String(repeating: "approved holiday ", count: 10).trimmingCharacters(in: .whitespaces)
        let header = MailMessage.unstructured("Subject", long)
        let lines = header.components(separatedBy: "\r\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 78 })
        #expect(lines.joined() == "Subject: " + long)
        // Text that a decoder could take for an encoded word is encoded instead.
        #expect(MailMessage.unstructured("Subject", "=?UTF-8?B?SGk=?=").hasPrefix("Subject: =?UTF-8?B?"))
    }

    @Test("line breaks in a subject or a name cannot add a header")
    func headerInjection() {
        let draft = OutboxDraft(
            channel: .email, event: .noticePublished, address: "alice@example.com",
            recipientName: "Alice\r\nBcc: victim@example.com", subject: "Hi\r\nBcc: victim@example.com\nX-Evil: 1", body: "Hello\n")
        let message = OutboxMessage(id: 7, draft: draft, status: .pending, attempts: 1, createdAt: Date(timeIntervalSince1970: 1_772_452_800), nextAttemptAt: Date(), giveUpAt: Date())
        let text = MailMessage.render(message, from: MailAddress(address: "noreply@example.com"))
        let headers = text.components(separatedBy: "\r\n\r\n")[0].components(separatedBy: "\r\n")
        #expect(!headers.contains { $0.hasPrefix("Bcc:") || $0.hasPrefix("X-Evil:") })
        #expect(headers.contains("Subject: Hi  Bcc: victim@example.com X-Evil: 1"))
    }

    @Test("display names: atoms, quoted strings, encoded words")
    func displayNames() {
        #expect(MailMessage.address("To", MailAddress(name: "Alice Example", address: "a@example.com")) == "To: Alice Example <a@example.com>")
        #expect(MailMessage.address("To", MailAddress(name: "Smith, John \"JJ\"", address: "j@example.com"))
            == #"To: "Smith, John \"JJ\"" <j@example.com>"#)
        #expect(MailMessage.address("To", MailAddress(address: "j@example.com")) == "To: <j@example.com>")
        let encoded = MailMessage.address("To", MailAddress(name: "José Ñúñez", address: "jose@example.com"))
        #expect(encoded.hasPrefix("To: =?UTF-8?B?"))
        #expect(encoded.hasSuffix(" <jose@example.com>"))
        #expect(Self.decodedWords(String(encoded.dropFirst(4).dropLast(" <jose@example.com>".count))).compactMap { $0 }.joined() == "José Ñúñez")
    }

    @Test("addresses: plain or with a name; nothing an envelope cannot carry")
    func addresses() {
        #expect(MailAddress(parsing: "noreply@example.com") == MailAddress(address: "noreply@example.com"))
        #expect(MailAddress(parsing: "SGEmployee <noreply@example.com>") == MailAddress(name: "SGEmployee", address: "noreply@example.com"))
        #expect(MailAddress(parsing: "\"Holidays, HR\" <hr@example.com>") == MailAddress(name: "Holidays, HR", address: "hr@example.com"))
        #expect(MailAddress(parsing: "noreply@example.com")?.domain == "example.com")
        for bad in ["", "noreply", "@example.com", "a@", "a b@example.com", "a@b@c", "Name <>", "<a@example.com", "josé@example.com", "a@example.com\r\nBcc: x@y"] {
            #expect(MailAddress(parsing: bad) == nil, "\(bad)")
        }
    }

    /// Quoted-printable decoded, soft breaks joined (RFC 2045 § 6.7).
    static func decodeQuotedPrintable(_ text: String) -> String {
        var bytes: [UInt8] = []
        let lines = text.components(separatedBy: "\r\n")
        for (index, line) in lines.enumerated() {
            var scalars = Array(line.utf8)
            var soft = false
            if scalars.last == UInt8(ascii: "=") {
                soft = true
                scalars.removeLast()
            }
            var i = 0
            while i < scalars.count {
                if scalars[i] == UInt8(ascii: "="), i + 2 < scalars.count, let byte = UInt8(String(decoding: scalars[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                    bytes.append(byte)
                    i += 3
                } else {
                    bytes.append(scalars[i])
                    i += 1
                }
            }
            if !soft && index < lines.count - 1 { bytes.append(UInt8(ascii: "\n")) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("quoted-printable: lines of at most 76, no line starting with a dot, the text back when decoded")
    func quotedPrintable() {
        let texts = [
            "Hello José Ñúñez,\n\nYour holiday request from 2026-08-10 to 2026-08-21 (10 working days) was approved.\n",
            ".\n..leading dots\n.\nFrom the board: a line that mbox would mangle\n",
            String(repeating: "é", count: 200) + "\n" + String(repeating: "a", count: 300) + "\n",
            String(repeating: "x", count: 74) + ".y" + String(repeating: "=", count: 30) + "\n",
            "trailing space \ntrailing tab\t\nend without newline ",
            "windows\r\nline\rends\n",
            "",
        ]
        for text in texts {
            let encoded = MailMessage.quotedPrintable(text)
            let lines = encoded.components(separatedBy: "\r\n")
            #expect(lines.allSatisfy { $0.count <= 76 }, "\(lines.map(\.count))")
            #expect(!lines.contains { $0.hasPrefix(".") || $0.hasPrefix("From ") })
            #expect(!lines.contains { $0.hasSuffix(" ") || $0.hasSuffix("\t") })
            #expect(encoded.utf8.allSatisfy { $0 < 127 && ($0 >= 32 || $0 == 13 || $0 == 10) })
            let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            #expect(Self.decodeQuotedPrintable(encoded) == normalized)
        }
        #expect(MailMessage.quotedPrintable(".hi\nJosé = 1\n") == "=2Ehi\r\nJos=C3=A9 =3D 1\r\n")
    }

    @Test("the whole message: headers in order, a stable Message-ID, a blank line, the body")
    func render() throws {
        let draft = OutboxDraft(
            channel: .email, event: .holidayApproved, employeeID: 3, address: "jose@example.com", recipientName: "José Ñúñez",
            subject: "Your holiday 2026-08-10 is approved", body: "Hello,\n\nApproved.\n")
        let message = OutboxMessage(
            id: 42, draft: draft, status: .pending, attempts: 1, createdAt: Date(timeIntervalSince1970: 1_772_452_800),
            nextAttemptAt: Date(), giveUpAt: Date())
        let from = MailAddress(name: "SGEmployee", address: "noreply@holidays.example.com")
        let text = MailMessage.render(message, from: from)
        let blank = try #require(text.range(of: "\r\n\r\n"))
        let headers = text[..<blank.lowerBound].components(separatedBy: "\r\n")
        #expect(headers == [
            "Date: Mon, 02 Mar 2026 12:00:00 +0000",
            "Message-ID: <msg_42_1772452800@holidays.example.com>",
            "From: SGEmployee <noreply@holidays.example.com>",
            "To: =?UTF-8?B?\(Data("José Ñúñez".utf8).base64EncodedString())?= <jose@example.com>",
            "Subject: Your holiday 2026-08-10 is approved",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "Auto-Submitted: auto-generated",
            "X-Auto-Response-Suppress: All",
        ])
        #expect(text[blank.upperBound...] == "Hello,\r\n\r\nApproved.\r\n")
        #expect(MailMessage.messageID(message, from: from) == "<\(message.deliveryID)@holidays.example.com>")
    }
}
