import Foundation
import Synchronization

/// Bounds how fast one employee may change things: a bucket of `perMinute` writes per employee, refilled evenly
/// over the minute, so that a create-and-cancel loop cannot grow the database without bound. Past the bucket a
/// write is refused with `SGError.tooManyAttempts` (429, Retry-After) before it touches the database.
public final class WriteRateLimit: Sendable {
    public let perMinute: Int
    private let clock: any NowProvider
    private let buckets = Mutex<[Int64: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var at: Date
    }

    public init(perMinute: Int, clock: any NowProvider = SystemClock()) {
        self.perMinute = max(1, perMinute)
        self.clock = clock
    }

    /// Takes one write from the employee's bucket, or throws how long to wait for the next.
    public func take(employeeID: Int64) throws {
        let now = clock.now()
        let perSecond = Double(perMinute) / 60
        let wait: Int? = buckets.withLock { buckets in
            var bucket = buckets[employeeID] ?? Bucket(tokens: Double(perMinute), at: now)
            bucket.tokens = min(Double(perMinute), bucket.tokens + max(0, now.timeIntervalSince(bucket.at)) * perSecond)
            bucket.at = now
            defer {
                // A full bucket is the same as none: forget it, so that memory follows the employees writing now.
                buckets[employeeID] = bucket.tokens >= Double(perMinute) ? nil : bucket
            }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
        if let wait {
            throw SGError.tooManyAttempts(
                "Too many changes in a short time (at most \(perMinute) a minute). Wait \(wait) second\(wait == 1 ? "" : "s").",
                retryAfterSeconds: wait)
        }
    }
}
