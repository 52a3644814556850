import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Runs the built `sgadmin` binary on one database, as an operator on the server host would.
struct AdminCLI {
    let databasePath: String

    func run(_ arguments: [String], stdin: String? = nil, environment extra: [String: String] = [:]) throws -> ProcessResult {
        try runProduct(
            "sgadmin", arguments, environment: ["SG_DATABASE": databasePath, "USER": "operator"].merging(extra) { _, given in given },
            stdin: stdin)
    }
}

@Suite(.serialized) struct SGAdminTests {
    @Test func decidesRequestsThroughTheSameRules() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let start = f.weekday(14)
        let request = try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor)

        let pending = try cli.run(["pending", "--format", "csv"])
        #expect(pending.status == 0)
        #expect(pending.stdout.contains("\(request.id),alice,Alice Example"))

        let approve = try cli.run(["approve", "\(request.id)", "--note", "ok"])
        #expect(approve.status == 0, "\(approve.stderr)")
        let twice = try cli.run(["approve", "\(request.id)"])
        #expect(twice.status == 1)
        #expect(twice.stderr.contains("is approved") && twice.stderr.contains("revert"))
        #expect(twice.stdout.isEmpty)
        let approved = try cli.run(["show", "\(request.id)"])
        #expect(approved.stdout.contains("Allowed moves: revert, cancel\n"), "\(approved.stdout)")

        #expect(try cli.run(["revert", "\(request.id)", "--as", "admin2"]).status == 0)
        #expect(try cli.run(["reject", "\(request.id)"]).status != 0)  // --reason is required
        let reject = try cli.run(["reject", "\(request.id)", "--reason", "Quarter end", "--as", "admin"])
        #expect(reject.status == 0)

        let detail = try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor)
        #expect(detail.request.status == .rejected)
        #expect(detail.events.map(\.actor) == ["alice", "operator (sgadmin)", "admin2", "admin"])

        let show = try cli.run(["show", "\(request.id)"])
        #expect(show.status == 0 && show.stdout.contains("Quarter end") && show.stdout.contains("Allowed moves: none (final)"))
        let missing = try cli.run(["show", "999"])
        #expect(missing.status == 1 && missing.stderr.contains("999"))

        // The moves show lists are those of who is acting: an admin cannot decide their own request.
        let own = try await f.service.createRequest(for: f.admin.id, start: f.weekday(21), end: f.weekday(21), comment: "", actor: f.admin.actor)
        let asOwner = try cli.run(["show", "\(own.id)", "--as", "admin"])
        #expect(asOwner.stdout.contains("Allowed moves: cancel\n"), "\(asOwner.stdout)")
        let asOperator = try cli.run(["show", "\(own.id)"])
        #expect(asOperator.stdout.contains("Allowed moves: approve, reject, cancel\n"), "\(asOperator.stdout)")
    }

    /// Comments are kept as employees sent them, escape sequences included; sgadmin shows them escaped, so that
    /// what an employee typed cannot act on the operator's terminal. Line breaks stay readable.
    @Test func showsWhatEmployeesTypedWithoutLettingItActOnTheTerminal() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let comment = "Beach\u{1B}]0;owned\u{7}\nweek \u{202E}reversed"
        let request = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: comment, actor: f.alice.actor)
        #expect(try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).request.comment == comment)

        let show = try cli.run(["show", "\(request.id)"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("Beach\\u{1b}]0;owned\\u{7}\nweek \\u{202e}reversed"), "\(show.stdout)")
        let table = try cli.run(["pending"])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Beach\\u{1b}]0;owned\\u{7} week \\u{202e}reversed"), "\(table.stdout)")
        for output in [show.stdout, table.stdout] {
            #expect(!output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\u{202E}" })
        }
        // Data formats keep the text exactly (JSON escapes what it must).
        let json = try cli.run(["pending", "--format", "json"])
        let rows = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(rows?.contains { ($0["comment"] as? String) == comment } == true, "\(json.stdout)")
    }

    /// A table's columns line up by characters, as a terminal shows them, not by bytes: names with accents too.
    @Test func linesUpTableColumnsByCharacters() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        _ = try await f.service.createRequest(for: f.bob.id, start: f.weekday(15), end: f.weekday(15), comment: "", actor: f.bob.actor)
        let table = try cli.run(["pending"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 3, "\(table.stdout)")
        // "José Núñez, "Pepe"" has more bytes than characters; the type column starts at the same character anyway.
        let type = lines[0].distance(from: lines[0].startIndex, to: lines[0].firstRange(of: "type")!.lowerBound)
        for line in lines.dropFirst() { #expect(line.dropFirst(type).hasPrefix("holiday "), "\(table.stdout)") }
    }

    @Test func refusesToActAsANonAdminOrOnTheirOwnRequest() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let own = try await f.service.createRequest(for: f.admin.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.admin.actor)
        let asAlice = try cli.run(["approve", "\(own.id)", "--as", "alice"])
        #expect(asAlice.status == 1 && asAlice.stderr.contains("not an active admin"))
        let asOwner = try cli.run(["approve", "\(own.id)", "--as", "admin"])
        #expect(asOwner.status == 1 && asOwner.stderr.contains("own request"))
        #expect(try await f.services.holidays.requestDetail(id: own.id, by: f.admin.actor).events.count == 1)
    }

    @Test func managesUsersAllowancesAndHolidays() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let year = f.day(0).year

        let add = try cli.run(
            ["user", "add", "maria", "--name", "María José", "--surname", "=Peña, \"la jefa\"", "--email", "maria@example.com", "--password-stdin"],
            stdin: "s3cret-enough\n")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(try cli.run(["user", "add", "nopass", "--name", "N", "--surname", "P", "--email", "n@example.com"]).status == 1)
        #expect(try cli.run(["user", "add", "short", "--name", "N", "--surname", "P", "--email", "n@example.com", "--password-stdin"], stdin: "abc\n").status == 1)
        let sessions = f.sessions()
        #expect(try await sessions.login(username: "maria", password: "s3cret-enough").employee.name == "María José")

        let list = try cli.run(["user", "list", "--format", "json"])
        let users = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(users.contains { $0["username"] as? String == "maria" && $0["surname"] as? String == "=Peña, \"la jefa\"" })
        // Yes and no are JSON's booleans.
        #expect(users.contains { $0["username"] as? String == "maria" && $0["admin"] as? Bool == false && $0["active"] as? Bool == true })

        #expect(try cli.run(["allowance", "set", "maria", "\(year)", "30"]).status == 0)
        let show = try cli.run(["allowance", "show", "maria", "--year", "\(year)", "--format", "csv"])
        #expect(show.stdout.contains("maria,\(year),30,0,0,0,,0,0,0,30"))
        #expect(try cli.run(["allowance", "set", "maria", "\(year)", "400"]).status == 1)
        #expect(try cli.run(["allowance", "set", "ghost", "\(year)", "10"]).status == 1)
        #expect(try cli.run(["allowance", "default", "25"]).status == 0)
        #expect(try await f.service.balance(employeeID: f.bob.id, year: year).allowance == .days(25))

        #expect(try cli.run(["holidays", "add", "\(year + 1)-12-25", "Christmas"]).status == 0)
        #expect(try cli.run(["holidays", "add", "\(year + 1)-12-25", "Again"]).status == 1)
        #expect(try cli.run(["holidays", "add", "\(year + 1)-02-30", "Nope"]).status == 1)
        #expect(try cli.run(["holidays", "list", "--year", "\(year + 1)", "--format", "csv"]).stdout.contains("\(year + 1)-12-25,Christmas"))
        let removed = try cli.run(["holidays", "remove", "\(year + 1)-12-25"])
        #expect(removed.status == 0 && removed.stdout.contains("(Christmas) is no longer a public holiday"))
        let again = try cli.run(["holidays", "remove", "\(year + 1)-12-25"])
        #expect(again.status == 1 && again.stderr.contains("is not a public holiday"))
        #expect(try cli.run(["holidays", "remove", "\(year + 1)-12-25", "--calendar", "nowhere"]).status == 1)
        #expect(!(try cli.run(["holidays", "list", "--year", "\(year + 1)", "--format", "csv"]).stdout.contains("Christmas")))

        let deactivate = try cli.run(["user", "deactivate", "maria"])
        #expect(deactivate.status == 0)
        await #expect(throws: SGError.self) { _ = try await sessions.login(username: "maria", password: "s3cret-enough") }
        #expect(try cli.run(["user", "deactivate", "maria"]).status == 1)
    }

    @Test func exportsHRsCSVSafely() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let when = f.weekday(14)
        let year = when.year
        _ = try await f.services.accounts.addEmployee(NewEmployee(
            username: "eve", name: "=HYPERLINK(\"http://x\")", surname: "Ñandú", email: "eve@example.com", isAdmin: false, passwordHash: nil))
        let eve = try #require(try await f.services.accounts.employee(username: "eve"))
        let request = try await f.service.createRequest(for: eve.id, start: when, end: when, comment: "", actor: eve.actor)
        try await f.service.perform(.approve, on: request.id, by: f.admin.actor)

        let export = try cli.run(["export", "--year", "\(year)"])
        #expect(export.status == 0)
        let lines = export.stdout.components(separatedBy: "\r\n")
        #expect(lines[0] == "username,full_name,email,request_id,leave_type,start,start_half,end,end_half,working_days,"
            + "working_days_in_year,draws_on_allowance,status,requested_at,decided_by,decided_at")
        let row = try #require(lines.first { $0.hasPrefix("eve,") })
        #expect(row.hasPrefix("eve,\"'=HYPERLINK(\"\"http://x\"\") Ñandú\",eve@example.com,\(request.id),holiday,\(when),morning,\(when),afternoon,1,1,yes,approved,"))
        #expect(row.contains(",approved,") && row.contains(",admin,"))
        // Half a day of sick leave: 0.5 in both day columns, and it does not draw on the allowance.
        let sickDay = f.weekday(21)
        let sick = try await f.service.createRequest(
            for: eve.id, period: try LeavePeriod(start: sickDay, end: sickDay, startHalf: .afternoon, endHalf: .afternoon),
            leaveTypeID: LeaveType.sickID, comment: "", actor: eve.actor)
        let withSick = try cli.run(["export", "--year", "\(year)"]).stdout.components(separatedBy: "\r\n")
        #expect(withSick.contains { $0.contains(",\(sick.id),sick,\(sickDay),afternoon,\(sickDay),afternoon,0.5,0.5,no,approved,") })

        let output = path.path + ".csv"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let balances = try cli.run(["export", "--year", "\(year)", "--balances", "--output", output])
        #expect(balances.status == 0 && balances.stdout.hasPrefix("Wrote ") && balances.stdout.hasSuffix("balances of \(year) to \(output).\n"), "\(balances.stdout)")
        let file = try String(contentsOfFile: output, encoding: .utf8)
        // Days carried into the year, if the test runs when `when` falls in the year after the fixture's first.
        let bob = try await f.service.balance(employeeID: f.bob.id, year: year)
        #expect(file.contains("bob,\"José Núñez, \"\"Pepe\"\"\",bob@example.com,yes,\(year),23,\(bob.carriedOver),\(bob.expired),\(bob.expiring),0,0,0,23"))
        #expect(try cli.run(["export", "--year", "99999"]).status != 0)
        let unwritable = try cli.run(["export", "--year", "\(year)", "--output", "/nonexistent/dir/x.csv"])
        #expect(unwritable.status == 1)
        // The reason, not "The operation could not be completed": the error was wrapped in a second one.
        #expect(unwritable.stderr.contains("Could not create /nonexistent/dir/x.csv.partial-") && unwritable.stderr.contains("No such file"), "\(unwritable.stderr)")
    }

    @Test func managesLeaveTypesAndShowsTypesAndHalves() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let list = try cli.run(["leave-type", "list", "--format", "csv"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("2,sick,no,no,yes,,no\r\n"), "\(list.stdout)")
        let add = try cli.run(["leave-type", "add", "training", "--yearly-cap", "2.5"])
        #expect(add.status == 0 && add.stdout.contains("Leave type 4 'training' added."), "\(add.stderr)")
        for bad in [["leave-type", "add", "Training"], ["leave-type", "add", "x", "--yearly-cap", "0.3"],
                    ["leave-type", "retire", "1"], ["leave-type", "delete", "99"], ["leave-type", "change", "4", "--yearly-cap", "-1"]] {
            let refused = try cli.run(bad)
            #expect(refused.status != 0 && !refused.stderr.isEmpty && refused.stdout.isEmpty, "\(bad)")
        }
        #expect(try await f.services.leaveTypes.list().count == 4)

        let day = f.weekday(14)
        let morning = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: day, end: day, startHalf: .morning, endHalf: .morning), leaveTypeID: 4,
            comment: "", actor: f.alice.actor)
        let pending = try cli.run(["pending", "--format", "csv"])
        #expect(pending.stdout.contains("\(morning.id),alice,Alice Example,training,\(day),morning,\(day),morning,0.5,pending,"), "\(pending.stdout)")
        let show = try cli.run(["show", "\(morning.id)"])
        #expect(show.stdout.contains("Type:          training\n") && show.stdout.contains("Dates:         \(day) (morning)\n"))
        #expect(show.stdout.contains("Working days:  0.5\n"), "\(show.stdout)")
        #expect(try cli.run(["leave-type", "delete", "4"]).status == 1)
        let retire = try cli.run(["leave-type", "retire", "4"])
        #expect(retire.status == 0 && retire.stdout.contains("retired"))
        #expect(try await f.services.leaveTypes.leaveType(id: 4).isRetired)
        #expect(try cli.run(["leave-type", "retire", "4", "--undo"]).status == 0)
        #expect(try await !f.services.leaveTypes.leaveType(id: 4).isRetired)
    }

    @Test func keepsRegionalHolidayCalendars() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let add = try cli.run(["holidays", "calendar", "add", "Munich office"])
        #expect(add.status == 0 && add.stdout == "Holiday calendar 2 (Munich office) added.\n", "\(add.stdout)\(add.stderr)")
        let day = f.weekday(14)
        let local = try cli.run(["holidays", "add", "\(day)", "Local feast", "--calendar", "munich office"])
        #expect(local.status == 0 && local.stdout.contains("public holiday in Munich office"), "\(local.stderr)")
        let move = try cli.run(["user", "holiday-calendar", "bob", "2"])
        #expect(move.status == 0 && move.stdout == "bob now belongs to holiday calendar 2 (Munich office).\n", "\(move.stderr)")
        #expect(try cli.run(["user", "holiday-calendar", "bob"]).stdout == "bob belongs to holiday calendar 2 (Munich office).\n")
        let list = try cli.run(["holidays", "calendar", "list", "--format", "csv"])
        #expect(list.stdout == "id,name,employees\r\n1,default,3\r\n2,Munich office,1\r\n", "\(list.stdout)")
        #expect(try cli.run(["holidays", "list", "--calendar", "2", "--format", "csv"]).stdout.contains("\(day),Local feast"))
        #expect(try !cli.run(["holidays", "list", "--format", "csv"]).stdout.contains("Local feast"))
        // Bob's day off is a holiday in his calendar; alice's is a working day.
        let bobs = try await f.service.createRequest(for: f.bob.id, start: day, end: day.adding(days: 1)!, comment: "", actor: f.bob.actor)
        let alices = try await f.service.createRequest(for: f.alice.id, start: day, end: day.adding(days: 1)!, comment: "", actor: f.alice.actor)
        #expect(bobs.duration == .days(1) && alices.duration == .days(2))
        for bad in [["holidays", "calendar", "add", "munich OFFICE"], ["holidays", "calendar", "add", "42"],
                    ["holidays", "calendar", "remove", "2"], ["holidays", "calendar", "remove", "default"],
                    ["holidays", "calendar", "rename", "nowhere", "X"], ["user", "holiday-calendar", "bob", "nowhere"],
                    ["holidays", "add", "\(day)", "Again", "--calendar", "2"], ["holidays", "list", "--calendar", "9"]] {
            let refused = try cli.run(bad)
            #expect(refused.status != 0 && !refused.stderr.isEmpty && refused.stdout.isEmpty, "\(bad): \(refused.stdout)")
        }
        #expect(try cli.run(["holidays", "calendar", "rename", "2", "Bavaria"]).stdout == "Holiday calendar 2 is now Bavaria.\n")
        #expect(try cli.run(["user", "holiday-calendar", "bob", "default"]).status == 0)
        let remove = try cli.run(["holidays", "calendar", "remove", "Bavaria"])
        #expect(remove.status == 0 && remove.stdout == "Holiday calendar 2 (Bavaria) removed.\n", "\(remove.stderr)")
        #expect(try await f.services.company.holidayCalendars().map(\.id) == [1])
    }

    @Test func adjustsAllowancesAndShowsTheirHistory() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let year = f.today.year
        let add = try cli.run(["allowance", "adjust", "alice", "\(year)", "+2.5", "--reason", "Overtime"])
        #expect(add.status == 0 && add.stdout.contains("adjusted 2.5") && add.stdout.contains("remaining 25.5"), "\(add.stdout)\(add.stderr)")
        // A negative number as an HR person types it, before the options.
        let remove = try cli.run(["allowance", "adjust", "alice", "\(year)", "-1", "--reason", "Correction"])
        #expect(remove.status == 0 && remove.stdout.contains("adjusted 1.5"), "\(remove.stdout)\(remove.stderr)")
        for bad in [["allowance", "adjust", "alice", "\(year)", "0.3", "--reason", "x"],
                    ["allowance", "adjust", "alice", "\(year)", "1"],
                    ["allowance", "adjust", "alice", "\(year)", "1", "--reason", " "],
                    ["allowance", "adjust", "alice", "\(year)", "-30", "--reason", "x"],
                    ["allowance", "adjust", "alice", "\(year)", "1", "2", "--reason", "x"],
                    ["allowance", "adjust", "alice", "\(year)", "-1x", "--reason", "x"],
                    ["allowance", "adjust", "nobody", "\(year)", "1", "--reason", "x"]] {
            let refused = try cli.run(bad)
            #expect(refused.status != 0 && !refused.stderr.isEmpty && refused.stdout.isEmpty, "\(bad)")
        }
        let log = try cli.run(["allowance", "log", "alice", "--format", "csv"])
        #expect(log.status == 0)
        let lines = log.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.count == 3 && lines[0] == "id,year,kind,days,reason,by,at")
        #expect(lines[1].hasPrefix("1,\(year),adjust,2.5,Overtime,operator (sgadmin),") && lines[2].hasPrefix("2,\(year),adjust,-1,Correction,"))
        #expect(try await f.service.balance(employeeID: f.alice.id, year: year).adjusted == HalfDays(halves: 3))

        // Carry-over: the company's rule, and the next year's balance.
        let set = try cli.run(["company", "set", "--carry-over-cap", "2.5", "--carry-over-expiry", "04-30"])
        #expect(set.status == 0 && set.stdout.contains("carry-over up to 2.5 days until 04-30"), "\(set.stdout)\(set.stderr)")
        let show = try cli.run(["allowance", "show", "alice", "--year", "\(year + 1)", "--format", "csv"])
        #expect(show.stdout.contains("alice,\(year + 1),23,2.5,0,2.5,\(year + 1)-04-30,0,0,0,23"), "\(show.stdout)")
        #expect(try cli.run(["company", "set", "--carry-over-expiry", "02-29"]).status == 1)
        #expect(try cli.run(["company", "set", "--carry-over-cap", "x"]).status == 1)

        // A part-time week from a day on, and back to the company's.
        let from = f.weekday(30)
        let partTime = try cli.run(["user", "working-week", "alice", "1234", "--from", "\(from)"])
        #expect(partTime.status == 0 && partTime.stdout.contains("alice works Mon,Tue,Wed,Thu from \(from)."), "\(partTime.stderr)")
        #expect(try cli.run(["user", "working-week", "alice", "company", "--from", "\(from.adding(days: 30)!)"]).status == 0)
        for bad in [["user", "working-week", "alice", "1238", "--from", "\(from)"], ["user", "working-week", "alice", "1234", "--from", "2000-01-03"],
                    ["user", "working-week", "alice", "1234", "--from", "tomorrow"]] {
            let refused = try cli.run(bad)
            #expect(refused.status != 0 && !refused.stderr.isEmpty, "\(bad)")
        }
        let weeks = try cli.run(["user", "working-weeks", "alice", "--format", "csv"]).stdout.components(separatedBy: "\r\n")
        #expect(weeks.count == 4 && weeks[1].hasPrefix("\(from),1234,operator (sgadmin),") && weeks[2].contains(",company (12345),"))
    }

    @Test func refusesAMissingOrNewerDatabase() throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let cli = AdminCLI(databasePath: path.path)
        let missing = try cli.run(["pending"])
        #expect(missing.status == 1 && missing.stderr.contains("No database"))
        #expect(!FileManager.default.fileExists(atPath: path.path))
        let migrate = try cli.run(["migrate"])
        #expect(migrate.status == 0 && migrate.stdout.contains("0001_initial"))
        #expect(try cli.run(["pending", "--database", path.path]).status == 0)
        // --database wins over SG_DATABASE.
        #expect(try AdminCLI(databasePath: "/nonexistent/sgemployee.sqlite").run(["pending", "--database", path.path]).status == 0)
    }

    /// The API and sgadmin write to the same file at once; every check still holds.
    @Test func worksWhileTheAPIWrites() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let services = Services(database: f.database, clock: f.clock, directory: f.localAccounts)
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)

        // Weekdays from two weeks ahead, one-day requests for alice through the API.
        var days: [CalendarDate] = []
        var day = f.day(14)
        while days.count < 40 {
            if day.isoWeekday <= 5 { days.append(day) }
            day = day.adding(days: 1)!
        }
        let dates = days
        try await app.test(.router) { client in
            let login = try await client.execute(
                uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"username":"alice","password":"\#(Fixture.password)"}"#))
            let token = try #require(try JSONSerialization.jsonObject(with: Data(login.body.readableBytesView)) as? [String: Any])["token"] as! String
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for date in dates {
                        _ = try await client.execute(
                            uri: "/v1/me/holidays", method: .post,
                            headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                            body: ByteBuffer(string: #"{"startDate":"\#(date)","endDate":"\#(date)"}"#))
                    }
                }
                group.addTask {
                    // Meanwhile the operator approves whatever is pending and lowers nothing below what is held.
                    for _ in 0..<8 {
                        let pending = try cli.run(["pending", "--format", "json"])
                        #expect(pending.status == 0, "\(pending.stderr)")
                        let rows = (try? JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]]) ?? []
                        for row in rows.prefix(2) {
                            let result = try cli.run(["approve", "\(row["id"] as! Int)"])
                            #expect(result.status == 0 || result.stderr.contains("is approved"), "\(result.stderr)")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let balance = try await f.service.balance(employeeID: f.alice.id, year: days[0].year)
        let nextYear = try await f.service.balance(employeeID: f.alice.id, year: days[0].year + 1)
        #expect(balance.remaining >= .zero && nextYear.remaining >= .zero)
        #expect(balance.approved + nextYear.approved > .zero)
        let total = try await f.services.holidays.requests(RequestFilter(employeeID: f.alice.id, limit: 200), by: f.admin.actor).items
        // In each year every request is in until the balance ran out (23 days, and what the year before carries over
        // when the days cross New Year), and none beyond it.
        for (year, asked) in Dictionary(grouping: dates, by: \.year) {
            let made = total.filter { $0.request.startDate.year == year }.count
            let left = try await f.service.balance(employeeID: f.alice.id, year: year).remaining
            #expect(made == asked.count || (made < asked.count && left < .days(1)), "\(year): \(made) of \(asked.count) made, \(left) left")
            #expect(left >= .zero)
        }
        let history = try await f.count("holiday_events")
        #expect(history == total.count + total.filter { $0.request.status == .approved }.count)
    }
}

/// What an operator trips over first: how a mistyped command is answered, where the database option goes, who
/// `--as` names, files that already exist, and saying what was written.
@Suite(.serialized) struct CommandLineTests {
    @Test func aMistypedCommandLineGetsOneLineAndWhereToReadMore() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        _ = try await Fixture.make(path: path.path)
        let cli = AdminCLI(databasePath: path.path)
        for (arguments, topic) in [(["approv", "1"], "sgadmin --help"), (["user", "list", "--colour"], "sgadmin user list --help"),
                                   (["approve"], "sgadmin approve --help")] {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.hasPrefix("sgadmin: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("See '\(topic)'."), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Error:") && !result.stderr.contains("USAGE:"), "\(arguments): \(result.stderr)")
        }
        let help = try cli.run(["--help"])
        #expect(help.status == 0 && help.stdout.contains("SUBCOMMANDS"))
    }

    @Test func theDatabaseOptionWorksBeforeTheCommand() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        // SG_DATABASE names nothing: only the option can find the requests.
        let elsewhere = AdminCLI(databasePath: "/nonexistent/sg.sqlite")
        for arguments in [["--database", path.path, "pending"], ["--database=\(path.path)", "pending"], ["pending", "--database", path.path],
                          ["--as", "admin", "--database", path.path, "pending", "--format", "csv"]] {
            let result = try elsewhere.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout.contains("alice"), "\(arguments)")
        }
    }

    @Test func asNamesAnAdminAndAMistypedOneIsRefused() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let request = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        let mistyped = try cli.run(["approve", "\(request.id)", "--as", "admn"])
        #expect(mistyped.status == 1)
        #expect(mistyped.stderr.hasPrefix("sgadmin: No employee has the username 'admn'"), "\(mistyped.stderr)")
        #expect(try await f.service.requestDetail(id: request.id, by: f.admin.actor).request.status == .pending)
        // Without --as, the operator of the host acts under their OS user name.
        #expect(try cli.run(["approve", "\(request.id)"]).status == 0)
        let detail = try await f.service.requestDetail(id: request.id, by: f.admin.actor)
        #expect(detail.events.last?.actor == "operator (sgadmin)")
    }

    @Test func aBackupKeepsAnExistingFileAndAnExportSaysWhatItWrote() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let backup = folder.appendingPathComponent("backup.sqlite").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: backup))
        let refused = try cli.run(["backup", backup])
        #expect(refused.status == 1 && refused.stderr.contains("exists") && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: backup, encoding: .utf8) == "keep me")
        let forced = try cli.run(["backup", backup, "--force"])
        #expect(forced.status == 0 && forced.stdout.contains("replacing the file there"), "\(forced.stderr)")

        let year = f.weekday(14).year
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        let csv = folder.appendingPathComponent("requests.csv").path
        let export = try cli.run(["export", "--year", "\(year)", "--output", csv])
        #expect(export.status == 0)
        #expect(export.stdout == "Wrote 1 request of \(year) to \(csv).\n")
        #expect(try String(contentsOfFile: csv, encoding: .utf8).components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 2)
        let balances = try cli.run(["export", "--year", "\(year)", "--balances", "--output", csv])
        #expect(balances.stdout == "Wrote 4 employees' balances of \(year) to \(csv).\n", "\(balances.stdout)")
    }
}
