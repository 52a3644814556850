import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Leave types and half days over HTTP.
@Suite struct LeaveAPITests {
    @Test func halfDaysAndTypesTravelThroughTheAPI() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let types = try await client.call(.get, "/v1/leave-types", token: alice)
            #expect(types.status == .ok)
            let list = try #require(try JSONSerialization.jsonObject(with: types.body) as? [[String: Any]])
            #expect(list.map { $0["name"] as? String } == ["holiday", "sick", "unpaid"])
            #expect(list[1]["private"] as? Bool == true && list[1]["needsApproval"] as? Bool == false)
            #expect(list[0]["yearlyCap"] is NSNull)

            // Monday afternoon to Wednesday morning: two working days.
            let created = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-08-10","endDate":"2026-08-12","startHalf":"afternoon","endHalf":"morning"}"#)
            #expect(created.status == .created)
            #expect(created.json["workingDays"] as? Int == 2)
            #expect(created.json["startHalf"] as? String == "afternoon" && created.json["endHalf"] as? String == "morning")
            #expect(created.json["leaveTypeId"] as? Int == 1 && created.json["leaveTypeName"] as? String == "holiday")
            // Wednesday afternoon alone: half a day, beside the morning already taken.
            let afternoon = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-08-12","endDate":"2026-08-12","startHalf":"afternoon","endHalf":"afternoon"}"#)
            #expect(afternoon.status == .created)
            #expect(afternoon.json["workingDays"] as? Double == 0.5)
            let year = try await client.call(.get, "/v1/me/holidays?year=2026", token: alice)
            let balance = try #require(year.json["balance"] as? [String: Any])
            #expect(balance["pending"] as? Double == 2.5 && balance["remaining"] as? Double == 20.5)
            let detail = try await client.call(.get, "/v1/holidays/\(try #require(afternoon.json["id"] as? Int))", token: alice)
            #expect(detail.json["workingDaysByYear"] as? [String: Double] == ["2026": 0.5])

            // Sick leave: approved at once, the balance untouched.
            let sick = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-03-02","endDate":"2026-03-03","leaveTypeId":2}"#)
            #expect(sick.status == .created)
            #expect(sick.json["status"] as? String == "approved" && sick.json["leaveTypeName"] as? String == "sick")
            let after = try await client.call(.get, "/v1/me/holidays?year=2026", token: alice)
            #expect((after.json["balance"] as? [String: Any])?["remaining"] as? Double == 20.5)

            // Admins define types; a type in use is retired, not deleted.
            let parental = try await client.call(.post, "/v1/leave-types", token: admin, json: #"{"name":"parental","yearlyCap":10.5}"#)
            #expect(parental.status == .created)
            let parentalID = try #require(parental.json["id"] as? Int)
            #expect(parental.headers[.location] == "/v1/leave-types/\(parentalID)")
            #expect(parental.json["yearlyCap"] as? Double == 10.5 && parental.json["drawsOnAllowance"] as? Bool == false)
            #expect(try await client.call(.post, "/v1/leave-types", token: alice, json: #"{"name":"party"}"#).status == .forbidden)
            let used = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-09-07","endDate":"2026-09-07","leaveTypeId":\#(parentalID)}"#)
            #expect(used.status == .created && used.json["status"] as? String == "pending")
            let refused = try await client.call(.delete, "/v1/leave-types/\(parentalID)", token: admin)
            #expect(refused.status == .conflict && refused.isProblem)
            let retired = try await client.call(.patch, "/v1/leave-types/\(parentalID)", token: admin, json: #"{"retired":true,"yearlyCap":null}"#)
            #expect(retired.status == .ok && retired.json["retired"] as? Bool == true && retired.json["yearlyCap"] is NSNull)
            let late = try await client.call(
                .post, "/v1/me/holidays", token: alice,
                json: #"{"startDate":"2026-09-08","endDate":"2026-09-08","leaveTypeId":\#(parentalID)}"#)
            #expect(late.status == .unprocessableContent && late.isProblem)
        }
    }

    @Test func adjustmentsAndTheAllowanceHistoryOverHTTP() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let id = h.fixture.alice.id
            let added = try await client.call(
                .post, "/v1/employees/\(id)/allowances/2026/adjustments", token: admin, json: #"{"days":2.5,"reason":"Overtime"}"#)
            #expect(added.status == .created)
            let change = try #require(added.json["change"] as? [String: Any])
            #expect(change["days"] as? Double == 2.5 && change["kind"] as? String == "adjust" && change["reason"] as? String == "Overtime")
            let balance = try #require(added.json["balance"] as? [String: Any])
            #expect(balance["adjusted"] as? Double == 2.5 && balance["remaining"] as? Double == 25.5 && balance["allowance"] as? Int == 23)
            // The employee sees it in the year view and in the history.
            let year = try await client.call(.get, "/v1/me/holidays?year=2026", token: alice)
            #expect((year.json["balance"] as? [String: Any])?["adjusted"] as? Double == 2.5)
            #expect(try await client.call(.put, "/v1/employees/\(id)/allowances/2026", token: admin, json: #"{"days":20}"#).status == .ok)
            let history = try await client.call(.get, "/v1/employees/\(id)/allowances/2026/changes", token: alice)
            #expect(history.status == .ok)
            let entries = try #require(try JSONSerialization.jsonObject(with: history.body) as? [[String: Any]])
            #expect(entries.map { $0["kind"] as? String } == ["adjust", "set"])
            #expect(entries.map { $0["days"] as? Double } == [2.5, 20])
            #expect(entries.allSatisfy { $0["actor"] as? String == "admin" })
            // Refused: bad days, no reason, unknown fields, removing more than is left, another employee's history.
            for body in [#"{"days":0.3,"reason":"x"}"#, #"{"days":0,"reason":"x"}"#, #"{"days":1}"#, #"{"days":1,"reason":" "}"#,
                         #"{"days":1,"reason":"x","note":"y"}"#, #"{"days":"1","reason":"x"}"#, #"{"days":1e300,"reason":"x"}"#] {
                let reply = try await client.call(.post, "/v1/employees/\(id)/allowances/2026/adjustments", token: admin, json: body)
                #expect(reply.status == .unprocessableContent && reply.isProblem, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
            }
            let tooMuch = try await client.call(
                .post, "/v1/employees/\(id)/allowances/2026/adjustments", token: admin, json: #"{"days":-23,"reason":"x"}"#)
            #expect(tooMuch.status == .conflict && tooMuch.isProblem)
            let bob = try await client.login("bob")
            #expect(try await client.call(.get, "/v1/employees/\(id)/allowances/2026/changes", token: bob).status == .forbidden)
            #expect(try await h.fixture.count("allowance_changes") == 2)
        }
    }

    @Test func carryOverIsACompanySettingAndShowsInTheBalance() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let company = try await client.call(.get, "/v1/company", token: alice)
            #expect(company.json["carryOverCap"] as? Int == 5 && company.json["carryOverExpiry"] as? String == "03-31")
            // 2026 leaves all 23 days: 5 carry into 2027, due to expire on 31 March.
            let next = try await client.call(.get, "/v1/me/holidays?year=2027", token: alice)
            let balance = try #require(next.json["balance"] as? [String: Any])
            #expect(balance["carriedOver"] as? Int == 5 && balance["expiring"] as? Int == 5 && balance["expired"] as? Int == 0)
            #expect(balance["remaining"] as? Int == 23)
            #expect(balance["carryOverExpiresOn"] as? String == "2027-03-31")
            let base = #""name":"SGEmployee","workingWeek":[1,2,3,4,5],"defaultAllowance":23"#
            let changed = try await client.call(
                .put, "/v1/company", token: admin, json: #"{"# + base + #","carryOverCap":2.5,"carryOverExpiry":"04-30"}"#)
            #expect(changed.status == .ok && changed.json["carryOverCap"] as? Double == 2.5 && changed.json["carryOverExpiry"] as? String == "04-30")
            let after = try await client.call(.get, "/v1/me/holidays?year=2027", token: alice)
            #expect((after.json["balance"] as? [String: Any])?["carriedOver"] as? Double == 2.5)
            // Kept when absent; refused when not a day of every year or not in half days.
            #expect(try await client.call(.put, "/v1/company", token: admin, json: "{\(base)}").json["carryOverExpiry"] as? String == "04-30")
            for bad in [#""carryOverExpiry":"02-29""#, #""carryOverExpiry":"4-30""#, #""carryOverCap":0.3"#, #""carryOverCap":-1"#,
                        #""carryOverCap":null"#, #""carryOverExpiry":null"#] {
                let reply = try await client.call(.put, "/v1/company", token: admin, json: "{\(base),\(bad)}")
                #expect(reply.status == .unprocessableContent && reply.isProblem, "\(bad): \(String(decoding: reply.body, as: UTF8.self))")
            }
        }
    }

    @Test func partTimeWeeksOverHTTP() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let id = h.fixture.alice.id
            let set = try await client.call(.put, "/v1/employees/\(id)/working-weeks/2026-06-01", token: admin, json: #"{"workingWeek":[1,2,3,4]}"#)
            #expect(set.status == .ok)
            #expect(set.json["companyWorkingWeek"] as? [Int] == [1, 2, 3, 4, 5])
            let changes = try #require(set.json["changes"] as? [[String: Any]])
            #expect(changes.first?["startsOn"] as? String == "2026-06-01" && changes.first?["workingWeek"] as? [Int] == [1, 2, 3, 4])
            let week = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-06-15","endDate":"2026-06-19"}"#)
            #expect(week.json["workingDays"] as? Int == 4)
            let back = try await client.call(.put, "/v1/employees/\(id)/working-weeks/2026-09-01", token: admin, json: #"{"workingWeek":null}"#)
            #expect((back.json["changes"] as? [[String: Any]])?.last?["workingWeek"] is NSNull)
            #expect(try await client.call(.get, "/v1/employees/\(id)/working-weeks", token: alice).status == .ok)
            for (path, body) in [("2026-06-01", #"{"workingWeek":[]}"#), ("2026-06-01", #"{"workingWeek":[1,1]}"#),
                                 ("2026-06-01", #"{"workingWeek":[8]}"#), ("2026-06-01", #"{}"#), ("2026-02-30", #"{"workingWeek":[1]}"#),
                                 ("2026-03-01", #"{"workingWeek":[1]}"#)] {
                let reply = try await client.call(.put, "/v1/employees/\(id)/working-weeks/\(path)", token: admin, json: body)
                #expect(reply.status == .unprocessableContent && reply.isProblem, "\(path) \(body): \(String(decoding: reply.body, as: UTF8.self))")
            }
        }
    }

    @Test func badHalvesAndTypesAreRefusedAndNothingIsWritten() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let bodies: [(String, HTTPResponse.Status)] = [
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","startHalf":"afternoon","endHalf":"morning"}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","startHalf":"evening"}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","startHalf":null}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","leaveTypeId":null}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","leaveTypeId":999}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","leaveTypeId":"sick"}"#, .unprocessableContent),
                (#"{"startDate":"2026-08-10","endDate":"2026-08-10","endHalf":1}"#, .unprocessableContent),
            ]
            for (body, status) in bodies {
                let reply = try await client.call(.post, "/v1/me/holidays", token: alice, json: body)
                #expect(reply.status == status && reply.isProblem, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
            }
            for body in [#"{"name":""}"#, #"{"name":"x","yearlyCap":0.25}"#, #"{"name":"x","yearlyCap":0}"#,
                         #"{"name":"x","yearlyCap":400}"#, #"{"name":"x","colour":"red"}"#, #"{"name":null}"#, #"{}"#] {
                let reply = try await client.call(.post, "/v1/leave-types", token: admin, json: body)
                #expect(reply.status == .unprocessableContent && reply.isProblem, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
            }
            #expect(try await client.call(.post, "/v1/leave-types", token: admin, json: #"{"name":"Sick"}"#).status == .conflict)
            #expect(try await client.call(.patch, "/v1/leave-types/1", token: admin, json: #"{"retired":true}"#).status == .conflict)
            #expect(try await client.call(.get, "/v1/leave-types/99", token: alice).status == .notFound)
            #expect(try await h.fixture.count("holiday_requests") == 0)
            #expect(try await h.fixture.count("leave_types") == 3)
        }
    }

    @Test func holidayCalendarsOverTheAPI() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            let created = try await client.call(.post, "/v1/holiday-calendars", token: admin, json: #"{"name":"Lisbon office"}"#)
            #expect(created.status == .created && created.headers[.location] == "/v1/holiday-calendars/2")
            #expect(created.json["name"] as? String == "Lisbon office" && created.json["employees"] as? Int == 0)
            try await h.fixture.services.company.addPublicHoliday(
                PublicHoliday(date: Fixture.date("2026-06-10"), name: "Dia de Portugal"), calendarID: 2, by: h.fixture.admin.actor)
            let moved = try await client.call(.put, "/v1/employees/\(h.fixture.alice.id)/holiday-calendar", token: admin, json: #"{"calendarId":2}"#)
            #expect(moved.status == .ok && moved.json["id"] as? Int == 2 && moved.json["employees"] as? Int == 1)
            let mine = try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/holiday-calendar", token: alice)
            #expect(mine.json["name"] as? String == "Lisbon office")
            // Her public holidays are her calendar's unless she asks for another.
            let holidays = try await client.call(.get, "/v1/public-holidays?year=2026", token: alice)
            #expect(String(decoding: holidays.body, as: UTF8.self) == #"[{"date":"2026-06-10","name":"Dia de Portugal"}]"#)
            let first = try await client.call(.get, "/v1/public-holidays?year=2026&calendar=1", token: alice)
            #expect(String(decoding: first.body, as: UTF8.self) == "[]")
            // 8 to 12 June 2026: four working days in Lisbon.
            let request = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-06-08","endDate":"2026-06-12"}"#)
            #expect(request.status == .created && request.json["workingDays"] as? Int == 4)
            // Bad input: each a problem, nothing written.
            let bad: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
                (.post, "/v1/holiday-calendars", #"{"name":"lisbon OFFICE"}"#, .conflict),
                (.post, "/v1/holiday-calendars", #"{"name":"123"}"#, .unprocessableContent),
                (.post, "/v1/holiday-calendars", #"{"name":"x","extra":1}"#, .unprocessableContent),
                (.post, "/v1/holiday-calendars", #"{}"#, .unprocessableContent),
                (.patch, "/v1/holiday-calendars/99", #"{"name":"Nowhere"}"#, .notFound),
                (.delete, "/v1/holiday-calendars/1", nil, .conflict),
                (.delete, "/v1/holiday-calendars/2", nil, .conflict),
                (.put, "/v1/employees/\(h.fixture.alice.id)/holiday-calendar", #"{"calendarId":99}"#, .unprocessableContent),
                (.put, "/v1/employees/9999/holiday-calendar", #"{"calendarId":1}"#, .notFound),
                (.get, "/v1/public-holidays?calendar=99", nil, .notFound),
                (.get, "/v1/public-holidays?calendar=x", nil, .unprocessableContent),
            ]
            for (method, path, body, status) in bad {
                let reply = try await client.call(method, path, token: admin, json: body)
                #expect(reply.status == status && reply.isProblem, "\(method) \(path) \(body ?? ""): \(String(decoding: reply.body, as: UTF8.self))")
            }
            let calendars = try await client.call(.get, "/v1/holiday-calendars", token: alice)
            #expect(String(decoding: calendars.body, as: UTF8.self)
                == #"[{"employees":3,"id":1,"name":"default"},{"employees":1,"id":2,"name":"Lisbon office"}]"#)
        }
    }

    @Test func adminsAddAndRemovePublicHolidaysOverTheAPI() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let admin = try await client.login("admin")
            // Before: 8 to 12 June 2026 are five working days.
            let before = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-06-08","endDate":"2026-06-12"}"#)
            #expect(before.status == .created && before.json["workingDays"] as? Int == 5)
            let beforeID = try #require(before.json["id"] as? Int)

            let added = try await client.call(
                .post, "/v1/public-holidays", token: admin, json: #"{"date":"2026-06-04","name":"  Corpus Christi "}"#)
            #expect(added.status == .created && added.headers[.location] == "/v1/public-holidays?year=2026&calendar=1")
            #expect(String(decoding: added.body, as: UTF8.self) == #"{"date":"2026-06-04","name":"Corpus Christi"}"#)
            // A request made now does not count the day; one made before keeps its days.
            let after = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-06-01","endDate":"2026-06-05"}"#)
            #expect(after.status == .created && after.json["workingDays"] as? Int == 4)
            #expect(try await client.call(.get, "/v1/holidays/\(beforeID)", token: alice).json["workingDays"] as? Int == 5)

            // Bad input: each a problem, nothing written.
            let bad: [(HTTPRequest.Method, String, String?, HTTPResponse.Status)] = [
                (.post, "/v1/public-holidays", #"{"date":"2026-06-04","name":"Again"}"#, .conflict),
                (.post, "/v1/public-holidays", #"{"date":"2026-06-05","name":"Elsewhere","calendarId":99}"#, .notFound),
                (.post, "/v1/public-holidays", #"{"date":"2026-02-30","name":"No such day"}"#, .unprocessableContent),
                (.post, "/v1/public-holidays", #"{"date":"2026-06-05","name":"   "}"#, .unprocessableContent),
                (.post, "/v1/public-holidays", #"{"date":"2026-06-05","name":"Fine","extra":true}"#, .unprocessableContent),
                (.post, "/v1/public-holidays", #"{"name":"No date"}"#, .unprocessableContent),
                (.post, "/v1/public-holidays", #"["2026-06-05"]"#, .badRequest),
                (.delete, "/v1/public-holidays/2026-06-05", nil, .notFound),
                (.delete, "/v1/public-holidays/2026-06-04?calendar=99", nil, .notFound),
                (.delete, "/v1/public-holidays/2026-06-04?calendar=x", nil, .unprocessableContent),
                (.delete, "/v1/public-holidays/tomorrow", nil, .unprocessableContent),
            ]
            for (method, path, body, status) in bad {
                let reply = try await client.call(method, path, token: admin, json: body)
                #expect(reply.status == status && reply.isProblem, "\(method) \(path) \(body ?? ""): \(String(decoding: reply.body, as: UTF8.self))")
            }
            let listed = try await client.call(.get, "/v1/public-holidays?year=2026&calendar=1", token: alice)
            #expect(String(decoding: listed.body, as: UTF8.self) == #"[{"date":"2026-06-04","name":"Corpus Christi"}]"#)
            #expect(try await client.call(.delete, "/v1/public-holidays/2026-06-04", token: alice).status == .forbidden)

            #expect(try await client.call(.delete, "/v1/public-holidays/2026-06-04", token: admin).status == .noContent)
            #expect(try await client.call(.delete, "/v1/public-holidays/2026-06-04", token: admin).status == .notFound)
            let emptied = try await client.call(.get, "/v1/public-holidays?year=2026&calendar=1", token: alice)
            #expect(String(decoding: emptied.body, as: UTF8.self) == "[]")
        }
    }
}
