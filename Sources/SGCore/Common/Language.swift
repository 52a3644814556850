/// The language an employee reads what the server sends them in (push messages). English unless they choose.
public enum Language: String, Sendable, Codable, CaseIterable {
    case en, es

    public static func parse(_ text: String, field: String = "language") throws -> Language {
        guard let language = Language(rawValue: text) else {
            throw SGError.invalid(field: field, message: "'\(text)' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return language
    }
}
