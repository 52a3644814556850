import Foundation

/// How every service reaches its data: a read sees one snapshot; a write is serialized (and, across processes,
/// takes the write lock when it begins), so a check made inside `write` still holds when the write commits.
///
/// Each concept names what it needs as its own pair of protocols (`Reading`, `Writing`); the store module
/// implements them per engine. The bodies are synchronous: an engine whose driver is asynchronous runs the
/// body on a thread of its own.
public protocol TransactionalStore<Reading, Writing>: Sendable {
    associatedtype Reading
    associatedtype Writing
    func read<T: Sendable>(_ body: @escaping @Sendable (Reading) throws -> T) async throws -> T
    func write<T: Sendable>(_ body: @escaping @Sendable (Writing) throws -> T) async throws -> T
}

/// Every store reads the company's settings: "today" is the company's date, in its time zone.
public protocol CompanyReading {
    func company() throws -> CompanySettings
}

extension CompanyReading {
    /// The company's date at `now`.
    public func today(at now: Date) throws -> CalendarDate {
        HolidayService.today(now, try company())
    }
}
