import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Every operation × every kind of caller, through the real router, each cell on a fresh company:
///
/// - `none`: no Authorization header
/// - `owner`: alice, employee `{alice}`, who owns the requests `{pending}` and `{approved}`, the personal notice
///   `{personalNotice}` (about the approval), the device `{device}` and a photo; `{companyNotice}` is admin's
/// - `other`: bob, another employee
/// - `admin`: admin
/// - `gone`: carol's token from before she was deactivated
/// - `{session}`: another session of alice's (her second login); `{aliceRefresh}` its refresh token, `{carolRefresh}`
///   carol's from before she was deactivated
/// - `teamApprover`: max, approver of alice's team "Matrix", who names sue his substitute from 2026-01-01 to
///   2026-12-31; `{maxPending}` is max's own pending request
/// - `otherApprover`: olga, approver of the team "Elsewhere" (bob's)
/// - `substitute`: sue, max's substitute (a plain employee otherwise)
/// The three team callers answer as `other` unless a row says otherwise (`teams:`).
/// - `{feed}`, `{feedSecret}`: alice's personal calendar feed; `{goneFeedSecret}`: carol's, made before she was deactivated
///
/// To extend: add a row. `everyRouteHasARow` fails until every route the router serves has one.
@Suite struct AccessMatrixTests {
    static let rows: [Row] = [
        //                                                                          none owner other admin gone
        Row(.get, "/v1/health",                                                     200, 200, 200, 200, 200),
        Row(.get, "/v1/health/ready",                                               200, 200, 200, 200, 200),
        Row(.post, "/v1/auth/login", body: Body.aliceLogin,                         200, 200, 200, 200, 200),
        Row(.post, "/v1/auth/login", body: Body.carolLogin,                         403, 403, 403, 403, 403),
        Row(.post, "/v1/auth/logout",                                               401, 204, 204, 204, 401),
        // The refresh token is the credential, whoever sends it; carol's ended with her account.
        Row(.post, "/v1/auth/refresh", body: Body.aliceRefresh,                     200, 200, 200, 200, 200),
        Row(.post, "/v1/auth/refresh", body: Body.carolRefresh,                     401, 401, 401, 401, 401),
        Row(.get, "/v1/me/sessions",                                                401, 200, 200, 200, 401),
        Row(.delete, "/v1/me/sessions",                                             401, 204, 204, 204, 401),
        Row(.delete, "/v1/me/sessions/{session}",                                   401, 204, 404, 404, 401),
        Row(.post, "/v1/auth/password-reset", body: Body.resetRequest,              202, 202, 202, 202, 202),
        Row(.post, "/v1/auth/password-reset/confirm", body: Body.resetConfirm,      422, 422, 422, 422, 422),
        Row(.put, "/v1/me/password", body: Body.passwordChange,                     401, 204, 204, 204, 401),
        Row(.get, "/v1/me",                                                         401, 200, 200, 200, 401),
        Row(.get, "/v1/me/holidays",                                                401, 200, 200, 200, 401),
        Row(.post, "/v1/me/holidays", body: Body.newHoliday,                        401, 201, 201, 201, 401),
        Row(.post, "/v1/me/holidays/preview", body: Body.newHoliday,                401, 200, 200, 200, 401),
        Row(.get, "/v1/holidays",                                                   401, 403, 403, 200, 401, teams: Self.approvers(200)),
        Row(.get, "/v1/holidays/{pending}",                                         401, 200, 404, 200, 401, teams: Self.team(200)),
        // An approver of another team hears of another team's request what they hear of an id that does not exist.
        Row(.post, "/v1/holidays/{pending}/approve",                                401, 403, 403, 200, 401, teams: Self.team(200, other: 404)),
        Row(.post, "/v1/holidays/{pending}/reject", body: Body.reason,              401, 403, 403, 200, 401, teams: Self.team(200, other: 404)),
        // Without a reason: refused to anyone not entitled before the reason is looked at.
        Row(.post, "/v1/holidays/{pending}/reject",                                 401, 403, 403, 422, 401, teams: Self.team(422, other: 404)),
        Row(.post, "/v1/holidays/{approved}/revert",                                401, 403, 403, 200, 401, teams: Self.team(200, other: 404)),
        // Nobody decides their own request, nor does their substitute, who may not read it.
        Row(.post, "/v1/holidays/{maxPending}/approve",                             401, 403, 403, 200, 401, teams: Self.ownTeam),
        Row(.post, "/v1/holidays/{maxPending}/reject", body: Body.reason,           401, 403, 403, 200, 401, teams: Self.ownTeam),
        // Cancelling stays the owner's and the admins'.
        Row(.post, "/v1/holidays/{pending}/cancel",                                 401, 200, 404, 200, 401, teams: Self.team(403)),
        Row(.post, "/v1/holidays/{approved}/cancel",                                401, 200, 404, 200, 401, teams: Self.team(403)),
        Row(.put, "/v1/employees/{alice}/allowances/2026", body: Body.days,         401, 403, 403, 200, 401),
        Row(.get, "/v1/employees/{alice}/balance",                                  401, 200, 403, 200, 401, teams: Self.team(200)),
        Row(.post, "/v1/employees/{alice}/allowances/2026/adjustments", body: Body.adjustment, 401, 403, 403, 201, 401),
        Row(.get, "/v1/employees/{alice}/allowances/2026/changes",                  401, 200, 403, 200, 401, teams: Self.team(200)),
        Row(.get, "/v1/employees/{alice}/working-weeks",                            401, 200, 403, 200, 401, teams: Self.team(200)),
        Row(.put, "/v1/employees/{alice}/working-weeks/2027-01-04", body: Body.workingWeek, 401, 403, 403, 200, 401),
        Row(.get, "/v1/public-holidays",                                            401, 200, 200, 200, 401),
        Row(.patch, "/v1/me", body: Body.profile,                                   401, 200, 200, 200, 401),
        Row(.put, "/v1/me/photo", body: Body.photo,                                 401, 200, 200, 200, 401),
        Row(.delete, "/v1/me/photo",                                                401, 204, 204, 204, 401),
        Row(.get, "/v1/me/settings",                                                401, 200, 200, 200, 401),
        Row(.put, "/v1/me/settings", body: Body.settings,                           401, 200, 200, 200, 401),
        Row(.post, "/v1/me/devices", body: Body.device,                             401, 201, 201, 201, 401),
        Row(.delete, "/v1/me/devices/{device}",                                     401, 204, 404, 404, 401),
        // Without Web Push configured the key is not there.
        Row(.get, "/v1/push/vapid-public-key",                                      401, 404, 404, 404, 401),
        Row(.get, "/v1/employees",                                                  401, 200, 200, 200, 401),
        Row(.get, "/v1/employees/{alice}",                                          401, 200, 200, 200, 401),
        Row(.post, "/v1/employees", body: Body.newEmployee,                         401, 403, 403, 201, 401),
        Row(.patch, "/v1/employees/{alice}", body: Body.employeeChange,             401, 403, 403, 200, 401),
        // Rights before input: an employee's invalid body is still a 403.
        Row(.patch, "/v1/employees/{alice}", body: Body.invalidEmployeeChange,      401, 403, 403, 422, 401),
        Row(.get, "/v1/employees/{alice}/photo",                                    401, 200, 200, 200, 401),
        Row(.get, "/v1/employees/{alice}/holidays",                                 401, 200, 403, 200, 401, teams: Self.team(200)),
        Row(.get, "/v1/notices",                                                    401, 200, 200, 200, 401),
        Row(.get, "/v1/notices?includeExpired=true",                                401, 403, 403, 200, 401),
        Row(.post, "/v1/notices", body: Body.notice,                                401, 403, 403, 201, 401),
        Row(.get, "/v1/notices/{companyNotice}",                                    401, 200, 200, 200, 401),
        Row(.get, "/v1/notices/{personalNotice}",                                   401, 200, 404, 404, 401),
        Row(.patch, "/v1/notices/{companyNotice}", body: Body.pin,                  401, 403, 403, 200, 401),
        Row(.delete, "/v1/notices/{companyNotice}",                                 401, 403, 403, 204, 401),
        Row(.post, "/v1/notices/{personalNotice}/read",                             401, 200, 404, 404, 401),
        Row(.delete, "/v1/notices/{personalNotice}/read",                           401, 200, 404, 404, 401),
        Row(.get, "/v1/company",                                                    401, 200, 200, 200, 401),
        Row(.put, "/v1/company", body: Body.company,                                401, 403, 403, 200, 401),
        Row(.get, "/v1/company/feed",                                               401, 200, 200, 200, 401),
        Row(.get, "/v1/home",                                                       401, 200, 200, 200, 401),
        Row(.get, "/v1/employees/{alice}/record",                                   401, 403, 403, 200, 401),
        Row(.get, "/v1/employees/{alice}/sessions",                                 401, 403, 403, 200, 401),
        Row(.delete, "/v1/employees/{alice}/sessions",                              401, 403, 403, 204, 401),
        // The matrix's company sends no e-mail: its outbox is empty.
        Row(.get, "/v1/outbox/messages",                                            401, 403, 403, 200, 401),
        Row(.get, "/v1/outbox/messages/1",                                          401, 403, 403, 404, 401),
        Row(.post, "/v1/outbox/messages/1/retry",                                   401, 403, 403, 404, 401),
        Row(.post, "/v1/outbox/retry-dead",                                         401, 403, 403, 200, 401),
        Row(.get, "/v1/webhooks",                                                   401, 403, 403, 200, 401),
        Row(.post, "/v1/webhooks", body: Body.webhook,                              401, 403, 403, 201, 401),
        Row(.get, "/v1/webhooks/{webhook}",                                         401, 403, 403, 200, 401),
        Row(.delete, "/v1/webhooks/{webhook}",                                      401, 403, 403, 204, 401),
        Row(.get, "/v1/leave-types",                                                401, 200, 200, 200, 401),
        Row(.post, "/v1/leave-types", body: Body.leaveType,                         401, 403, 403, 201, 401),
        Row(.get, "/v1/leave-types/{leaveType}",                                    401, 200, 200, 200, 401),
        Row(.patch, "/v1/leave-types/{leaveType}", body: Body.retire,               401, 403, 403, 200, 401),
        Row(.delete, "/v1/leave-types/{leaveType}",                                 401, 403, 403, 204, 401),
        Row(.get, "/v1/holiday-calendars",                                          401, 200, 200, 200, 401),
        Row(.post, "/v1/holiday-calendars", body: Body.calendar,                    401, 403, 403, 201, 401),
        Row(.patch, "/v1/holiday-calendars/{calendar}", body: Body.calendarName,    401, 403, 403, 200, 401),
        Row(.delete, "/v1/holiday-calendars/{calendar}",                            401, 403, 403, 204, 401),
        Row(.get, "/v1/public-holidays?calendar={calendar}",                        401, 200, 200, 200, 401),
        Row(.post, "/v1/public-holidays", body: Body.publicHoliday,                 401, 403, 403, 201, 401),
        Row(.delete, "/v1/public-holidays/2026-12-25",                              401, 403, 403, 204, 401),
        Row(.get, "/v1/reports/holidays.csv?year=2026",                             401, 403, 403, 200, 401),
        Row(.get, "/v1/reports/holidays?year=2026",                                 401, 403, 403, 200, 401),
        Row(.get, "/v1/reports/balances.csv?year=2026",                             401, 403, 403, 200, 401),
        Row(.get, "/v1/reports/balances?year=2026",                                 401, 403, 403, 200, 401),
        Row(.get, "/v1/employees/{alice}/holiday-calendar",                         401, 200, 403, 200, 401),
        Row(.put, "/v1/employees/{alice}/holiday-calendar", body: Body.assignment,  401, 403, 403, 200, 401),
        Row(.get, "/v1/absences?from=2026-04-01&to=2026-04-30",                     401, 200, 200, 200, 401),
        Row(.get, "/v1/me/calendar-feeds",                                          401, 200, 200, 200, 401),
        Row(.post, "/v1/me/calendar-feeds", body: Body.calendarFeed,                401, 201, 201, 201, 401),
        Row(.delete, "/v1/me/calendar-feeds/{feed}",                                401, 204, 404, 404, 401),
        // The secret is the credential: any caller (or none) reads alice's feed; carol's stopped with her account.
        Row(.get, "/ical/{feedSecret}.ics",                                         200, 200, 200, 200, 200),
        Row(.get, "/ical/{goneFeedSecret}.ics",                                     404, 404, 404, 404, 404),
        Row(.get, "/v1/teams",                                                      401, 403, 403, 200, 401, teams: Self.approvers(200)),
        Row(.post, "/v1/teams", body: Body.team,                                    401, 403, 403, 201, 401),
        Row(.get, "/v1/teams/{team}",                                               401, 403, 403, 200, 401),
        Row(.patch, "/v1/teams/{team}", body: Body.twoStage,                        401, 403, 403, 200, 401),
        Row(.delete, "/v1/teams/{team}",                                            401, 403, 403, 204, 401),
        Row(.put, "/v1/teams/{team}/members/{bob}",                                 401, 403, 403, 200, 401),
        Row(.delete, "/v1/teams/{team}/members/{alice}",                            401, 403, 403, 200, 401),
        Row(.put, "/v1/teams/{team}/approvers/{bob}",                               401, 403, 403, 200, 401),
        Row(.delete, "/v1/teams/{team}/approvers/{max}",                            401, 403, 403, 200, 401),
        Row(.get, "/v1/me/delegation",                                              401, 404, 404, 404, 401, teams: [.teamApprover: 200]),
        Row(.put, "/v1/me/delegation", body: Body.delegation,                       401, 403, 403, 403, 401,
            teams: [.teamApprover: 200, .otherApprover: 200]),
        Row(.delete, "/v1/me/delegation",                                           401, 404, 404, 404, 401, teams: [.teamApprover: 204]),
    ]

    enum Caller: String, CaseIterable, Sendable {
        case none, owner, other, admin, gone, teamApprover, otherApprover, substitute
    }

    /// The approver of alice's team and his running substitute answer `status`; the other team's approver as `other`.
    static func team(_ status: Int) -> [Caller: Int] { [.teamApprover: status, .substitute: status] }

    /// The team's approver and substitute answer `status`, the other team's approver `other`.
    static func team(_ status: Int, other: Int) -> [Caller: Int] { [.teamApprover: status, .substitute: status, .otherApprover: other] }

    /// On max's own request: max decides nothing of his own, and neither sue nor olga may read it.
    static let ownTeam: [Caller: Int] = [.teamApprover: 403, .substitute: 404, .otherApprover: 404]

    /// Every approver and substitute.
    static func approvers(_ status: Int) -> [Caller: Int] { [.teamApprover: status, .otherApprover: status, .substitute: status] }

    /// What a row sends: a JSON text, or (`photo`) a PNG's bytes.
    enum Body {
        static let aliceLogin = #"{"username":"alice","password":"\#(Fixture.password)"}"#
        static let carolLogin = #"{"username":"carol","password":"\#(Fixture.password)"}"#
        static let aliceRefresh = #"{"refreshToken":"{aliceRefresh}"}"#
        static let carolRefresh = #"{"refreshToken":"{carolRefresh}"}"#
        static let resetRequest = #"{"login":"alice"}"#
        static let resetConfirm = #"{"token":"sgr_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG","newPassword":"matrix-password-1"}"#
        static let passwordChange = #"{"currentPassword":"\#(Fixture.password)","newPassword":"matrix-password-1"}"#
        static let newHoliday = #"{"startDate":"2026-06-01","endDate":"2026-06-03","comment":"matrix"}"#
        static let reason = #"{"reason":"Audit week"}"#
        static let days = #"{"days":30}"#
        static let adjustment = #"{"days":1.5,"reason":"Matrix"}"#
        static let workingWeek = #"{"workingWeek":[1,2,3,4]}"#
        static let publicHoliday = #"{"date":"2026-10-05","name":"Matrix day"}"#
        static let profile = #"{"position":"Tester","phone":"+34 600 000 000"}"#
        static let newEmployee = #"{"username":"newcomer","name":"New","surname":"Comer","email":"new@example.com","password":"matrix-password-1"}"#
        static let employeeChange = #"{"position":"Tester","isAdmin":false}"#
        static let invalidEmployeeChange = #"{"isActive":null}"#
        static let photo = "<png>"
        static let settings = #"{"notifications":true}"#
        static let device = #"{"token":"matrix-device-0001","platform":"ios"}"#
        static let notice = #"{"title":"Matrix","body":"Posted by the access matrix."}"#
        static let pin = #"{"pinned":true}"#
        static let company = #"{"name":"Matrix S.L.","workingWeek":[1,2,3,4,5],"defaultAllowance":25,"timeZone":"UTC"}"#
        static let webhook = #"{"url":"https://hooks.example.com/matrix","events":["holiday.approved"]}"#
        static let leaveType = #"{"name":"training","yearlyCap":5}"#
        static let retire = #"{"retired":true}"#
        static let calendar = #"{"name":"Lisbon office"}"#
        static let calendarName = #"{"name":"Porto office"}"#
        static let assignment = #"{"calendarId":1}"#
        static let calendarFeed = #"{"kind":"personal"}"#
        static let team = #"{"name":"Matrix B","twoStage":true}"#
        static let twoStage = #"{"twoStage":true}"#
        /// Sue, as everyone's substitute; she is no approver herself (403).
        static let delegation = #"{"to":{sue},"from":"2026-03-02","until":"2026-03-31"}"#
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let expected: [Caller: Int]

        init(
            _ method: HTTPRequest.Method, _ path: String, body: String? = nil, _ none: Int, _ owner: Int, _ other: Int, _ admin: Int,
            _ gone: Int, teams: [Caller: Int] = [:]
        ) {
            self.method = method
            self.path = path
            self.body = body
            self.expected = [
                .none: none, .owner: owner, .other: other, .admin: admin, .gone: gone, .teamApprover: teams[.teamApprover] ?? other,
                .otherApprover: teams[.otherApprover] ?? other, .substitute: teams[.substitute] ?? other,
            ]
        }

        var testDescription: String { "\(method) \(path)\(body.map { " " + $0 } ?? "")" }

        /// The route this row exercises, as the router names it: placeholders and numbers become parameters.
        var route: String {
            let parts = path.split(separator: "?")[0].split(separator: "/")
            let segments = parts.indices.map { index -> String in
                let segment = parts[index]
                if segment == "{device}" { return "{token}" }
                if index > 0, parts[index - 1] == "public-holidays" { return "{date}" }
                if segment.hasSuffix(".ics") { return "{secret}.ics" }
                if ["{bob}", "{alice}", "{max}"].contains(segment) && path.hasPrefix("/v1/teams/") { return "{employeeId}" }
                if segment.hasPrefix("{") { return "{id}" }
                if segment.allSatisfy(\.isNumber) { return parts[index - 1] == "messages" ? "{id}" : "{year}" }
                if CalendarDate(iso: String(segment)) != nil { return "{startsOn}" }
                return String(segment)
            }
            return "\(method.rawValue) /" + segments.joined(separator: "/")
        }
    }

    @Test(arguments: rows)
    func callersGetTheExpectedStatus(_ row: Row) async throws {
        for caller in Caller.allCases {
            let h = try await APIHarness.make()
            let hash = try await Passwords.hash(Fixture.password, cost: 4)
            _ = try await h.fixture.services.accounts.addEmployee(NewEmployee(
                username: "carol", name: "Carol", surname: "Gone", email: "carol@example.com", isAdmin: false, passwordHash: hash))
            try await h.fixture.services.company.addPublicHoliday(
                PublicHoliday(date: Fixture.date("2026-12-25"), name: "Christmas Day"), by: h.fixture.admin.actor)
            try await h.run { client in
                let alice = try await client.login("alice")
                let admin = try await client.login("admin")
                let pending = try #require(try await client.create(alice, Fixture.date("2026-04-06"), Fixture.date("2026-04-08")).json["id"] as? Int)
                let approved = try #require(try await client.create(alice, Fixture.date("2026-05-04"), Fixture.date("2026-05-06")).json["id"] as? Int)
                #expect(try await client.call(.post, "/v1/holidays/\(approved)/approve", token: admin).status == .ok)
                let personalNotice = try #require(
                    try await client.call(.get, "/v1/notices", token: alice).items.first { $0["kind"] as? String == "personal" }?["id"] as? Int)
                let companyNotice = try #require(
                    try await client.call(.post, "/v1/notices", token: admin, json: Body.notice).json["id"] as? Int)
                let webhook = try #require(
                    try await client.call(.post, "/v1/webhooks", token: admin, json: Body.webhook).json["id"] as? Int)
                let leaveType = try #require(
                    try await client.call(.post, "/v1/leave-types", token: admin, json: #"{"name":"parental"}"#).json["id"] as? Int)
                let calendar = try #require(
                    try await client.call(.post, "/v1/holiday-calendars", token: admin, json: #"{"name":"Matrix region"}"#).json["id"] as? Int)
                let device = "alice-device-0001"
                #expect(try await client.call(.post, "/v1/me/devices", token: alice, json: #"{"token":"\#(device)","platform":"android"}"#).status == .created)
                #expect(try await client.send(.put, "/v1/me/photo", token: alice, bytes: TestImages.png()).status == .ok)
                let carolLogin = try await client.call(.post, "/v1/auth/login", json: Body.carolLogin)
                let carol = try #require(carolLogin.json["token"] as? String)
                let carolRefresh = try #require(carolLogin.json["refreshToken"] as? String)
                let aliceSecond = try await client.call(.post, "/v1/auth/login", json: Body.aliceLogin)
                let aliceSession = try #require(aliceSecond.json["sessionId"] as? Int)
                let aliceRefresh = try #require(aliceSecond.json["refreshToken"] as? String)
                var feeds: [(id: Int, secret: String)] = []
                for token in [alice, carol] {
                    let reply = try await client.call(.post, "/v1/me/calendar-feeds", token: token, json: Body.calendarFeed)
                    let path = try #require(reply.json["path"] as? String)
                    feeds.append((try #require(reply.json["id"] as? Int), String(path.dropFirst("/ical/".count).dropLast(".ics".count))))
                }
                let (aliceFeed, carolFeed) = (feeds[0], feeds[1])
                _ = try await h.fixture.services.accounts.deactivate(username: "carol")
                // Teams: alice in "Matrix" (approver max, whose substitute is sue), bob in "Elsewhere" (approver olga).
                var ids: [String: Int64] = [:]
                for name in ["max", "olga", "sue"] {
                    ids[name] = try await h.fixture.services.accounts.addEmployee(NewEmployee(
                        username: name, name: name.capitalized, surname: "Team", email: "\(name)@example.com", isAdmin: false,
                        passwordHash: hash)).id
                }
                let teams = h.fixture.services.teams
                let operatorOfHost = Actor(employeeID: nil, name: "matrix (sgadmin)", isAdmin: true)
                let matrix = try await teams.create(name: "Matrix", by: operatorOfHost)
                let elsewhere = try await teams.create(name: "Elsewhere", by: operatorOfHost)
                for (team, member, approver) in [(matrix, h.fixture.alice.id, ids["max"]!), (elsewhere, h.fixture.bob.id, ids["olga"]!)] {
                    _ = try await teams.addMember(teamID: team.id, employeeID: member, by: operatorOfHost)
                    _ = try await teams.addMember(teamID: team.id, employeeID: approver, by: operatorOfHost)
                    _ = try await teams.addApprover(teamID: team.id, employeeID: approver, by: operatorOfHost)
                }
                let max = try await client.login("max")
                #expect(try await client.call(
                    .put, "/v1/me/delegation", token: max, json: #"{"to":\#(ids["sue"]!),"from":"2026-01-01","until":"2026-12-31"}"#).status == .ok)
                let maxPending = try #require(try await client.create(max, Fixture.date("2026-04-13"), Fixture.date("2026-04-14")).json["id"] as? Int)

                let token: String? = switch caller {
                case .none: nil
                case .owner: alice
                case .other: try await client.login("bob")
                case .admin: admin
                case .gone: carol
                case .teamApprover: max
                case .otherApprover: try await client.login("olga")
                case .substitute: try await client.login("sue")
                }
                let placeholders: [(String, String)] = [
                    ("{pending}", String(pending)),
                    ("{approved}", String(approved)),
                    ("{alice}", String(h.fixture.alice.id)),
                    ("{personalNotice}", String(personalNotice)),
                    ("{companyNotice}", String(companyNotice)),
                    ("{device}", device),
                    ("{webhook}", String(webhook)),
                    ("{leaveType}", String(leaveType)),
                    ("{calendar}", String(calendar)),
                    ("{feedSecret}", aliceFeed.secret),
                    ("{goneFeedSecret}", carolFeed.secret),
                    ("{feed}", String(aliceFeed.id)),
                    ("{session}", String(aliceSession)),
                    ("{aliceRefresh}", aliceRefresh),
                    ("{carolRefresh}", carolRefresh),
                    ("{maxPending}", String(maxPending)),
                    ("{team}", String(matrix.id)),
                    ("{bob}", String(h.fixture.bob.id)),
                    ("{max}", String(ids["max"]!)),
                    ("{sue}", String(ids["sue"]!)),
                ]
                func filled(_ text: String) -> String {
                    placeholders.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
                }
                let path = filled(row.path)
                let reply = row.body == Body.photo
                    ? try await client.send(row.method, path, token: token, bytes: TestImages.png())
                    : try await client.call(row.method, path, token: token, json: row.body.map(filled))
                #expect(Int(reply.status.code) == row.expected[caller], "\(row.testDescription) as \(caller): \(String(decoding: reply.body, as: UTF8.self))")
                if reply.status.code >= 400 {
                    #expect(reply.isProblem, "\(row.testDescription) as \(caller)")
                }
            }
        }
    }

    @Test func everyRouteHasARow() async throws {
        let served = try await ContractTests.servedOperations()
        let covered = Set(Self.rows.map(\.route))
        #expect(served.subtracting(covered).sorted() == [], "routes without a row in the access matrix")
        #expect(covered.subtracting(served).sorted() == [], "rows for routes the router does not serve")
    }
}
