import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import SGAPI
import SGCore
import SGDelivery
import SGStore
import SGTestSupport

/// The company's news feeds: the addresses in the company settings, and the copies the refresher fetches with
/// libcurl from feeds served by scripts/delivery/feed_server.py (good ones, and ones that hang, fail, flood or
/// send garbage), as `GET /v1/company/feed` serves them.
@Suite struct CompanyFeedAPITests {
    static let rss = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Acme blog</title>
          <item><title>Summer party</title><link>https://blog.example.com/party</link>
            <pubDate>Sun, 01 Mar 2026 18:00:00 +0000</pubDate>
            <description><![CDATA[<p>Join us <b>Friday</b>&nbsp;at 6.</p><script>steal()</script>]]></description></item>
          <item><title>Old news</title><link>javascript:alert(1)</link>
            <pubDate>Mon, 02 Feb 2026 09:00:00 +0000</pubDate><description>Long ago</description></item>
        </channel></rss>
        """
    static let atom = """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Acme on Mastodon</title>
          <entry><title>New office</title><link rel="alternate" href="https://social.example/@acme/2"/>
            <updated>2026-03-02T08:00:00Z</updated><summary>We moved &amp; grew.</summary></entry>
        </feed>
        """

    static func put(_ client: APIHarness.Client, _ token: String, feeds: [String]) async throws -> APIHarness.Client.Reply {
        let body: [String: Any] = [
            "name": "Acme", "workingWeek": [1, 2, 3, 4, 5], "defaultAllowance": 23, "feeds": feeds,
        ]
        return try await client.call(
            .put, "/v1/company", token: token, json: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
    }

    /// The refresher as sgserver runs it, with the time-out short so the hanging feed costs a second.
    static func refresher(
        _ h: APIHarness, timeout: TimeInterval = 1, maximumBytes: Int = 2 * 1024 * 1024, destinations: DestinationPolicy = .testServers
    ) -> CompanyFeedRefresher {
        var logger = Logger(label: "sgapi.tests.feeds")
        logger.logLevel = .critical
        return CompanyFeedRefresher(
            feeds: h.services.feeds,
            fetcher: FeedFetcher(configuration: FeedFetchConfiguration(
                connectTimeout: 1, timeout: timeout, maximumBytes: maximumBytes, destinations: destinations)),
            logger: logger)
    }

    static func titles(_ reply: APIHarness.Client.Reply) -> [String] {
        reply.items.compactMap { $0["title"] as? String }
    }

    @Test func adminsSetTheFeedsInTheCompanySettings() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            let feeds = ["https://blog.example.com/feed.xml", "http://social.example/@acme.rss"]
            let set = try await Self.put(client, admin, feeds: feeds)
            #expect(set.status == .ok && set.json["feeds"] as? [String] == feeds)
            #expect(try await client.call(.get, "/v1/company", token: alice).json["feeds"] as? [String] == feeds)

            // Absent: kept. Bad ones: 422 on `feeds`, nothing changed.
            let kept = try await client.call(.put, "/v1/company", token: admin, json: #"{"name":"Acme","workingWeek":[1,2,3,4,5],"defaultAllowance":23}"#)
            #expect(kept.json["feeds"] as? [String] == feeds)
            for bad in [
                ["ftp://blog.example.com/feed"], ["javascript:alert(1)"], ["https://user:pw@blog.example.com/feed"], ["not a url"],
                ["https://blog.example.com/" + String(repeating: "a", count: 300)], ["https://a.example/x", "https://A.example/x"],
                (0...10).map { "https://blog.example.com/\($0).rss" },
            ] {
                expectProblem(try await Self.put(client, admin, feeds: bad), .unprocessableContent, "validation-failed")
            }
            let wrongType = try await client.call(
                .put, "/v1/company", token: admin, json: #"{"name":"Acme","workingWeek":[1],"defaultAllowance":23,"feeds":"https://a.example/"}"#)
            #expect(wrongType.status.code >= 400 && wrongType.status.code < 500 && wrongType.isProblem)
            expectProblem(try await Self.put(client, alice, feeds: []), .forbidden, "forbidden")
            #expect(try await h.fixture.services.company.company().feeds == feeds)

            // No feed, or none fetched yet: an empty list.
            let empty = try await client.call(.get, "/v1/company/feed", token: alice)
            #expect(empty.status == .ok && empty.items.isEmpty)
            #expect(try await client.call(.get, "/v1/company/feed").status == .unauthorized)
            expectProblem(try await client.call(.get, "/v1/company/feed?limit=0", token: alice), .unprocessableContent, "validation-failed")

            #expect(try await Self.put(client, admin, feeds: []).json["feeds"] as? [String] == [])
        }
    }

    @Test(.enabled(if: Venv.shouldRun, "needs .venv (scripts/venv.sh)"))
    func servesGoodFeedsMergedAndKeepsFailuresOut() async throws {
        let server = try await TestFeedServer.start(
            files: ["/blog.rss": Self.rss, "/social.atom": Self.atom],
            routes: ["/hang": "hang", "/error": "status:500", "/garbage": "garbage", "/huge": "big:600000", "/missing": "status:404"])
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let paths = ["/blog.rss", "/hang", "/error", "/garbage", "/huge", "/social.atom", "/missing"]
            #expect(try await Self.put(client, admin, feeds: paths.map(server.url)).status == .ok)
            let outcomes = await Self.refresher(h, maximumBytes: 64 * 1024).refreshDue()
            #expect(outcomes.map(\.url) == paths.map(server.url), "every feed is tried, one after the other")
            var failures: [String: String] = [:]
            for (url, refresh) in outcomes {
                if case .failed(let why) = refresh { failures[String(url.split(separator: "/").last!)] = why }
            }
            #expect(Set(failures.keys) == ["hang", "error", "garbage", "huge", "missing"])
            #expect(failures["error"] == "HTTP 500" && failures["missing"] == "HTTP 404")
            #expect(failures["hang"]?.contains("curl 28") == true, "\(failures["hang"] ?? "")")
            #expect(failures["huge"]?.contains("larger than 65536 bytes") == true, "\(failures["huge"] ?? "")")
            #expect(failures["garbage"]?.contains("XML") == true, "\(failures["garbage"] ?? "")")
            #expect(server.requests(to: "/huge").count == 1)

            let reply = try await client.call(.get, "/v1/company/feed", token: try await client.login("alice"))
            #expect(reply.status == .ok)
            #expect(Self.titles(reply) == ["New office", "Summer party", "Old news"], "merged, newest first")
            let party = try #require(reply.items.first { $0["title"] as? String == "Summer party" })
            #expect(party["summary"] as? String == "Join us Friday at 6.")
            #expect(party["link"] as? String == "https://blog.example.com/party")
            #expect(party["published"] as? String == "2026-03-01T18:00:00.000Z")
            #expect(party["source"] as? String == "Acme blog")
            #expect(reply.items.first { $0["title"] as? String == "Old news" }?["link"] is NSNull)
            #expect(reply.items.first?["source"] as? String == "Acme on Mastodon")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("steal"))
            #expect(Self.titles(try await client.call(.get, "/v1/company/feed?limit=1", token: admin)) == ["New office"])

            // A feed removed from the settings takes its items with it.
            #expect(try await Self.put(client, admin, feeds: [server.url("/social.atom")]).status == .ok)
            #expect(Self.titles(try await client.call(.get, "/v1/company/feed", token: admin)) == ["New office"])
        }
        await server.shutdown()
    }

    @Test(.enabled(if: Venv.shouldRun, "needs .venv (scripts/venv.sh)"))
    func asksConditionallyAndKeepsTheLastGoodCopyThroughFailuresAndRestarts() async throws {
        let server = try await TestFeedServer.start(files: ["/blog.rss": Self.rss])
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        let url = server.url("/blog.rss")
        try await h.run { client in
            let admin = try await client.login("admin")
            #expect(try await Self.put(client, admin, feeds: [url]).status == .ok)
            let refresher = Self.refresher(h)
            guard case .fetched = try #require(await refresher.refreshDue().first?.refresh) else {
                Issue.record("the first fetch is a copy")
                return
            }
            let first = try #require(server.requests(to: "/blog.rss").first)
            #expect((first["headers"] as? [String: String])?["if-none-match"] == nil)

            // Within 30 minutes nothing is due; then the fetch is conditional, and a 304 keeps the copy. (Each read
            // below logs in afresh: the clock moves past an access token's 15 minutes.)
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(29 * 60))
            #expect(await refresher.refreshDue().isEmpty)
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(60))
            guard case .notModified = try #require(await refresher.refreshDue().first?.refresh) else {
                Issue.record("an unchanged feed answers 304")
                return
            }
            let requests = server.requests(to: "/blog.rss")
            #expect(requests.map { $0["status"] as? Int } == [200, 304])
            let asked = try #require(requests.last?["headers"] as? [String: String])
            let etag = try #require(asked["if-none-match"])
            #expect(etag.hasPrefix("\"") && etag.count == 18, "the ETag as the feed sent it: \(etag)")
            #expect(asked["if-modified-since"]?.hasSuffix(" GMT") == true, "\(asked)")
            #expect(Self.titles(try await client.call(.get, "/v1/company/feed", token: try await client.login("admin"))) == ["Summer party", "Old news"])

            // A changed feed is fetched whole again.
            try server.write(Self.rss.replacingOccurrences(of: "Summer party", with: "Winter party"), at: "/blog.rss")
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(30 * 60))
            await refresher.refreshDue()
            #expect(server.requests(to: "/blog.rss").last?["status"] as? Int == 200)
            #expect(Self.titles(try await client.call(.get, "/v1/company/feed", token: try await client.login("admin"))) == ["Winter party", "Old news"])

            // Down: the last good copy is served, never an error.
            await server.stop()
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(30 * 60))
            guard case .failed = try #require(await refresher.refreshDue().first?.refresh) else {
                Issue.record("a feed that is down fails")
                return
            }
            let down = try await client.call(.get, "/v1/company/feed", token: try await client.login("admin"))
            #expect(down.status == .ok && Self.titles(down) == ["Winter party", "Old news"])
        }
        // After a restart the copy is read from the database file.
        let reopened = try TestEngine.open(path: path.path)
        #expect(try await CompanyFeedService(store: reopened.companyFeedStore).items().map(\.title) == ["Winter party", "Old news"])
        await server.shutdown()
    }

    /// Titles and summaries that carry markup escaped once, twice or inside CDATA: what every employee reads is text.
    static let hostileRSS = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0"><channel><title>Hostile &amp;lt;i&amp;gt;blog&amp;lt;/i&amp;gt;</title>
          <item><title>&amp;lt;img src=x onerror=alert(1)&amp;gt;Escaped once</title><link>https://blog.example.com/1</link>
            <pubDate>Sun, 01 Mar 2026 18:00:00 +0000</pubDate>
            <description><![CDATA[&lt;b onmouseover=alert(2)&gt;bold&lt;/b&gt; in CDATA]]></description></item>
          <item><title>&amp;amp;lt;script&amp;amp;gt;alert(3)&amp;amp;lt;/script&amp;amp;gt;Escaped twice</title>
            <link>https://blog.example.com/2</link><pubDate>Sat, 28 Feb 2026 18:00:00 +0000</pubDate>
            <description><![CDATA[<<img src=x>img src=x onerror=alert(4)> nested &#38;#60;svg onload=alert(5)&#38;#62;numeric]]></description></item>
        </channel></rss>
        """

    /// Whether `text` holds what a browser would read as markup, a `<` that opens a tag, or a reference still to decode.
    static func holdsMarkup(_ text: String) -> Bool {
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "<" {
            if let next = characters.dropFirst(index + 1).first, next.isLetter || "/!?".contains(next) { return true }
        }
        return text.contains("&lt;") || text.contains("&gt;") || text.contains("&amp;")
    }

    @Test(.enabled(if: Venv.shouldRun, "needs .venv (scripts/venv.sh)"))
    func escapedMarkupReachesTheFeedAndTheMainScreenAsText() async throws {
        let server = try await TestFeedServer.start(files: ["/hostile.rss": Self.hostileRSS])
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            #expect(try await Self.put(client, admin, feeds: [server.url("/hostile.rss")]).status == .ok)
            guard case .fetched = try #require(await Self.refresher(h).refreshDue().first?.refresh) else {
                Issue.record("the hostile feed is still a feed")
                return
            }
            let alice = try await client.login("alice")
            let feed = try await client.call(.get, "/v1/company/feed", token: alice)
            let home = try await client.call(.get, "/v1/home", token: alice)
            let homeItems = try #require(home.json["feed"] as? [[String: Any]])
            for items in [feed.items, homeItems] {
                #expect(items.count == 2)
                for item in items {
                    for key in ["title", "summary", "source"] {
                        let text = item[key] as? String ?? ""
                        #expect(!Self.holdsMarkup(text), "\(key): \(text)")
                    }
                }
            }
            #expect(Self.titles(feed) == ["Escaped once", "Escaped twice"])
            #expect(feed.items.first?["summary"] as? String == "bold in CDATA")
            #expect(feed.items.first?["source"] as? String == "Hostile blog")
        }
        await server.shutdown()
    }

    /// A feed is a request the server makes on someone's behalf: it may not reach an internal address, directly or
    /// through a redirect, unless allowed; the internal listener is never asked.
    @Test(.enabled(if: Venv.shouldRun, "needs .venv (scripts/venv.sh)"))
    func aFeedCannotMakeTheServerReachAnInternalAddress() async throws {
        let listener = try await TestFeedServer.start(files: ["/secret": Self.rss.replacingOccurrences(of: "Summer party", with: "Internal secret")])
        let server = try await TestFeedServer.start(
            files: ["/blog.rss": Self.atom], routes: ["/moved": "redirect:\(listener.url("/secret"))"])
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            #expect(try await Self.put(client, admin, feeds: [server.url("/moved"), server.url("/blog.rss")]).status == .ok)
            // Only the feed server's own address and port are allowed, as an admin would allow one internal host.
            let allowed = try DestinationPolicy(parsing: "127.0.0.1:\(server.port)")
            let outcomes = await Self.refresher(h, destinations: allowed).refreshDue()
            #expect(outcomes.count == 2)
            guard case .failed(let why) = try #require(outcomes.first?.refresh) else {
                Issue.record("a redirect to an internal address is refused")
                return
            }
            #expect(why.contains("127.0.0.1 is a loopback address") && why.contains("SG_ALLOWED_INTERNAL_ADDRESSES"), "\(why)")
            guard case .fetched = try #require(outcomes.last?.refresh) else {
                Issue.record("the allowed feed is fetched")
                return
            }
            #expect(server.requests(to: "/moved").count == 1)
            #expect(listener.requests(to: "/secret").isEmpty, "the internal listener was never asked")
            let shown = try await client.call(.get, "/v1/company/feed", token: try await client.login("alice"))
            #expect(Self.titles(shown) == ["New office"])
            #expect(!String(decoding: shown.body, as: UTF8.self).contains("Internal secret"))

            // With nothing allowed, as sgserver runs by default, not even the feed server is asked.
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(31 * 60))
            let strict = await Self.refresher(h, destinations: .publicOnly).refreshDue()
            #expect(strict.count == 2)
            #expect(strict.allSatisfy { if case .failed(let why) = $0.refresh { why.contains("loopback") } else { false } })
            #expect(server.requests(to: "/blog.rss").count == 1, "refused before connecting")
        }
        await listener.shutdown()
        await server.shutdown()
    }
}
