import Foundation
import Hummingbird
import Testing
import SGAPI
import SGTestSupport

/// api-spec/openapi.yaml describes the server exactly: the routes, and the problem types.
@Suite struct ContractTests {
    /// The routes the real router serves, as "METHOD /path/{param}".
    static func servedOperations() async throws -> Set<String> {
        let h = try await APIHarness.make()
        return Set(buildRouter(services: h.services).routes.map { "\($0.method.rawValue) \($0.path.description)" })
    }

    @Test func everyRouteIsInTheSpecAndEveryOperationIsServed() async throws {
        let served = try await Self.servedOperations()
        let spec = try OpenAPISpec.load()
        #expect(served.subtracting(spec.operations).sorted() == [], "served but missing from api-spec/openapi.yaml")
        #expect(spec.operations.subtracting(served).sorted() == [], "in api-spec/openapi.yaml but not served")
    }

    @Test func theSpecReaderRefusesLayoutsItDoesNotUnderstand() throws {
        let good = "openapi: 3.1.0\npaths:\n  /v1/a:\n    parameters: []\n    get:\n      x: 1\n  \"/v1/b\":\n    post:\n      x: 1\ncomponents:\n  x:\n    get:\n"
        #expect(try OpenAPISpec(text: good).operations == ["GET /v1/a", "POST /v1/b"])
        #expect(throws: OpenAPISpec.Problem.self) { try OpenAPISpec(text: "paths:\n  /v1/a: { get: {} }\n") }
        #expect(throws: OpenAPISpec.Problem.self) { try OpenAPISpec(text: "paths:\n  /v1/a:\n    get: {}\n") }
        #expect(throws: OpenAPISpec.Problem.self) { try OpenAPISpec(text: "paths:\n  /v1/a:\n    gte:\n") }
        #expect(throws: OpenAPISpec.Problem.self) { try OpenAPISpec(text: "paths:\n\t/v1/a:\n") }
    }

    /// The spec's `Problem.type` enum, README's table and the slugs in Problem.swift name the same types.
    @Test func problemTypesAreTheSameInTheSpecTheReadmeAndTheServer() throws {
        let root = OpenAPISpec.repositoryRoot
        let spec = try OpenAPISpec.load().problemTypes
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let documented = Set(readme.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `urn:sgemployee:problem:") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        })
        let source = try String(contentsOf: root.appendingPathComponent("Sources/SGAPI/Problem.swift"), encoding: .utf8)
        let slugs = source.components(separatedBy: "slug: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        let produced = Set(slugs.filter { !$0.contains("\\(") }.map { "urn:sgemployee:problem:" + $0 })
        #expect(spec.count >= 10)
        #expect(spec == documented, "api-spec/openapi.yaml vs README.md")
        #expect(produced == spec, "Sources/SGAPI/Problem.swift vs api-spec/openapi.yaml")
    }
}
