import Foundation
import Hummingbird
import SGCore
import SGStore
import Synchronization

/// `GET /v1/health/ready`: whether this server can do its work now, where `GET /v1/health` only says it runs. The
/// database must be writable (judged without writing: the file system, the files' permissions) and at this
/// program's schema, and the directory reachable when logins go to LDAP. Each look is bounded by `budget`, and an
/// answer is reused for a second, so that probes (or anyone else: the route needs no login) cost next to nothing.
final class Readiness: Sendable {
    private let services: Services
    private let last = Mutex<(at: ContinuousClock.Instant, problems: [String])?>(nil)

    static let budget: Duration = .seconds(2)
    static let reuse: Duration = .seconds(1)

    init(services: Services) { self.services = services }

    /// What is not ready, in words; empty when ready.
    func problems() async -> [String] {
        if let last = last.withLock({ $0 }), ContinuousClock.now - last.at < Self.reuse { return last.problems }
        var problems: [String] = []
        let database = services.database
        // The checks of the file and its disk are SQLite's; a PostgreSQL server keeps its files to itself.
        if database.dialect == .sqlite, let problem = database.writabilityProblem() { problems.append("database: \(problem)") }
        do {
            let (missing, unknown) = try database.migrationDifferences()
            if !missing.isEmpty { problems.append("database: schema migrations not applied: \(missing.joined(separator: ", "))") }
            if !unknown.isEmpty {
                problems.append("database: migrated by a newer version (\(unknown.joined(separator: ", "))); upgrade this server")
            }
        } catch {
            problems.append("database: cannot be read: \((error as? SGError)?.message ?? "\(error)")")
        }
        let directory = services.sessions.directory
        if let problem = await Self.within(Self.budget, { await directory.readinessProblem() }) {
            problems.append("directory (\(directory.kind)): \(problem)")
        }
        let result = problems
        last.withLock { $0 = (.now, result) }
        return result
    }

    /// `work`'s answer, or a sentence saying it gave none within `budget` (the work goes on, unawaited).
    static func within(_ budget: Duration, _ work: @escaping @Sendable () async -> String?) async -> String? {
        let answer = OneAnswer()
        let timer = Task {
            try await Task.sleep(for: budget)
            answer.give("no answer within \(budget.components.seconds) s")
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            answer.wait(continuation)
            Task { answer.give(await work()) }
        }
    }

    /// The first of several racing answers, for one waiting continuation (given before or after it waits).
    private final class OneAnswer: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<String?, Never>)
            case answered(String?)
            case done
        }

        private let state = Mutex<State>(.idle)

        func wait(_ continuation: CheckedContinuation<String?, Never>) {
            let early = state.withLock { state -> String?? in
                guard case .answered(let answer) = state else {
                    state = .waiting(continuation)
                    return nil
                }
                state = .done
                return .some(answer)
            }
            if let early { continuation.resume(returning: early) }
        }

        func give(_ answer: String?) {
            let waiting = state.withLock { state -> CheckedContinuation<String?, Never>? in
                switch state {
                case .idle:
                    state = .answered(answer)
                    return nil
                case .waiting(let continuation):
                    state = .done
                    return continuation
                case .answered, .done:
                    return nil
                }
            }
            waiting?.resume(returning: answer)
        }
    }

    func addRoute(to router: Router<AppRequestContext>) {
        /// Readiness: 200 when the server can serve, else 503 saying what is not ready.
        router.get("/v1/health/ready") { _, _ in
            let problems = await self.problems()
            guard problems.isEmpty else {
                throw SGError.unavailable("Not ready: " + problems.joined(separator: "; ") + ".", retryAfterSeconds: 5)
            }
            return JSON.response(Self.readyBody)
        }
    }

    static let readyBody = ByteBuffer(string: #"{"status":"ready"}"#)
}
