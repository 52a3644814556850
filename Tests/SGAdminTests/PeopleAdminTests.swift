import Foundation
import Testing
import SGCore
import SGStore
import SGTestSupport

@Suite(.serialized) struct PeopleAdminTests {
    @Test func postsListsAndDeletesNotices() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let tomorrow = f.day(1)

        let post = try cli.run(["notice", "post", "--title", "Fire drill", "--body", "At 11:00, =all= floors", "--pinned", "--expires", "\(tomorrow)"])
        #expect(post.status == 0, "\(post.stderr)")
        #expect(post.stdout.contains("Posted notice 1 (pinned), shown through \(tomorrow)."))
        let fromStdin = try cli.run(["notice", "post", "--title", "Canteen", "--body-stdin", "--as", "admin2"], stdin: "Closed on Friday.\nSorry!\n")
        #expect(fromStdin.status == 0, "\(fromStdin.stderr)")

        // The API's board shows what the operator posted, with the same rules.
        let board = try await f.services.notices.board(for: f.alice.actor)
        #expect(board.items.map(\.title) == ["Fire drill", "Canteen"])
        #expect(board.items[0].author == "operator (sgadmin)" && board.items[1].author == "admin2")
        #expect(board.items[1].body == "Closed on Friday.\nSorry!")

        let list = try cli.run(["notice", "list", "--format", "csv"])
        #expect(list.status == 0)
        #expect(list.stdout.hasPrefix("id,title,pinned,expires_on,expired,author,created_at,body\r\n1,Fire drill,yes,\(tomorrow),no,operator (sgadmin),"))
        #expect(list.stdout.contains("'=all= floors") == false && list.stdout.contains("\"At 11:00, =all= floors\""))

        for arguments in [
            ["notice", "post", "--title", "", "--body", "x"],
            ["notice", "post", "--title", "Late", "--body", "x", "--expires", "\(f.day(-1))"],
            ["notice", "post", "--title", "Bad", "--body", "x", "--expires", "tomorrow"],
            ["notice", "post", "--title", "None"],
            ["notice", "post", "--title", "Both", "--body", "x", "--body-stdin"],
            ["notice", "post", "--title", "As alice", "--body", "x", "--as", "alice"],
        ] {
            let result = try cli.run(arguments, stdin: "text")
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("sgadmin: "), "\(arguments)")
        }
        #expect(try await f.count("notices") == 2)

        #expect(try cli.run(["notice", "delete", "1"]).stdout == "Deleted notice 1.\n")
        let again = try cli.run(["notice", "delete", "1"])
        #expect(again.status == 1 && again.stderr.contains("Company notice 1 does not exist"))
        let json = try cli.run(["notice", "list", "--all", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["Canteen"])
    }

    @Test func personalNoticesCannotBeDeletedFromTheHost() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let request = try await f.service.createRequest(for: f.alice.id, start: f.weekday(14), end: f.weekday(14), comment: "", actor: f.alice.actor)
        #expect(try cli.run(["approve", "\(request.id)"]).status == 0)
        let board = try await f.services.notices.board(for: f.alice.actor)
        #expect(board.items.first?.author == "operator (sgadmin)" && board.items.first?.transition?.to == .approved)
        #expect(try cli.run(["notice", "list"]).stdout.split(separator: "\n").count == 1)  // the header: company notices only
        #expect(try cli.run(["notice", "delete", "\(board.items[0].id)"]).status == 1)
    }

    @Test func showsAndChangesTheCompanyAllOrNothing() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let start = f.weekday(14)
        _ = try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor)

        let set = try cli.run([
            "company", "set", "--name", "Acme S.L.", "--address", "Calle Mayor 1, Madrid", "--phone", "+34 910 000 000",
            "--email", "hello@acme.example", "--website", "https://acme.example", "--working-week", "1234",
            "--default-allowance", "25", "--time-zone", "Europe/Madrid",
        ])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "Company updated: Acme S.L., working week Mon,Tue,Wed,Thu, default allowance 25, time zone Europe/Madrid, "
            + "carry-over up to 5 days until 03-31, pro rata off.\n")
        let show = try cli.run(["company", "show", "--format", "csv"])
        // A leading '+' gets a quote mark in CSV, as in every export, so a spreadsheet does not read a formula.
        #expect(show.stdout == "name,address,phone,email,website,working_week,default_allowance,time_zone,carry_over_cap,carry_over_expiry,"
                + "pro_rata,pro_rata_rounding,seniority,seniority_from,accrual,feeds\r\n"
                + "Acme S.L.,\"Calle Mayor 1, Madrid\",'+34 910 000 000,hello@acme.example,https://acme.example,1234,25,Europe/Madrid,5,03-31,"
                + "off,nearest,,year,year,\r\n")

        // One bad option: nothing changes, and the message names it.
        for (arguments, says) in [
            (["--name", "Other", "--website", "acme"], "website"),
            (["--name", "Other", "--default-allowance", "0"], "would be left with fewer days than they hold"),
            (["--name", "Other", "--working-week", "89"], "--working-week"),
            (["--name", "Other", "--time-zone", "Nowhere/Land"], "timeZone"),
            (["--name", "Other", "--pro-rata", "monthly"], "proRata"),
            (["--name", "Other", "--pro-rata-rounding", "half"], "proRataRounding"),
            (["--name", "Other", "--accrual", "month"], "--accrual"),
            (["--name", "Other", "--accrual", "month:start:0"], "--accrual"),
            ([], "nothing to change"),
            (["--name", "Other", "--as", "bob"], "not an active admin"),
            (["--name", "Other", "--feed", "ftp://acme.example/feed.rss"], "--feed"),
            (["--name", "Other", "--feed", "https://acme.example/a.rss", "--feed", "https://acme.example/a.rss"], "given twice"),
            (["--name", "Other", "--feed", "https://acme.example/a.rss", "--no-feeds"], "not both"),
        ] {
            let result = try cli.run(["company", "set"] + arguments)
            #expect(result.status == 1 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
        let company = try await f.services.company.company()
        #expect(company.settings.name == "Acme S.L." && company.settings.defaultAllowance == 25 && company.contact.website == "https://acme.example")

        // Feeds: the list given replaces them, in order; --no-feeds removes them.
        let feeds = try cli.run(["company", "set", "--feed", "https://blog.acme.example/feed.xml", "--feed", "https://social.example/@acme.rss"])
        #expect(feeds.status == 0 && feeds.stdout.hasSuffix(", 2 news feeds.\n"), "\(feeds.stderr)")
        #expect(try await f.services.company.company().feeds == ["https://blog.acme.example/feed.xml", "https://social.example/@acme.rss"])
        #expect(try cli.run(["company", "show", "--format", "csv"]).stdout.hasSuffix(
            ",https://blog.acme.example/feed.xml https://social.example/@acme.rss\r\n"))
        #expect(try cli.run(["company", "set", "--no-feeds"]).status == 0)
        #expect(try await f.services.company.company().feeds == [])

        // An empty value clears an optional detail.
        #expect(try cli.run(["company", "set", "--website", ""]).status == 0)
        #expect(try await f.services.company.company().contact.website == nil)
    }

    /// Pro rata from the command line: the company's rule, an end date, and the formula wherever the balance shows.
    @Test func proRataShowsInTheBalanceAndHRsReport() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)
        let year = f.today.year + 1
        let set = try cli.run(["company", "set", "--pro-rata", "whole-months", "--pro-rata-rounding", "down"])
        #expect(set.status == 0 && set.stdout.hasSuffix("pro rata whole-months rounded down.\n"), "\(set.stdout)\(set.stderr)")
        #expect(try cli.run(["user", "set", "bob", "--end-date", "\(year)-03-15"]).status == 0)
        let show = try cli.run(["allowance", "show", "bob", "--year", "\(year)", "--format", "csv"])
        #expect(show.stdout.contains(",23 × 2/12 = 3.83 → 3.5,,,3.5\r\n"), "\(show.stdout)")
        #expect(show.stdout.contains("bob,\(year),3.5,"), "\(show.stdout)")
        let report = try cli.run(["export", "--year", "\(year)", "--balances"])
        #expect(report.stdout.contains("\r\nbob,") && report.stdout.contains(",23 × 2/12 = 3.83 → 3.5,,3.5\r\n"), "\(report.stdout)")
        let refused = try cli.run(["company", "set", "--pro-rata", "weekly"])
        #expect(refused.status == 1 && refused.stderr.contains("proRata"))

        // Seniority: bob, employed since 1 January of ten years before, gets +2 on top, pro-rated with the rest.
        #expect(try cli.run(["user", "set", "bob", "--start-date", "\(year - 10)-01-01"]).status == 0)
        let tiers = try cli.run(["company", "set", "--seniority", "5:1,10:2"])
        #expect(tiers.status == 0 && tiers.stdout.hasSuffix(", seniority 5:1,10:2 from the year.\n"), "\(tiers.stdout)\(tiers.stderr)")
        let senior = try cli.run(["allowance", "show", "bob", "--year", "\(year)", "--format", "csv"])
        #expect(senior.stdout.contains(",(23 + 2) × 2/12 = 4.17 → 4,,,4\r\n"), "\(senior.stdout)")
        for bad in [["--seniority", "5:1,5:2"], ["--seniority", "five:1"], ["--seniority-from", "birthday"]] {
            let result = try cli.run(["company", "set"] + bad)
            #expect(result.status == 1 && !result.stderr.isEmpty, "\(bad)")
        }
        #expect(try cli.run(["company", "set", "--seniority", ""]).stdout.hasSuffix("pro rata whole-months rounded down.\n"))

        // A joiner added with a start date: September to December of the year, in whole months.
        let added = try cli.run(
            ["user", "add", "maria", "--name", "María", "--surname", "Peña", "--email", "maria@example.com", "--start-date", "\(year)-09-01",
             "--password-stdin"], stdin: "a-long-password-for-maria\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(try cli.run(["allowance", "show", "maria", "--year", "\(year)", "--format", "csv"]).stdout.contains(",23 × 4/12 = 7.67 → 7.5,,,7.5\r\n"))
        let backwards = try cli.run(
            ["user", "add", "pedro", "--name", "P", "--surname", "S", "--email", "p@example.com", "--start-date", "\(year)-09-01",
             "--end-date", "\(year)-08-31", "--password-stdin"], stdin: "a-long-password-for-pedro\n")
        #expect(backwards.status == 1 && backwards.stderr.contains("employmentEnd"), "\(backwards.stderr)")

        // Accrual: maria earns her 7.5 days over her four months, a share at the end of each; none may be taken
        // ahead, so none is requestable before the end of September. Her own plan wins over the company's.
        let monthly = try cli.run(["company", "set", "--accrual", "month:end:none"])
        #expect(monthly.status == 0 && monthly.stdout.hasSuffix(", accrual month:end:none.\n"), "\(monthly.stdout)\(monthly.stderr)")
        #expect(try cli.run(["company", "show", "--format", "csv"]).stdout.contains(",month:end:none,"))
        #expect(try cli.run(["allowance", "show", "maria", "--year", "\(year)", "--format", "csv"]).stdout.contains(
            ",23 × 4/12 = 7.67 → 7.5,month:end:none,0,0\r\n"))
        let own = try cli.run(["user", "set", "maria", "--accrual", "month:end:year"])
        #expect(own.status == 0 && own.stdout.hasSuffix(", own accrual plan month:end:year.\n"), "\(own.stdout)\(own.stderr)")
        #expect(try cli.run(["allowance", "show", "maria", "--year", "\(year)", "--format", "csv"]).stdout.contains(
            ",23 × 4/12 = 7.67 → 7.5,month:end:year,0,7.5\r\n"))
        let balances = try cli.run(["export", "--year", "\(year)", "--balances"])
        #expect(balances.stdout.contains(",23 × 4/12 = 7.67 → 7.5,0,7.5\r\n") && balances.stdout.contains(",allowance_formula,earned,requestable\r\n"),
                "\(balances.stdout)")
        for bad in ["month:start", "weekly", "month:start:367"] {
            let refused = try cli.run(["user", "set", "maria", "--position", "Buyer", "--accrual", bad])
            #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderr.contains("--accrual"), "\(bad): \(refused.stderr)")
        }
        #expect(try await f.services.people.profile(employeeID: f.services.accounts.employee(username: "maria")!.id).position == nil)
        #expect(try cli.run(["user", "set", "maria", "--accrual", ""]).stdout.hasSuffix("employed from \(year)-09-01.\n"))
    }

    /// `sgadmin user set`, `admin`, `deactivate`, `reactivate`: the rules of `PATCH /v1/employees/{id}`.
    @Test func changesEmployeesRolesAndActivity() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path, today: CalendarDate(Date(), in: .gmt))
        let cli = AdminCLI(databasePath: path.path)

        let set = try cli.run(["user", "set", "alice", "--position", "Head of sales", "--email", "alicia@example.com", "--phone", "+34 600 111 222"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "Updated alice: Alice Example <alicia@example.com>, position Head of sales, phone +34 600 111 222, employed without dates.\n")
        #expect(try cli.run(["user", "set", "alice", "--phone", ""]).stdout.hasSuffix("phone none, employed without dates.\n"))
        // Employment dates, an empty value clearing one; a bad date is refused and changes nothing.
        let employed = try cli.run(["user", "set", "alice", "--start-date", "2020-01-06", "--end-date", "2099-12-31"])
        #expect(employed.status == 0 && employed.stdout.hasSuffix("employed from 2020-01-06 to 2099-12-31.\n"), "\(employed.stderr)")
        for bad in [["--start-date", "6 January 2020"], ["--end-date", "2019-12-31"], ["--start-date", "2020-02-30"]] {
            let refused = try cli.run(["user", "set", "alice", "--phone", "+34 1"] + bad)
            #expect(refused.status == 1 && refused.stdout.isEmpty && !refused.stderr.isEmpty, "\(bad)")
        }
        #expect(try cli.run(["user", "set", "alice", "--end-date", ""]).stdout.hasSuffix("phone none, employed from 2020-01-06.\n"))
        #expect(try await f.services.people.profile(employeeID: f.alice.id).employment == Employment(start: CalendarDate(iso: "2020-01-06")))
        let profile = try await f.services.people.profile(employeeID: f.alice.id)
        #expect(profile.position == "Head of sales" && profile.phone == nil && profile.employee.email == "alicia@example.com")

        #expect(try cli.run(["user", "admin", "alice", "--grant"]).stdout == "alice is now an admin.\n")
        #expect(try await f.services.accounts.employee(id: f.alice.id)?.isAdmin == true)
        for user in ["admin", "admin2"] {
            #expect(try cli.run(["user", "admin", user, "--revoke"]).status == 0)
        }
        // alice is the last active admin now.
        for arguments in [["user", "admin", "alice", "--revoke"], ["user", "deactivate", "alice"]] {
            let refused = try cli.run(arguments)
            #expect(refused.status == 1 && refused.stderr.contains("alice is the last active admin"), "\(arguments): \(refused.stderr)")
        }
        // As herself, alice may not step down at all.
        let asAlice = try cli.run(["user", "admin", "alice", "--revoke", "--as", "alice"])
        #expect(asAlice.status == 1 && asAlice.stderr.contains("You cannot deactivate yourself or give up your own admin role"))
        #expect(try await f.services.accounts.employee(id: f.alice.id)?.isAdmin == true)

        for arguments in [
            ["user", "set", "alice"], ["user", "set", "alice", "--email", "nope"], ["user", "set", "alice", "--name", ""],
            ["user", "admin", "alice"], ["user", "admin", "alice", "--grant", "--revoke"], ["user", "set", "ghost", "--position", "x"],
            ["user", "admin", "bob", "--grant", "--as", "bob"], ["user", "reactivate", "bob"],
        ] {
            let result = try cli.run(arguments)
            #expect(result.status != 0, "\(arguments)")
        }

        #expect(try cli.run(["user", "deactivate", "bob"]).status == 0)
        #expect(try await f.services.accounts.employee(id: f.bob.id)?.isActive == false)
        let back = try cli.run(["user", "reactivate", "bob"])
        #expect(back.stdout == "Reactivated bob; they can log in again.\n", "\(back.stderr)")
        #expect(try await f.sessions().login(username: "bob", password: Fixture.password).employee.id == f.bob.id)

        // While logins go to the directory, no local account is added.
        let ldap = try cli.run(
            ["user", "add", "maria", "--name", "M", "--surname", "P", "--email", "m@example.com", "--password-stdin"],
            stdin: "a-long-password\n",
            environment: ["SG_DIRECTORY": "ldap", "SG_LDAP_URL": "ldap://127.0.0.1:1", "SG_LDAP_BASE_DN": "dc=example,dc=com"])
        #expect(ldap.status == 1 && ldap.stderr.contains("company directory (ldap)"), "\(ldap.stderr)")
        #expect(try await f.services.accounts.employee(username: "maria") == nil)
    }
}
