import Foundation
import Hummingbird
import SGCore
import Synchronization

/// `GET /v1/me/holidays` bodies as sent, kept until anything commits a change to the database (by this server,
/// sgadmin or anyone: the commit generation checked while authenticating, `Sessions.Authenticated`) or the company's day they were rendered on ends.
///
/// An employee's year view is the most frequent request and changes rarely; served from here it costs no
/// query and no rendering. Bounded: past `maximumEntries` the cache starts again empty.
final class RenderedYearViews: Sendable {
    struct Key: Hashable, Sendable {
        let employeeID: Int64
        /// As asked: nil is the company's current year.
        let year: Int?
    }

    private struct Entry: Sendable {
        /// The company's date the body was rendered on, and its zone.
        let today: CalendarDate
        let timeZone: TimeZone
        let body: ByteBuffer
    }

    private struct State: Sendable {
        var generation: UInt64 = 0
        var entries: [Key: Entry] = [:]
    }

    private let state = Mutex(State())
    let maximumEntries: Int

    init(maximumEntries: Int = 20_000) {
        self.maximumEntries = maximumEntries
    }

    /// The body rendered for `key` under `generation`, if its day is still the company's day at `instant`.
    func body(for key: Key, generation: UInt64, at instant: Date) -> ByteBuffer? {
        let entry = state.withLock { state in state.generation == generation ? state.entries[key] : nil }
        guard let entry, entry.today.isToday(at: instant, in: entry.timeZone) else { return nil }
        return entry.body
    }

    /// Keeps `body`, rendered from `view`, which was read after `generation` was taken.
    func store(_ body: ByteBuffer, of view: HolidayService.YearView, for key: Key, generation: UInt64) {
        state.withLock { state in
            if generation > state.generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            guard generation == state.generation else { return }
            if state.entries.count >= maximumEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = Entry(today: view.today, timeZone: view.timeZone, body: body)
        }
    }
}
