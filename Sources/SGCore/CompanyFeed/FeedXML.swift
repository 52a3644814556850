import Foundation

/// An element of a feed document: its qualified name as written (`atom:link`), its attributes, its own text
/// (CDATA included, entities decoded) and its child elements.
struct FeedXMLElement: Sendable {
    var name: String
    var attributes: [String: String] = [:]
    var text = ""
    var children: [FeedXMLElement] = []

    /// The name without its namespace prefix.
    var localName: Substring { name.split(separator: ":", omittingEmptySubsequences: false).last ?? "" }

    /// The first child named exactly `name`, or else the first whose local name is `name`.
    func child(_ name: String) -> FeedXMLElement? {
        children.first { $0.name == name } ?? children.first { $0.localName == name }
    }

    func children(_ localName: String) -> [FeedXMLElement] { children.filter { $0.localName == localName } }

    /// Its text and that of every element inside it, in document order (Atom's `type="xhtml"`).
    var allText: String { text + children.map(\.allText).joined() }
}

/// A small XML reader for RSS and Atom documents, which need only elements, attributes, text, CDATA, comments and
/// processing instructions. It refuses a document type declaration outright: with no DTD there are no entity
/// definitions to expand (billion laughs) and no external entities to fetch (XXE). Entities are the five of XML
/// and character references; any other `&name;` is left as written, for the HTML reading that follows.
enum FeedXML {
    enum Failure: Error, Equatable, CustomStringConvertible {
        case doctype
        case malformed(String)
        case encoding(String)

        var description: String {
            switch self {
            case .doctype: "the document has a DOCTYPE, which feeds do not need and this server does not read"
            case .malformed(let why): "not well-formed XML: \(why)"
            case .encoding(let name): "the document's encoding '\(name)' is not one this server reads (UTF-8, ISO-8859-1, windows-1252)"
            }
        }
    }

    static let maximumDepth = 64

    /// The root element of `bytes`.
    static func parse(_ bytes: [UInt8]) throws -> FeedXMLElement {
        var reader = Reader(bytes: try utf8(bytes))
        return try reader.document()
    }

    /// The bytes as UTF-8: a UTF-8 BOM dropped; a Latin-1 or windows-1252 document (as its declaration says)
    /// converted.
    static func utf8(_ bytes: [UInt8]) throws -> [UInt8] {
        var bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { throw Failure.encoding("UTF-16") }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return bytes }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self)
        guard let range = declaration.range(of: #"encoding\s*=\s*["']([A-Za-z0-9._-]+)["']"#, options: .regularExpression) else {
            return bytes
        }
        let name = declaration[range].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first.map(String.init) ?? ""
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii": return bytes
        case "iso-8859-1", "latin1", "latin-1", "iso8859-1":
            return Array(String(decoding: bytes.map { UInt16($0) }, as: UTF16.self).utf8)
        case "windows-1252", "cp1252":
            guard let text = String(bytes: bytes, encoding: .windowsCP1252) else { throw Failure.encoding(name) }
            return Array(text.utf8)
        default: throw Failure.encoding(name)
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func document() throws -> FeedXMLElement {
            var stack: [FeedXMLElement] = []
            var root: FeedXMLElement?
            while index < bytes.count {
                if bytes[index] != UInt8(ascii: "<") {
                    let start = index
                    while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
                    let raw = bytes[start..<index]
                    if stack.isEmpty {
                        guard raw.allSatisfy(Self.isSpace) else { throw Failure.malformed("text outside the root element") }
                    } else {
                        stack[stack.count - 1].text += Self.decodeEntities(String(decoding: raw, as: UTF8.self))
                    }
                } else if starts("<?") {
                    try skip(past: "?>")
                } else if starts("<!--") {
                    try skip(past: "-->")
                } else if starts("<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>")
                    guard !stack.isEmpty else { throw Failure.malformed("CDATA outside the root element") }
                    stack[stack.count - 1].text += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
                } else if starts("<!") {
                    // <!DOCTYPE, and with it <!ENTITY: never read.
                    throw Failure.doctype
                } else if starts("</") {
                    index += 2
                    let name = try self.name()
                    skipSpace()
                    try expect(">")
                    guard let element = stack.popLast(), element.name == name else {
                        throw Failure.malformed("</\(name)> closes no open element")
                    }
                    if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                } else {
                    index += 1
                    guard root == nil else { throw Failure.malformed("a second root element") }
                    var element = FeedXMLElement(name: try self.name())
                    while true {
                        let hadSpace = skipSpace()
                        guard index < bytes.count else { throw Failure.malformed("the document ends inside <\(element.name)>") }
                        if starts("/>") {
                            index += 2
                            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
                            break
                        }
                        if bytes[index] == UInt8(ascii: ">") {
                            index += 1
                            guard stack.count < maximumDepth else { throw Failure.malformed("elements nested deeper than \(maximumDepth)") }
                            stack.append(element)
                            break
                        }
                        guard hadSpace else { throw Failure.malformed("no space before an attribute of <\(element.name)>") }
                        let attribute = try self.name()
                        skipSpace()
                        try expect("=")
                        skipSpace()
                        element.attributes[attribute] = try quoted()
                    }
                }
            }
            guard stack.isEmpty else { throw Failure.malformed("<\(stack.last!.name)> is never closed") }
            guard let root else { throw Failure.malformed("no root element") }
            return root
        }

        static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

        func starts(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            return (0..<count).allSatisfy { bytes[index + $0] == text.utf8Start[$0] }
        }

        mutating func skip(past end: StaticString) throws {
            while index < bytes.count {
                if starts(end) {
                    index += end.utf8CodeUnitCount
                    return
                }
                index += 1
            }
            throw Failure.malformed("the document ends before \(end)")
        }

        @discardableResult
        mutating func skipSpace() -> Bool {
            let start = index
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func expect(_ character: Character) throws {
            guard index < bytes.count, bytes[index] == character.asciiValue else {
                throw Failure.malformed("expected '\(character)' at byte \(index)")
            }
            index += 1
        }

        mutating func name() throws -> String {
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if Self.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
                    || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
                {
                    break
                }
                index += 1
            }
            guard index > start else { throw Failure.malformed("a name was expected at byte \(start)") }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        mutating func quoted() throws -> String {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw Failure.malformed("an attribute value must be quoted (byte \(index))")
            }
            let quote = bytes[index]
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                guard bytes[index] != UInt8(ascii: "<") else { throw Failure.malformed("'<' in an attribute value") }
                index += 1
            }
            guard index < bytes.count else { throw Failure.malformed("an attribute value is never closed") }
            index += 1
            return Self.decodeEntities(String(decoding: bytes[start..<(index - 1)], as: UTF8.self))
        }

        /// XML's five entities and character references; anything else after `&` is left as written.
        static func decodeEntities(_ text: String) -> String {
            guard text.contains("&") else { return text }
            return CharacterReferences.decode(text) { name in
                switch name {
                case "lt": "<"
                case "gt": ">"
                case "amp": "&"
                case "quot": "\""
                case "apos": "'"
                default: nil
                }
            }
        }
    }
}

/// `&name;`, `&#NNN;` and `&#xHH;` in text: numeric references become their character (a reference to a character
/// text may not hold, such as NUL or a surrogate, becomes U+FFFD); names become what `named` gives, or stay as written.
enum CharacterReferences {
    static func decode(_ text: String, named: (Substring) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest.index(after: amp)
            // A reference is short: look at most 32 characters ahead for its ';'.
            guard let semicolon = rest[after...].prefix(32).firstIndex(of: ";") else {
                result += "&"
                rest = rest[after...]
                continue
            }
            let name = rest[after..<semicolon]
            if let replacement = numeric(name) ?? named(name) {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[after...]
            }
        }
        result += rest
        return result
    }

    private static func numeric(_ name: Substring) -> String? {
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value: UInt32?
        if digits.first == "x" || digits.first == "X" {
            value = UInt32(digits.dropFirst(), radix: 16)
        } else {
            value = UInt32(digits, radix: 10)
        }
        guard let value else { return nil }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }
}
