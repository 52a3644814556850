import Foundation

/// What the contract tests need from `api-spec/openapi.yaml`, read with a small line reader rather than a YAML
/// library (the file is ours, written in one layout): `paths:` at column 0, each path as a key indented by two
/// spaces, each operation as a method key indented by four. Anything else at those two indents under `paths:`
/// is an error, so a layout this reader does not understand fails the tests instead of being skipped.
struct OpenAPISpec {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// "GET /v1/holidays/{id}", ...
    let operations: Set<String>
    /// The problem `type` URIs listed in the `Problem` schema's enum.
    let problemTypes: Set<String>

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func load() throws -> OpenAPISpec {
        try OpenAPISpec(text: String(contentsOf: repositoryRoot.appendingPathComponent("api-spec/openapi.yaml"), encoding: .utf8))
    }

    init(text: String) throws {
        var operations: Set<String> = []
        var problemTypes: Set<String> = []
        var inPaths = false
        var path: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let location = "api-spec/openapi.yaml:\(index + 1)"
            guard !line.contains("\t") else { throw Problem(description: "\(location): tab in YAML") }
            let content = line.drop { $0 == " " }
            let indent = line.count - content.count
            if content.hasPrefix("- urn:sgemployee:problem:") {
                problemTypes.insert(String(content.dropFirst(2)).trimmingCharacters(in: .whitespaces))
            }
            if content.isEmpty || content.hasPrefix("#") { continue }
            if indent == 0 {
                inPaths = content == "paths:"
                path = nil
                continue
            }
            guard inPaths else { continue }
            if indent == 2 {
                guard content.hasSuffix(":") else { throw Problem(description: "\(location): expected a path key, found '\(content)'") }
                let key = String(content.dropLast()).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
                guard key.hasPrefix("/") else { throw Problem(description: "\(location): '\(key)' is not a path") }
                path = key
            } else if indent == 4 {
                guard let path else { throw Problem(description: "\(location): indented line before any path") }
                guard let colon = content.firstIndex(of: ":") else { throw Problem(description: "\(location): expected a key") }
                let key = String(content[..<colon])
                if Self.methods.contains(key) {
                    guard content[content.index(after: colon)...].trimmingCharacters(in: .whitespaces).isEmpty else {
                        throw Problem(description: "\(location): write the \(key) operation as a block, not inline")
                    }
                    operations.insert("\(key.uppercased()) \(path)")
                } else if !["parameters", "summary", "description", "servers"].contains(key) {
                    throw Problem(description: "\(location): unexpected key '\(key)' under \(path)")
                }
            }
        }
        guard !operations.isEmpty else { throw Problem(description: "api-spec/openapi.yaml: no operations under paths:") }
        self.operations = operations
        self.problemTypes = problemTypes
    }
}
