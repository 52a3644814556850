import Foundation
import SGCore

/// An e-mail address with an optional display name: `noreply@example.com` or `SGEmployee <noreply@example.com>`.
public struct MailAddress: Sendable, Equatable {
    public var name: String
    public var address: String

    public init(name: String = "", address: String) {
        self.name = name
        self.address = address
    }

    /// `address` or `Name <address>` (the name may be quoted); nil unless the address is deliverable as is.
    public init?(parsing text: String) {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            var name = text[..<open].trimmingCharacters(in: .whitespaces)
            if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
                name = String(name.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                    .replacingOccurrences(of: "\\\\", with: "\\")
            }
            self.init(name: name, address: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
        } else {
            self.init(address: text)
        }
        guard Self.isDeliverable(address), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return nil
        }
    }

    /// The part after the @.
    public var domain: String {
        address.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// A plain ASCII `local@domain` that can go into an SMTP envelope and a header unquoted: no spaces, angle
    /// brackets, quotes or control characters, one @ with text on both sides. (No SMTPUTF8: non-ASCII addresses are
    /// refused rather than sent where they may not arrive.)
    public static func isDeliverable(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254 else { return false }
        return address.utf8.allSatisfy { byte in
            byte > 32 && byte < 127 && !"<>()[]\\,;:\"".utf8.contains(byte)
        }
    }
}

/// An outbox e-mail as the bytes an SMTP server receives (RFC 5322 with MIME, CRLF line ends): UTF-8 text in
/// quoted-printable, non-ASCII names and subjects as RFC 2047 encoded words, every line at most 78 characters.
public enum MailMessage {
    /// The longest header line we write (RFC 5322 § 2.1.1 recommends 78); encoded words are at most 75 (RFC 2047).
    static let lineLimit = 78
    static let encodedWordLimit = 75

    public static func render(_ message: OutboxMessage, from: MailAddress) -> String {
        let draft = message.draft
        let headers = [
            "Date: " + date(message.createdAt),
            "Message-ID: " + messageID(message, from: from),
            address("From", from),
            address("To", MailAddress(name: draft.recipientName, address: draft.address)),
            unstructured("Subject", draft.subject),
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            // RFC 3834: no vacation replies to a machine; Exchange reads its own header for the same.
            "Auto-Submitted: auto-generated",
            "X-Auto-Response-Suppress: All",
        ]
        var body = quotedPrintable(draft.body)
        // SMTP ends the data with CRLF "." CRLF: a last line without its CRLF would get one on the way anyway.
        if !body.isEmpty, !body.hasSuffix("\r\n") { body += "\r\n" }
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body
    }

    /// `<deliveryID@domain of From>`: the same on every attempt, so a receiver can drop a repeat.
    public static func messageID(_ message: OutboxMessage, from: MailAddress) -> String {
        "<\(message.deliveryID)@\(from.domain)>"
    }

    // MARK: Date

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// RFC 5322's date-time in UTC: `Mon, 02 Mar 2026 12:00:00 +0000`.
    public static func date(_ instant: Date) -> String {
        let day = CalendarDate(instant, in: .gmt)
        let second = Int(instant.timeIntervalSince(day.start(in: .gmt)))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[day.isoWeekday - 1]), \(two(day.day)) \(months[day.month - 1]) \(day.year) "
            + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) +0000"
    }

    // MARK: Headers

    /// "Name: value" for a text header, folded: as it is when it is printable ASCII (folded at spaces), otherwise
    /// (or when a word is too long to fold) as encoded words. Line breaks and other control characters in `value`
    /// become spaces, so no text can add a header.
    static func unstructured(_ name: String, _ value: String) -> String {
        let value = singleLine(value)
        let prefix = name + ": "
        if isPlainASCII(value), let folded = foldedAtSpaces(prefix + value) { return folded }
        return prefix + encodedWords(value, firstLineUsed: prefix.count)
    }

    /// "From: name <address>" with the name as atoms, a quoted string or encoded words.
    static func address(_ header: String, _ mailbox: MailAddress) -> String {
        let name = singleLine(mailbox.name).trimmingCharacters(in: .whitespaces)
        let prefix = header + ": "
        let angle = "<\(mailbox.address)>"
        guard !name.isEmpty else { return prefix + angle }
        var phrase: String
        if name.unicodeScalars.allSatisfy(isAtomOrSpace) {
            phrase = name
        } else if isPlainASCII(name) {
            phrase = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        } else {
            phrase = encodedWords(name, firstLineUsed: prefix.count)
        }
        if isPlainASCII(name), prefix.count + phrase.count > lineLimit {
            phrase = encodedWords(name, firstLineUsed: prefix.count)
        }
        let lastLine = phrase.components(separatedBy: "\r\n").last ?? phrase
        let lastLineLength = (phrase.contains("\r\n") ? 0 : prefix.count) + lastLine.count
        return prefix + phrase + (lastLineLength + 1 + angle.count > lineLimit ? "\r\n " : " ") + angle
    }

    /// `text` as RFC 2047 B-encoded UTF-8 words, each at most 75 characters and cut between characters (never
    /// inside one's UTF-8 bytes), one word per line: the first line already holds `firstLineUsed` characters, every
    /// further line starts with a space. A decoder joins adjacent encoded words without the space between them.
    static func encodedWords(_ text: String, firstLineUsed: Int) -> String {
        func capacity(_ used: Int) -> Int {
            // "=?UTF-8?B?" + base64 + "?=": 12 characters around 4 for every 3 bytes.
            (min(encodedWordLimit, lineLimit - used) - 12) / 4 * 3
        }
        var words: [[UInt8]] = []
        var current: [UInt8] = []
        var limit = capacity(firstLineUsed)
        for character in text {
            // A character longer than a word (a long emoji sequence) goes in by its scalars.
            let pieces = character.utf8.count <= capacity(1) ? [Array(character.utf8)] : character.unicodeScalars.map { Array(String($0).utf8) }
            for piece in pieces {
                if current.count + piece.count > limit, !current.isEmpty {
                    words.append(current)
                    current = []
                    limit = capacity(1)
                }
                current += piece
            }
        }
        if !current.isEmpty || words.isEmpty { words.append(current) }
        return words.map { "=?UTF-8?B?" + Data($0).base64EncodedString() + "?=" }.joined(separator: "\r\n ")
    }

    /// `line` folded at spaces into lines of at most 78 characters; nil when a word is too long for that.
    static func foldedAtSpaces(_ line: String) -> String? {
        guard line.count > lineLimit else { return line }
        var lines: [String] = []
        var current = ""
        for (index, word) in line.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index == 0 {
                current = String(word)
            } else if current.count + 1 + word.count <= lineLimit {
                current += " " + word
            } else {
                lines.append(current)
                current = " " + word
            }
            if current.count > lineLimit { return nil }
        }
        lines.append(current)
        // A line of only white space would be read as the end of the headers by some parsers.
        guard !lines.contains(where: { $0.allSatisfy { $0 == " " } }) else { return nil }
        return lines.joined(separator: "\r\n")
    }

    private static func singleLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : $0
        }))
    }

    /// Printable ASCII with nothing a decoder could take for an encoded word.
    private static func isPlainASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 32 && $0 < 127 } && !text.contains("=?")
    }

    /// RFC 5322's atext, or a space.
    private static func isAtomOrSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || " !#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar))
    }

    // MARK: Body

    /// `text` as quoted-printable UTF-8 (RFC 2045) with CRLF line ends: lines at most 76 characters, soft breaks
    /// where longer, "=" and bytes outside printable ASCII escaped, white space at a line's end escaped, and a line
    /// starting with "." (or "From ") escaped so that neither SMTP's dot-stuffing nor an mbox can alter it.
    public static func quotedPrintable(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var output: [UInt8] = []
        output.reserveCapacity(normalized.utf8.count + normalized.utf8.count / 8)
        let lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        for (lineIndex, line) in lines.enumerated() {
            if lineIndex > 0 { output += [13, 10] }
            let bytes = Array(line.utf8)
            var column = 0
            for (index, byte) in bytes.enumerated() {
                let last = index == bytes.count - 1
                let atStart = column == 0
                var escape = !(byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) && !((byte == 32 || byte == 9) && !last)
                if atStart && byte == UInt8(ascii: ".") { escape = true }
                if atStart && byte == UInt8(ascii: "F") && bytes[index...].starts(with: "From ".utf8) { escape = true }
                let width = escape ? 3 : 1
                // Room for the token and, unless it ends the line, a soft break's "=".
                if column + width > (last ? 76 : 75) {
                    output += [UInt8(ascii: "="), 13, 10]
                    column = 0
                    if byte == UInt8(ascii: ".") || (byte == UInt8(ascii: "F") && bytes[index...].starts(with: "From ".utf8)) {
                        escape = true
                    }
                }
                if escape {
                    output += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                    column += 3
                } else {
                    output.append(byte)
                    column += 1
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
