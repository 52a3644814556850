import Foundation
import Hummingbird
import SGCore
import Synchronization

/// The `Idempotency-Key` of a change that a retry must not make twice (draft-ietf-httpapi-idempotency-key-header):
/// the answer is kept under the employee's key for a day (`IdempotencyRecord.lifetime`), in the change's transaction,
/// and the same change sent again with the key gets it again with `Idempotent-Replayed: true`.
struct RetryKey: Sendable {
    static let header = HTTPFields.Element.Name("Idempotency-Key")!
    static let replayed = HTTPFields.Element.Name("Idempotent-Replayed")!
    /// The answer's headers a replay repeats.
    static let keptHeaders: [HTTPFields.Element.Name] = [.location, .eTag]

    let employeeID: Int64
    let key: String
    let route: String
    let fingerprint: String
    let at: Date

    /// The request's key, or nil without one; a key that is not 1 to 255 visible ASCII characters, or more than one
    /// key, is refused.
    static func of(_ request: Request, body: ByteBuffer, employeeID: Int64, at: Date) throws -> RetryKey? {
        let values = request.headers[values: header]
        guard let key = values.first else { return nil }
        guard values.count == 1 else { throw SGError.malformed("Send one Idempotency-Key, not \(values.count).") }
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw SGError.malformed(
                "An Idempotency-Key is 1 to 255 visible ASCII characters (no spaces), such as a UUID; this one is not.")
        }
        let route = "\(request.method.rawValue) \(request.uri.path)"
        var fingerprinted = Data(route.utf8)
        fingerprinted.append(0x0A)
        fingerprinted.append(canonical(body))
        return RetryKey(
            employeeID: employeeID, key: key, route: route, fingerprint: Digests.sha256Hex(fingerprinted, prefix: 32), at: at)
    }

    /// A JSON body as its value, not its bytes: the same object with other white space or another key order is the
    /// same change. A body that is not JSON counts as its bytes.
    static func canonical(_ body: ByteBuffer) -> Data {
        let bytes = Data(body.readableBytesView)
        guard !bytes.isEmpty, let value = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]),
              let normal = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return bytes }
        return normal
    }

    /// What a change runs in its transaction to keep its answer under `key`; nil without a key.
    static func keeping<Value: Sendable>(_ key: RetryKey?, _ answer: @escaping @Sendable (Value) -> Answer) -> WithinChange<Value>? {
        guard let key else { return nil }
        return { tx, value in try key.keep(answer(value), in: tx) }
    }

    /// Keeps `answer` in `tx`, the change's transaction; when a concurrent change with the same key committed first,
    /// throws `RetryKeyProblem.taken`, which undoes this one.
    func keep(_ answer: Answer, in tx: any IdempotencyRecordWriting) throws {
        var headers: [String: String] = [:]
        for name in Self.keptHeaders { headers[name.canonicalName] = answer.headers[name] }
        let kept = IdempotencyRecord(
            employeeID: employeeID, key: key, route: route, fingerprint: fingerprint, status: Int(answer.status.code),
            headers: headers, body: Data(answer.body.readableBytesView), createdAt: at)
        guard try tx.keep(kept, expiredBefore: at.addingTimeInterval(-IdempotencyRecord.lifetime)) else { throw RetryKeyProblem.taken }
    }

    /// Runs `change` with the request's key, if it has one: an answer kept under the key for the same change is
    /// sent again (and `change` not run), for another change refused; a change with the key under way is refused.
    /// `change` gets the request (its body read already) and the key to keep its answer with.
    static func run(
        _ request: Request, context: AppRequestContext, employeeID: Int64, services: Services,
        change: (Request, RetryKey?) async throws -> Response
    ) async throws -> Response {
        guard request.headers[header] != nil else { return try await change(request, nil) }
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        var request = request
        request.body = RequestBody(buffer: body)
        guard let key = try of(request, body: body, employeeID: employeeID, at: services.holidays.clock.now()) else {
            return try await change(request, nil)
        }
        guard services.keysInFlight.begin(employeeID: employeeID, key: key.key) else { throw RetryKeyProblem.inFlight }
        defer { services.keysInFlight.end(employeeID: employeeID, key: key.key) }
        if let kept = try await services.holidays.idempotencyRecord(employeeID: employeeID, key: key.key) {
            return try key.replay(kept)
        }
        do {
            return try await change(request, key)
        } catch RetryKeyProblem.taken {
            // Another server sharing the database made the change with this key first.
            guard let kept = try await services.holidays.idempotencyRecord(employeeID: employeeID, key: key.key) else {
                throw RetryKeyProblem.inFlight
            }
            return try key.replay(kept)
        }
    }

    /// The kept answer again, if it answered this very change.
    private func replay(_ kept: IdempotencyRecord) throws -> Response {
        guard kept.fingerprint == fingerprint else { throw RetryKeyProblem.reused(route: kept.route) }
        var headers: HTTPFields = [Self.replayed: "true"]
        for (name, value) in kept.headers {
            if let name = HTTPFields.Element.Name(name) { headers[name] = value }
        }
        return JSON.response(ByteBuffer(bytes: kept.body), status: HTTPResponse.Status(code: kept.status), headers: headers)
    }
}

/// Why a change sent with an Idempotency-Key was not made.
enum RetryKeyProblem: Error {
    /// The key answered another change (another body or route) within the day.
    case reused(route: String)
    /// A change with the key is under way.
    case inFlight
    /// A concurrent change with the key committed first (inside `RetryKey.run` only).
    case taken
}

/// The retry keys whose change is under way in this server, so that a second request with the same key waits for
/// nothing and changes nothing: it is refused at once.
final class KeysInFlight: Sendable {
    private struct Entry: Hashable {
        let employeeID: Int64
        let key: String
    }

    private let entries = Mutex<Set<Entry>>([])

    init() {}

    /// False when the employee's key is under way already.
    func begin(employeeID: Int64, key: String) -> Bool {
        entries.withLock { $0.insert(Entry(employeeID: employeeID, key: key)).inserted }
    }

    func end(employeeID: Int64, key: String) {
        _ = entries.withLock { $0.remove(Entry(employeeID: employeeID, key: key)) }
    }
}
