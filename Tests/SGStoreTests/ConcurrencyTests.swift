import Foundation
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Real concurrency on a real database file: checks and writes share one transaction.
@Suite struct ConcurrencyTests {
    @Test func twoHundredConcurrentCreatesNeverOverspend() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 25, by: f.admin.actor)
        // A second connection pool on the same file, as sgadmin would open beside the server.
        let other = try AppDatabase.open(path: path.path).services(clock: f.clock).holidays
        // 100 distinct weekdays from April; two tasks ask for each day, so every success must also have beaten an
        // overlap. 200 one-day requests far exceed the 25 days.
        var weekdays: [CalendarDate] = []
        var day = Fixture.date("2026-04-06")
        while weekdays.count < 100 {
            if day.isoWeekday <= 5 { weekdays.append(day) }
            day = day.adding(days: 1)!
        }
        let days = weekdays
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                let date = days[index % 100]
                let service = index.isMultiple(of: 2) ? f.service : other
                group.addTask {
                    do {
                        _ = try await service.createRequest(for: f.alice.id, start: date, end: date, comment: "", actor: f.alice.actor)
                        return true
                    } catch {
                        return false
                    }
                }
            }
            var outcomes: [Bool] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.approved + balance.pending <= balance.allowance)
        #expect(balance.pending == .days(25))
        #expect(results.filter { $0 }.count == 25)
        let requests = try await f.services.holidays.requests(RequestFilter(employeeID: f.alice.id, limit: 200), by: f.admin.actor).items.map(\.request)
        #expect(requests.count == 25)
        #expect(Set(requests.map(\.startDate)).count == 25, "no day was taken twice")
    }

    @Test func twoAdminsApprovingAtOnceMakeExactlyOneTransition() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let other = try AppDatabase.open(path: path.path).services(clock: f.clock).holidays
        for round in 0..<20 {
            let start = f.day(7 + round * 7)
            let request = try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor)
            async let first: Bool = (try? await f.service.perform(.approve, on: request.id, by: f.admin.actor)) != nil
            async let second: Bool = (try? await other.perform(.approve, on: request.id, by: f.secondAdmin.actor)) != nil
            let outcomes = await [first, second]
            #expect(outcomes.filter { $0 }.count == 1, "round \(round)")
            let events = try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).events
            #expect(events.filter { $0.to == .approved }.count == 1)
        }
    }
}
