import Foundation
import Hummingbird
import Synchronization
import Testing
import SGCore
import SGTestSupport

/// HR's reports over the API: the same CSV as `sgadmin export`, a JSON form of the same rows, admins only.
@Suite struct ReportAPITests {
    /// The CSV the core's rows make, as `sgadmin export` writes it.
    static func expectedCSV(_ h: APIHarness, year: Int, balances: Bool) async throws -> String {
        let admin = h.fixture.admin.actor
        let holidays = h.fixture.services.holidays
        if balances {
            return try await holidays.balances(year: year, by: admin).reduce(
                CSV.record(HolidayReportLayout.balanceColumns.map(CSV.Cell.text))
            ) { text, row in text + CSV.record(HolidayReportLayout.balanceCells(row.0, row.1, year: year)) }
        }
        let lines = Mutex([CSV.record(HolidayReportLayout.requestColumns.map(CSV.Cell.text))])
        try await holidays.export(year: year, by: admin) { row in
            lines.withLock { $0.append(CSV.record(HolidayReportLayout.requestCells(row))) }
        }
        return lines.withLock { $0.joined() }
    }

    @Test func aLargeYearStreamsWholeAsCSVAndAsJSON() async throws {
        let h = try await APIHarness.make()
        // 200 employees with 10 one-day requests each: seven chunks of the stream, more than it holds ahead.
        let holidays = h.fixture.services.holidays
        for index in 0..<200 {
            let employee = try await h.fixture.services.accounts.addEmployee(NewEmployee(
                username: "e\(index)", name: (index % 3 == 0 ? "=SUM(A1)" : "Näme \(index)") + " " + String(repeating: "x", count: 80),
                surname: "Quote \"\(index)\", Jr.",
                email: "e\(index)@example.com", isAdmin: false, passwordHash: nil))
            for week in 0..<10 {
                let day = Fixture.date("2026-04-06").adding(days: 7 * week)!
                _ = try await holidays.createRequest(for: employee.id, start: day, end: day, comment: "", actor: employee.actor)
            }
        }
        try await h.run { client in
            let admin = try await client.login("admin")
            let csv = try await client.call(.get, "/v1/reports/holidays.csv?year=2026", token: admin)
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"holidays-2026.csv\"")
            let text = String(decoding: csv.body, as: UTF8.self)
            #expect(csv.body.count > 6 * 64 * 1024)
            let expected = try await Self.expectedCSV(h, year: 2026, balances: false)
            #expect(text == expected)
            #expect(text.components(separatedBy: "\r\n").count == 1 + 2000 + 1)
            #expect(text.contains(#"e0,"'=SUM(A1) xxx"#) && text.contains(#"x Quote ""0"", Jr.",e0@example.com,"#))

            let json = try await client.call(.get, "/v1/reports/holidays?year=2026", token: admin)
            #expect(json.status == .ok && json.headers[.contentType] == "application/json")
            let rows = try #require(try JSONSerialization.jsonObject(with: json.body) as? [[String: Any]])
            #expect(rows.count == 2000)
            let first = try #require(rows.first { $0["username"] as? String == "e1" })
            #expect((first["fullName"] as? String)?.hasSuffix("x Quote \"1\", Jr.") == true)
            #expect(first["workingDays"] as? Int == 1 && first["workingDaysInYear"] as? Int == 1)
            #expect(first["drawsOnAllowance"] as? Bool == true && first["status"] as? String == "pending")
            #expect(first["decidedBy"] is NSNull && first["decidedAt"] is NSNull && first["start"] as? String == "2026-04-06")

            let balances = try await client.call(.get, "/v1/reports/balances.csv?year=2026", token: admin)
            #expect(balances.headers[.contentDisposition] == "attachment; filename=\"balances-2026.csv\"")
            #expect(String(decoding: balances.body, as: UTF8.self) == (try await Self.expectedCSV(h, year: 2026, balances: true)))
            let balanceRows = try #require(
                try JSONSerialization.jsonObject(with: try await client.call(.get, "/v1/reports/balances?year=2026", token: admin).body)
                    as? [[String: Any]])
            let e1 = try #require(balanceRows.first { $0["username"] as? String == "e1" })
            #expect(e1["active"] as? Bool == true && e1["pending"] as? Int == 10 && e1["year"] as? Int == 2026)
        }
    }

    @Test func onlyAdminsReadReportsOfASupportedYear() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            for path in ["/v1/reports/holidays.csv", "/v1/reports/holidays", "/v1/reports/balances.csv", "/v1/reports/balances"] {
                expectProblem(try await client.call(.get, "\(path)?year=2026", token: alice), .forbidden, "forbidden")
                expectProblem(try await client.call(.get, "\(path)?year=2026"), .unauthorized, "unauthenticated")
                expectProblem(try await client.call(.get, path, token: admin), .unprocessableContent, "validation-failed")
                expectProblem(try await client.call(.get, "\(path)?year=10000", token: admin), .unprocessableContent, "validation-failed")
                expectProblem(try await client.call(.get, "\(path)?year=twenty", token: admin), .unprocessableContent, "validation-failed")
            }
            // A year without requests is the header alone (CSV), or an empty array (JSON).
            let empty = try await client.call(.get, "/v1/reports/holidays.csv?year=1999", token: admin)
            #expect(String(decoding: empty.body, as: UTF8.self) == CSV.record(HolidayReportLayout.requestColumns.map(CSV.Cell.text)))
            #expect(String(decoding: try await client.call(.get, "/v1/reports/holidays?year=1999", token: admin).body, as: UTF8.self) == "[]")
        }
    }
}
