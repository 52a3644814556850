import Foundation
import Hummingbird
import SGCore

/// A JSON object body and the fields it takes. Any other field is refused with a 422 naming it, so that a typo is not
/// silently ignored (`leaveType` for `leaveTypeId` would book a holiday on the allowance).
protocol JSONObjectBody: Decodable {
    static var fields: [String] { get }
    /// What the body's fields are, for the message that refuses another: "a notice field".
    static var what: String { get }
}

extension JSONObjectBody {
    static var what: String { "a field of this request" }
}

enum JSON {
    /// A body that writes itself (the holiday routes, the busiest).
    static func response(written body: some JSONBody, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var json = JSONWriter()
        body.write(to: &json)
        return response(json.buffer, status: status, headers: headers)
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// An `Encodable` body, through JSONEncoder with the same conventions (sorted keys, slashes left alone).
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        response(ByteBuffer(bytes: try encoder.encode(value)), status: status, headers: headers)
    }

    static func response(_ bytes: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: bytes))
    }

    /// Reads a JSON object body. Unreadable JSON or a body that is not an object is 400; an unknown, missing or
    /// mistyped field is 422 naming the field; a body over the context's limit is 413.
    static func decode<T: JSONObjectBody>(_ type: T.Type, from request: Request, context: AppRequestContext) async throws -> T {
        guard let value = try await decodeIfPresent(T.self, from: request, context: context) else {
            throw SGError.malformed("The request needs a JSON object body.")
        }
        return value
    }

    /// Like `decode`, but a body that is absent or only whitespace (however it is framed: no length,
    /// `Content-Length: 0`, or an empty chunked body) is nil, for operations whose body is optional.
    static func decodeIfPresent<T: JSONObjectBody>(_ type: T.Type, from request: Request, context: AppRequestContext) async throws -> T? {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let data = Data(buffer.readableBytesView)
        guard let first = data.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return nil }
        guard first == UInt8(ascii: "{") else {
            throw SGError.malformed("The body must be a JSON object.")
        }
        // JSON is UTF-8 (RFC 8259 §8.1). The decoder only checks the strings it is asked for, so invalid bytes in a
        // field the operation ignores would be accepted.
        guard String(validating: data, as: UTF8.self) != nil else {
            throw SGError.malformed("The body is not valid UTF-8 text.")
        }
        do {
            return try JSONDecoder().decode(KnownFields<T>.self, from: data).body
        } catch let error as SGError {
            throw error  // a body type's own check, e.g. a field that cannot be changed
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw SGError.malformed("The body is not valid JSON: \(context.debugDescription)")
        } catch let DecodingError.dataCorrupted(context) {
            throw SGError.invalid(field: path(context.codingPath), message: context.debugDescription)
        } catch let DecodingError.keyNotFound(key, context) {
            throw SGError.invalid(field: path(context.codingPath + [key]), message: "is required")
        } catch let DecodingError.valueNotFound(_, context) {
            throw SGError.invalid(field: path(context.codingPath), message: "must not be null")
        } catch let DecodingError.typeMismatch(type, context) {
            throw SGError.invalid(field: path(context.codingPath), message: "must be \(describe(type))")
        } catch {
            throw SGError.malformed("The body could not be read as JSON.")
        }
    }

    /// `Body` decoded once its keys are checked, in the same parse: the keys are read before any value, so that a
    /// number beyond Double or a lone surrogate in an unknown field cannot hide it from the check.
    private struct KnownFields<Body: JSONObjectBody>: Decodable {
        let body: Body

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            if let unknown = keys.sorted().first(where: { !Body.fields.contains($0) }) {
                throw SGError.invalid(field: unknown, message: "is not \(Body.what); send any of \(Body.fields.joined(separator: ", "))")
            }
            body = try Body(from: decoder)
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "body" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        case is Double.Type: "a number"
        case is [Int].Type: "an array of integers"
        default: "of another type"
        }
    }
}

extension JSON {
    /// An allowance in days, decoded as a JSON number of any shape so that 1.5 or 1e300 is a 422 naming `field`
    /// rather than a parse error; which whole numbers are allowed is the holiday rules' to say.
    static func wholeDays(_ value: Double, field: String) throws -> Int {
        guard let days = Int(exactly: value) else { throw SGError.invalid(field: field, message: "must be a whole number") }
        return days
    }
}

extension Request {
    /// A query parameter of 1 to `maximumLength` characters, or nil when absent; an empty or longer one is a 422.
    func textQuery(_ name: String, maximumLength: Int) throws -> String? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard (1...maximumLength).contains(text.count) else {
            throw SGError.invalid(field: name, message: "must be 1 to \(maximumLength) characters long")
        }
        return text
    }

    /// A query parameter parsed as an integer in `range`, or nil when absent; anything else is a 422.
    func integerQuery(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw SGError.invalid(field: name, message: "'\(text)' is not a whole number between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }
}

extension Parameters {
    /// A path id: digits only and within Int64, otherwise no such resource.
    func id(_ name: String, what: String) throws -> Int64 {
        let text = get(name) ?? ""
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(text), value > 0 else {
            throw SGError.notFound("\(what) '\(text)' does not exist.")
        }
        return value
    }
}
