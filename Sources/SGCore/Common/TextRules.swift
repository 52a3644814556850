import Foundation

public enum TextRules {
    /// Whether `text` as sent fits `maximum` characters, counted as the API contract's `maxLength` counts them:
    /// Unicode code points, before trimming. (Grapheme clusters after trimming would let texts through that the
    /// contract refuses, e.g. 101 accented letters written with combining marks in a 100-character field.)
    public static func fits(_ text: String, _ maximum: Int) -> Bool {
        text.unicodeScalars.count <= maximum
    }

    /// One line of text: trimmed, 1...`maximum` characters, no control characters.
    public static func line(_ text: String, field: String, maximum: Int) throws -> String {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, fits(text, maximum), !value.unicodeScalars.contains(where: isControl) else {
            throw SGError.invalid(field: field, message: "1 to \(maximum) characters on one line, no control characters")
        }
        return value
    }

    /// Several lines (line breaks and tabs allowed): trimmed, 1...`maximum` characters.
    public static func paragraphs(_ text: String, field: String, maximum: Int) throws -> String {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let allowed: Set<Unicode.Scalar> = ["\n", "\r", "\t"]
        guard !value.isEmpty, fits(text, maximum),
              !value.unicodeScalars.contains(where: { isControl($0) && !allowed.contains($0) }) else {
            throw SGError.invalid(field: field, message: "1 to \(maximum) characters, no control characters other than line breaks and tabs")
        }
        return value
    }

    public static func isPlausibleEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return fits(text, 254) && parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
            && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: { $0.isWhitespace || $0.isNewline })
            && !text.unicodeScalars.contains(where: isControl)
    }

    public static func email(_ text: String, field: String) throws -> String {
        let value = text.trimmingCharacters(in: .whitespaces)
        guard fits(text, 254), isPlausibleEmail(value) else { throw SGError.invalid(field: field, message: "'\(value)' is not an e-mail address") }
        return value
    }

    public static let maximumPhoneDigits = 15  // E.164

    /// A phone number as people write it: an optional leading '+', then digits with spaces, '-', '.', '/' or
    /// parentheses between them; 5 to 15 digits.
    public static func phone(_ text: String, field: String) throws -> String {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let separators = Set(" -./()")
        var digits = 0
        var wellFormed = !value.isEmpty && fits(text, 30)
        for (index, character) in value.enumerated() {
            if character.isASCII, character.isNumber {
                digits += 1
            } else if character == "+" {
                if index != 0 { wellFormed = false }
            } else if !separators.contains(character) {
                wellFormed = false
            }
        }
        guard wellFormed, (5...maximumPhoneDigits).contains(digits) else {
            throw SGError.invalid(
                field: field,
                message: "'\(value)' is not a phone number: use digits with an optional leading '+' (5 to \(maximumPhoneDigits) digits; spaces, '-', '.', '/' and parentheses allowed)")
        }
        return value
    }

    /// An absolute http(s) URL with a host, at most 300 characters; `hosts`, when given, are the domains allowed.
    public static func webAddress(_ text: String, field: String, hosts: [String]? = nil) throws -> String {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        func refuse(_ why: String) -> SGError { SGError.invalid(field: field, message: "'\(value)' \(why)") }
        guard fits(text, 300), !value.contains(where: { $0.isWhitespace || $0.isNewline }),
              let components = URLComponents(string: value), let scheme = components.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = components.host?.lowercased(), host.contains("."),
              components.user == nil, components.password == nil
        else { throw refuse("is not a web address: use https://host/path, at most 300 characters") }
        if let hosts, !hosts.contains(where: { host == $0 || host.hasSuffix("." + $0) }) {
            throw refuse("is not an address on \(hosts.joined(separator: " or "))")
        }
        return value
    }

    /// `text` for a terminal: every control or invisible format character but those `kept` is written as
    /// \u{…}, so that text people typed (kept as sent) cannot move the cursor, retitle the window, forge a line
    /// or reorder what an operator sees.
    public static func shownSafely(_ text: String, keeping kept: Set<Unicode.Scalar> = []) -> String {
        // Most texts are printable ASCII: look at the bytes before building anything. Most others have nothing to
        // escape either (names with accents): look at their characters before building anything.
        if isPrintableASCII(text) { return text }
        let escaped = { (scalar: Unicode.Scalar) in isControl(scalar) && !kept.contains(scalar) }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: escaped) else { return text }
        var shown = String.UnicodeScalarView(scalars[..<first])
        for scalar in scalars[first...] {
            if escaped(scalar) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// JSON text with every control or format character above ASCII (C1 controls such as U+009B, bidirectional
    /// marks) written as a \u escape: the same value for a parser, nothing a terminal acts on. JSON encoders escape
    /// only those below U+0020.
    public static func jsonWithEscapedControls(_ json: String) -> String {
        if isPrintableASCII(json) { return json }
        var shown = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            guard scalar.value >= 0x7F, isControl(scalar) else {
                shown.append(scalar)
                continue
            }
            for unit in String(scalar).utf16 { shown.append(contentsOf: "\\u\(String(format: "%04x", unit))".unicodeScalars) }
        }
        return String(shown)
    }

    /// True when every byte of `text` is printable ASCII: nothing to escape, one column a byte.
    @inlinable
    public static func isPrintableASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // Printable ASCII, and Latin-1's letters and signs but its soft hyphen (a format character), without a
        // look-up in the Unicode tables: the characters of most names.
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0xFF: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        // Zero-width joiners and non-joiners belong to emoji and to some scripts' spelling.
        case .control, .format, .lineSeparator, .paragraphSeparator: return scalar != "\u{200D}" && scalar != "\u{200C}"
        default: return false
        }
    }
}
