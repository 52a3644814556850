import Foundation

/// What a feed's HTML becomes before anyone sees it: plain text with no tags, entities decoded, no control
/// characters, whitespace collapsed, cut at a length; links only http(s).
///
/// Plain means plain for every input: stripping and decoding repeat until the text no longer changes, so an
/// escaped tag (`&lt;img …&gt;`, `&amp;lt;…`, an escaped tag inside CDATA) is stripped too. What is left holds no
/// `<` that could open a tag (a letter, `/`, `!` or `?` after it) and no character reference.
public enum FeedText {
    /// Rounds of stripping and decoding before the text is taken as hostile and loses every `<` and `>`: each
    /// round removes one level of escaping, and real feeds escape once or twice.
    static let maximumRounds = 8

    /// Plain text of `html`, at most `maximum` characters (a longer text ends with "…"). Script and style elements
    /// go with their content; every other tag becomes a space.
    public static func plain(_ html: String, maximum: Int) -> String {
        var text = html
        for _ in 0..<maximumRounds {
            let next = collapse(CharacterReferences.decode(stripTags(text), named: htmlEntity))
            if next == text { return cut(text, maximum: maximum) }
            text = next
        }
        return cut(collapse(String(text.unicodeScalars.filter { $0 != "<" && $0 != ">" })), maximum: maximum)
    }

    /// `html` with its tags, comments, scripts and styles removed, each replaced by a space; a lone `<` stays.
    static func stripTags(_ html: String) -> String {
        var text = ""
        text.reserveCapacity(html.utf8.count)
        var rest = html[...]
        while let open = rest.firstIndex(of: "<") {
            text += rest[..<open]
            let tag = rest[open...]
            if let skipped = skipElement(tag, "script") ?? skipElement(tag, "style") {
                rest = skipped
            } else if tag.hasPrefix("<!--") {
                rest = tag.range(of: "-->").map { tag[$0.upperBound...] } ?? ""
            } else if let next = tag.dropFirst().first, next.isLetter || next == "/" || next == "!" || next == "?" {
                rest = tag.firstIndex(of: ">").map { tag[tag.index(after: $0)...] } ?? ""
            } else {
                // A lone '<' ("a < b") is text.
                text += "<"
                rest = tag.dropFirst()
                continue
            }
            text += " "
        }
        text += rest
        return text
    }

    /// The text after `<name …>…</name>` when `tag` starts with that element, without case.
    private static func skipElement(_ tag: Substring, _ name: String) -> Substring? {
        let opening = tag.dropFirst().prefix(name.count + 1).lowercased()
        guard opening == name + ">" || opening == name + " " || opening == name + "\t" || opening == name + "\n" else { return nil }
        guard let close = tag.range(of: "</\(name)", options: .caseInsensitive) else { return "" }
        let after = tag[close.upperBound...]
        return after.firstIndex(of: ">").map { after[after.index(after: $0)...] } ?? ""
    }

    /// One space for each run of whitespace, control or format characters, none at the ends.
    static func collapse(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let category = scalar.properties.generalCategory
            if scalar.properties.isWhitespace || category == .control || category == .format {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// At most `maximum` characters; a longer text is cut to end with "…".
    static func cut(_ text: String, maximum: Int) -> String {
        guard text.count > maximum else { return text }
        return text.prefix(maximum - 1).trimmingCharacters(in: .whitespaces) + "…"
    }

    /// An absolute http(s) address from `text`, resolved against `base` when relative; nil for anything else
    /// (`javascript:`, `data:`, a mail address, text that is no address).
    public static func link(_ text: String, base: String?) -> String? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.utf8.count <= 2000,
              !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control })
        else { return nil }
        let baseURL = base.flatMap { URL(string: $0) }
        guard let url = URL(string: value, relativeTo: baseURL)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url.absoluteString
    }

    /// The HTML entities feeds use beyond XML's five.
    static func htmlEntity(_ name: Substring) -> String? {
        switch name {
        case "amp": "&"
        case "lt": "<"
        case "gt": ">"
        case "quot": "\""
        case "apos", "#39": "'"
        case "nbsp": " "
        case "hellip": "…"
        case "mdash": "—"
        case "ndash": "–"
        case "lsquo": "‘"
        case "rsquo": "’"
        case "ldquo": "“"
        case "rdquo": "”"
        case "laquo": "«"
        case "raquo": "»"
        case "bull": "•"
        case "middot": "·"
        case "copy": "©"
        case "reg": "®"
        case "trade": "™"
        case "euro": "€"
        case "pound": "£"
        case "deg": "°"
        case "times": "×"
        case "shy", "zwj", "zwnj": ""
        case "aacute": "á"
        case "eacute": "é"
        case "iacute": "í"
        case "oacute": "ó"
        case "uacute": "ú"
        case "ntilde": "ñ"
        case "Aacute": "Á"
        case "Eacute": "É"
        case "Iacute": "Í"
        case "Oacute": "Ó"
        case "Uacute": "Ú"
        case "Ntilde": "Ñ"
        case "auml": "ä"
        case "ouml": "ö"
        case "uuml": "ü"
        case "Auml": "Ä"
        case "Ouml": "Ö"
        case "Uuml": "Ü"
        case "szlig": "ß"
        case "ccedil": "ç"
        case "agrave": "à"
        case "egrave": "è"
        default: nil
        }
    }
}

/// The dates feeds write: RFC 822 (RSS's pubDate, "Mon, 02 Jan 2006 15:04:05 -0700") and RFC 3339 (Atom,
/// "2006-01-02T15:04:05Z").
public enum FeedDate {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Either form; nil when it is neither.
    public static func parse(_ text: String) -> Date? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return rfc3339(value) ?? rfc822(value)
    }

    private static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, offset: Int) -> Date? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let date = utc.date(from: components), utc.component(.day, from: date) == day else { return nil }
        return date.addingTimeInterval(TimeInterval(-offset))
    }

    /// "2006-01-02T15:04:05Z", "2006-01-02T15:04:05.123+01:00", "2006-01-02 15:04:05z".
    static func rfc3339(_ text: String) -> Date? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, range.allSatisfy({ (0x30...0x39).contains(chars[$0]) }) else { return nil }
            return range.reduce(0) { $0 * 10 + Int(chars[$1] - 0x30) }
        }
        guard chars.count >= 20, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
              [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(chars[10]),
              chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < chars.count, chars[index] == UInt8(ascii: ".") {
            // Milliseconds are what timestamps keep; further digits are dropped.
            var digits = 0, milliseconds = 0
            index += 1
            while index < chars.count, (0x30...0x39).contains(chars[index]) {
                if digits < 3 { milliseconds = milliseconds * 10 + Int(chars[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 3)..<3 { milliseconds *= 10 }
            fraction = Double(milliseconds) / 1000
        }
        guard index < chars.count else { return nil }
        let offset: Int
        switch chars[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == chars.count else { return nil }
            offset = 0
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard chars.count == index + 6, chars[index + 3] == UInt8(ascii: ":"),
                  let hours = number((index + 1)..<(index + 3)), let minutes = number((index + 4)..<(index + 6)), hours < 24, minutes < 60
            else { return nil }
            offset = (chars[index] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        default:
            return nil
        }
        return instant(year, month, day, hour, minute, second, offset: offset)?.addingTimeInterval(fraction)
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let zones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    ]

    /// "Mon, 02 Jan 2006 15:04:05 -0700", the day name and the seconds optional, a two-digit year read as 19xx/20xx,
    /// the zone as ±hhmm or a name of RFC 822 (an unknown one is read as UTC).
    static func rfc822(_ text: String) -> Date? {
        var parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        if let first = parts.first, first.hasSuffix(",") || first.count == 3 && Int(first) == nil && first.first?.isLetter == true
            && !months.contains(first.lowercased())
        {
            parts.removeFirst()
        }
        guard parts.count >= 4, let day = Int(parts[0]),
              let month = months.firstIndex(of: String(parts[1].prefix(3)).lowercased()).map({ $0 + 1 }),
              var year = Int(parts[2])
        else { return nil }
        if parts[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = parts[3].split(separator: ":").map { Int($0) }
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0 != nil }) else { return nil }
        var offset = 0
        if parts.count >= 5 {
            let zone = parts[4]
            if (zone.hasPrefix("+") || zone.hasPrefix("-")), zone.count == 5, let value = Int(zone.dropFirst()) {
                offset = (zone.hasPrefix("-") ? -1 : 1) * ((value / 100) * 3600 + (value % 100) * 60)
            } else {
                offset = (zones[zone.uppercased()] ?? 0) * 3600
            }
        }
        return instant(year, month, day, time[0]!, time[1]!, time.count == 3 ? time[2]! : 0, offset: offset)
    }
}
