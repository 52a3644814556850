import Foundation

/// Folds text for search and sorting: case, accents and compatibility forms are ignored, so "jose" finds "José"
/// and "Ñandú" sorts with "Nandu". The store keeps folded copies in employees.search_text and sort_key.
public enum TextFolding {
    public static func fold(_ text: String) -> String {
        // Most names and e-mail addresses are ASCII: lowercase them without Unicode machinery.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let replacement = letters[scalar] {
                scalars.append(contentsOf: replacement.unicodeScalars)
            } else {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Letters that are not a base letter plus a mark, and so survive decomposition.
    private static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h",
    ]

    /// The words of a search, folded; empty words dropped.
    public static func terms(_ query: String) -> [String] {
        fold(query).split(whereSeparator: { $0.isWhitespace }).map(String.init)
    }
}
