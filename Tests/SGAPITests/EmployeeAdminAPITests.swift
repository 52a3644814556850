import Foundation
import Hummingbird
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// `POST /v1/employees` and `PATCH /v1/employees/{id}`: what `sgadmin user` does, for admin clients.
@Suite struct EmployeeAdminAPITests {
    @Test func anAdminAddsALocalAccountThatLogsIn() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let body = #"{"username":"maria","name":"María","surname":"Peña","email":"maria@example.com","password":"a-long-password"}"#
            let created = try await client.call(.post, "/v1/employees", token: admin, json: body)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            #expect(created.headers[.location] == "/v1/employees/\(id)")
            #expect(created.json["username"] as? String == "maria" && created.json["isAdmin"] as? Bool == false)
            #expect(created.json["isActive"] as? Bool == true && created.json["position"] is NSNull)
            #expect(created.json["password"] == nil)
            _ = try await client.login("maria", "a-long-password")

            expectProblem(try await client.call(.post, "/v1/employees", token: admin, json: body.replacingOccurrences(of: "\"maria\"", with: "\"MARIA\"")), .conflict, "conflict")
            for (json, field) in [
                (#"{"username":"pedro","name":"P","surname":"S","email":"p@example.com"}"#, "password"),
                (#"{"username":"pedro","name":"P","surname":"S","email":"p@example.com","password":"short"}"#, "password"),
                (#"{"username":"pedro","name":"P","surname":"S","email":"p@example.com","password":"pedro"}"#, "password"),
                (#"{"username":"pe dro","name":"P","surname":"S","email":"p@example.com","password":"a-long-password"}"#, "username"),
                (#"{"username":"pedro","name":"P","surname":"S","email":"nope","password":"a-long-password"}"#, "email"),
                (#"{"username":"pedro","name":"P","surname":"S","email":"p@example.com","password":"a-long-password","isActive":false}"#, "isActive"),
                (#"{"username":"pedro","name":"P","surname":"S","email":"p@example.com","password":"a-long-password","isAdmin":null}"#, "isAdmin"),
            ] {
                let reply = try await client.call(.post, "/v1/employees", token: admin, json: json)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(json)")
            }
            expectProblem(try await client.call(.post, "/v1/employees", token: admin, json: "[]"), .badRequest, "malformed-request")
            #expect(try await h.fixture.count("employees") == 5)
        }
    }

    @Test func withADirectoryOfRecordNoLocalAccountIsAddedAndItsFieldsStayItsOwn() async throws {
        let f = try await Fixture.make()
        let h = APIHarness(fixture: f, directory: ProvisioningDirectory(local: f.localAccounts))
        try await h.run { client in
            let admin = try await client.login("admin")
            let created = try await client.call(
                .post, "/v1/employees", token: admin,
                json: #"{"username":"maria","name":"María","surname":"Peña","email":"maria@example.com","password":"a-long-password"}"#)
            expectProblem(created, .conflict, "conflict")
            #expect((created.json["detail"] as? String)?.contains("company directory (ldap)") == true)

            let email = try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"email":"new@example.com"}"#)
            expectProblem(email, .unprocessableContent, "validation-failed")
            #expect(email.json["field"] as? String == "email")
            let position = try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"position":"Buyer"}"#)
            #expect(position.status == .ok && position.json["position"] as? String == "Buyer")
        }
    }

    @Test func anAdminSetsTheEmploymentDatesAndRequestsKeepWithinThem() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            let path = "/v1/employees/\(f.alice.id)"
            let record = try await client.call(.get, path + "/record", token: admin)
            #expect(record.json["employmentStart"] is NSNull && record.json["employmentEnd"] is NSNull)

            let set = try await client.call(.patch, path, token: admin, json: #"{"employmentStart":"2026-05-04","employmentEnd":"2026-06-30"}"#)
            #expect(set.status == .ok && set.json["employmentStart"] as? String == "2026-05-04" && set.json["employmentEnd"] as? String == "2026-06-30")
            let me = try await client.call(.get, "/v1/me", token: alice)
            #expect(me.json["employmentStart"] as? String == "2026-05-04" && me.json["employmentEnd"] as? String == "2026-06-30")
            // Colleagues do not see them.
            let colleague = try await client.call(.get, path, token: alice)
            #expect(colleague.status == .ok && colleague.json["employmentEnd"] == nil)

            let early = try await client.call(
                .post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-04-30","endDate":"2026-05-05"}"#)
            expectProblem(early, .unprocessableContent, "validation-failed")
            #expect(early.json["field"] as? String == "startDate")
            let june = try await client.call(.post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-06-29","endDate":"2026-06-30"}"#)
            #expect(june.status == .created)
            let late = try await client.call(.post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-07-01","endDate":"2026-07-01"}"#)
            expectProblem(late, .unprocessableContent, "validation-failed")
            #expect(late.json["field"] as? String == "endDate")

            expectProblem(try await client.call(.patch, path, token: admin, json: #"{"employmentEnd":"2026-06-26"}"#), .conflict, "conflict")
            for (json, field) in [
                (#"{"employmentEnd":"2026-05-01"}"#, "employmentEnd"),
                (#"{"employmentStart":"4 May 2026"}"#, "employmentStart"),
                (#"{"employmentStart":"2026-02-30"}"#, "employmentStart"),
                (#"{"employmentEnd":20260630}"#, "employmentEnd"),
            ] {
                let reply = try await client.call(.patch, path, token: admin, json: json)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(json)")
            }
            expectProblem(try await client.call(.patch, path, token: alice, json: #"{"employmentEnd":null}"#), .forbidden, "forbidden")
            let cleared = try await client.call(.patch, path, token: admin, json: #"{"employmentStart":null,"employmentEnd":null}"#)
            #expect(cleared.status == .ok && cleared.json["employmentStart"] is NSNull && cleared.json["employmentEnd"] is NSNull)

            // A new account may come with its dates.
            let new = #"{"username":"maria","name":"María","surname":"Peña","email":"maria@example.com","password":"a-long-password""#
            let hired = try await client.call(.post, "/v1/employees", token: admin, json: new + #","employmentStart":"2026-09-01"}"#)
            #expect(hired.status == .created && hired.json["employmentStart"] as? String == "2026-09-01" && hired.json["employmentEnd"] is NSNull)
            for (json, field) in [(#","employmentStart":"1 Sept"}"#, "employmentStart"), (#","employmentStart":"2026-09-01","employmentEnd":"2026-08-31"}"#, "employmentEnd")] {
                let reply = try await client.call(.post, "/v1/employees", token: admin, json: new.replacingOccurrences(of: "maria", with: "pedro") + json)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(json)")
            }
        }
    }

    @Test func anAccrualPlanIsSetForTheCompanyOrAnEmployeeAndLimitsNewRequests() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            let company = #"{"name":"Acme","workingWeek":[1,2,3,4,5],"defaultAllowance":23"#
            #expect(try await client.call(.get, "/v1/me", token: alice).json["accrual"] is NSNull)
            let yearly = try await client.call(.get, "/v1/company", token: alice)
            #expect(yearly.json["accrual"] as? NSDictionary == ["period": "year", "credited": "start", "advance": "none"])

            let put = try await client.call(.put, "/v1/company", token: admin, json: company + #","accrual":{"period":"month"}}"#)
            #expect(put.status == .ok && put.json["accrual"] as? NSDictionary == ["period": "month", "credited": "start", "advance": "none"])
            // Today is 2 March: three of twelve credits of 23 days, 5.5.
            let balance = try await client.call(.get, "/v1/employees/\(f.alice.id)/balance?year=2026", token: alice)
            #expect(balance.json["accrual"] as? NSDictionary == ["period": "month", "credited": "start", "advance": "none"])
            #expect(balance.json["earned"] as? Double == 5.5 && balance.json["requestable"] as? Double == 5.5 && balance.json["remaining"] as? Double == 23)

            // 9 to 16 March is six working days: refused as the balance is, with the day from which it fits.
            for route in ["/v1/me/holidays/preview", "/v1/me/holidays"] {
                let refused = try await client.call(.post, route, token: alice, json: #"{"startDate":"2026-03-09","endDate":"2026-03-16"}"#)
                expectProblem(refused, .conflict, "balance-exceeded")
                #expect(refused.json["fitsFrom"] as? String == "2026-04-01", "\(route)")
            }
            // More than the year holds: no day would make it fit.
            let tooMuch = try await client.call(.post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-03-09","endDate":"2026-05-29"}"#)
            expectProblem(tooMuch, .conflict, "balance-exceeded")
            #expect(tooMuch.json["fitsFrom"] == nil)
            #expect(try await client.call(.post, "/v1/me/holidays", token: alice, json: #"{"startDate":"2026-03-09","endDate":"2026-03-13"}"#).status == .created)

            let ahead = try await client.call(.put, "/v1/company", token: admin, json: company + #","accrual":{"period":"quarter","credited":"end","advance":5}}"#)
            #expect(ahead.json["accrual"] as? NSDictionary == ["period": "quarter", "credited": "end", "advance": 5])
            for (accrual, field) in [
                (#"{"period":"week"}"#, "accrual.period"), (#"{"credited":"end"}"#, "accrual.period"), (#"{"period":null}"#, "accrual.period"),
                (#"{"period":"month","credited":"middle"}"#, "accrual.credited"), (#"{"period":"month","credited":null}"#, "accrual.credited"),
                (#"{"period":"month","advance":0}"#, "accrual.advance"), (#"{"period":"month","advance":"5"}"#, "accrual.advance"),
                (#"{"period":"month","advance":1.5}"#, "accrual.advance"), (#"{"period":"month","advance":null}"#, "accrual.advance"), (#"{"period":"month","advance":367}"#, "accrual.advance"),
                (#"{"period":"month","every":2}"#, "accrual.every"), (#""month""#, "accrual"), ("null", "accrual"),
            ] {
                let reply = try await client.call(.put, "/v1/company", token: admin, json: company + #","accrual":"# + accrual + "}")
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(accrual)")
            }
            #expect(try await client.call(.get, "/v1/company", token: admin).json["accrual"] as? NSDictionary == ["period": "quarter", "credited": "end", "advance": 5])

            // An employee's own plan wins over the company's; null gives them the company's again.
            let path = "/v1/employees/\(f.bob.id)"
            let monthly = ["period": "month", "credited": "end", "advance": "year"] as NSDictionary
            let own = try await client.call(.patch, path, token: admin, json: #"{"accrual":{"period":"month","credited":"end","advance":"year"}}"#)
            #expect(own.status == .ok && own.json["accrual"] as? NSDictionary == monthly)
            #expect(try await client.call(.get, path + "/record", token: admin).json["accrual"] as? NSDictionary == monthly)
            // Two credits by 2 March (the ends of January and February), 46 × 2/12 halves rounded down; all of it requestable.
            let bobs = try await client.call(.get, path + "/balance?year=2026", token: admin)
            #expect(bobs.json["accrual"] as? NSDictionary == monthly && bobs.json["earned"] as? Double == 3.5 && bobs.json["requestable"] as? Double == 23)
            // The yearly plan earns everything on its first day: it has no advance.
            let yearlyOwn = try await client.call(.patch, path, token: admin, json: #"{"accrual":{"period":"year","advance":"year"}}"#)
            #expect(yearlyOwn.json["accrual"] as? NSDictionary == ["period": "year", "credited": "start", "advance": "none"])
            #expect(try await client.call(.get, path + "/balance?year=2026", token: admin).json["accrual"] is NSNull)
            let invalid = try await client.call(.patch, path, token: admin, json: #"{"accrual":{"period":"fortnight"}}"#)
            expectProblem(invalid, .unprocessableContent, "validation-failed")
            #expect(invalid.json["field"] as? String == "accrual.period")
            let cleared = try await client.call(.patch, path, token: admin, json: #"{"accrual":null}"#)
            #expect(cleared.status == .ok && cleared.json["accrual"] is NSNull)
            #expect(try await client.call(.get, path + "/balance?year=2026", token: admin).json["earned"] as? Double == 0)
            expectProblem(try await client.call(.patch, path, token: alice, json: #"{"accrual":null}"#), .forbidden, "forbidden")
        }
    }

    @Test func anAdminChangesRoleActivityAndHRFields() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")

            let promoted = try await client.call(
                .patch, "/v1/employees/\(f.alice.id)", token: admin,
                json: #"{"position":"Head of sales","phone":"+34 600 111 222","email":"alicia@example.com","isAdmin":true}"#)
            #expect(promoted.status == .ok)
            #expect(promoted.json["isAdmin"] as? Bool == true && promoted.json["position"] as? String == "Head of sales")
            #expect(promoted.json["email"] as? String == "alicia@example.com")
            // Her own token carries the role at once.
            #expect(try await client.call(.get, "/v1/teams", token: alice).status == .ok)
            let cleared = try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"position":null,"phone":""}"#)
            #expect(cleared.json["position"] is NSNull && cleared.json["phone"] is NSNull && cleared.json["isAdmin"] as? Bool == true)

            // Deactivated: her token stops at once; reactivated: she logs in again.
            let off = try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"isActive":false}"#)
            #expect(off.status == .ok && off.json["isActive"] as? Bool == false)
            expectProblem(try await client.call(.get, "/v1/me", token: alice), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.post, "/v1/auth/login", json: #"{"username":"alice","password":"\#(Fixture.password)"}"#), .forbidden, "forbidden")
            let on = try await client.call(.patch, "/v1/employees/\(f.alice.id)", token: admin, json: #"{"isActive":true}"#)
            #expect(on.status == .ok && on.json["isActive"] as? Bool == true)
            _ = try await client.login("alice")

            for (json, field) in [
                (#"{"isActive":null}"#, "isActive"), (#"{"isAdmin":"yes"}"#, "isAdmin"), (#"{"email":null}"#, "email"),
                (#"{"name":""}"#, "name"), (#"{"username":"other"}"#, "username"), (#"{"birthDate":"1990-01-01"}"#, "birthDate"),
            ] {
                let reply = try await client.call(.patch, "/v1/employees/\(f.bob.id)", token: admin, json: json)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(json)")
            }
            expectProblem(try await client.call(.patch, "/v1/employees/9999", token: admin, json: #"{"isAdmin":true}"#), .notFound, "not-found")
            let bob = try await client.login("bob")
            expectProblem(try await client.call(.patch, "/v1/employees/\(f.bob.id)", token: bob, json: #"{"isAdmin":true}"#), .forbidden, "forbidden")
        }
    }

    @Test func theLastActiveAdminStays() async throws {
        let h = try await APIHarness.make()
        let f = h.fixture
        try await h.run { client in
            let admin = try await client.login("admin")
            #expect(try await client.call(.patch, "/v1/employees/\(f.secondAdmin.id)", token: admin, json: #"{"isActive":false}"#).status == .ok)
            for json in [#"{"isAdmin":false}"#, #"{"isActive":false}"#, #"{"position":"Retired","isActive":false}"#] {
                let reply = try await client.call(.patch, "/v1/employees/\(f.admin.id)", token: admin, json: json)
                expectProblem(reply, .conflict, "conflict")
                #expect((reply.json["detail"] as? String)?.contains("You cannot deactivate yourself or give up your own admin role") == true)
            }
            let me = try await client.call(.get, "/v1/me", token: admin)
            #expect(me.json["isAdmin"] as? Bool == true && me.json["position"] is NSNull)
            // Bringing admin2 back: admin2 may demote admin, who may not step down alone.
            #expect(try await client.call(.patch, "/v1/employees/\(f.secondAdmin.id)", token: admin, json: #"{"isActive":true}"#).status == .ok)
            expectProblem(
                try await client.call(.patch, "/v1/employees/\(f.admin.id)", token: admin, json: #"{"isAdmin":false}"#), .conflict, "conflict")
            let admin2 = try await client.login("admin2")
            let stepped = try await client.call(.patch, "/v1/employees/\(f.admin.id)", token: admin2, json: #"{"isAdmin":false}"#)
            #expect(stepped.status == .ok && stepped.json["isAdmin"] as? Bool == false)
            expectProblem(try await client.call(.patch, "/v1/employees/\(f.admin.id)", token: admin, json: #"{"isAdmin":true}"#), .forbidden, "forbidden")
        }
    }
}
