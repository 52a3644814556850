import Foundation
import Testing
@testable import SGCore

/// RSS and Atom read into plain-text items: CDATA, entities, dates, HTML reduced to text, links, and documents
/// refused (DOCTYPE, garbage, anything that is not a feed).
@Suite struct FeedParserTests {
    static func parse(_ text: String, url: String = "https://blog.example.com/feed.xml") throws -> ParsedFeed {
        try FeedParser.parse(Array(text.utf8), url: url)
    }

    static func instant(_ text: String) -> Date { Timestamp.parse(text)! }

    @Test func readsRSSWithCDATAEntitiesAndDatesNewestFirst() throws {
        let feed = try Self.parse("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a comment before the root -->
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
              <channel>
                <title>Acme &amp; Co. news</title>
                <atom:link href="https://blog.example.com/feed.xml" rel="self" type="application/rss+xml"/>
                <link>https://blog.example.com/</link>
                <item>
                  <title>Older: Q&amp;A &lt; 5 minutes</title>
                  <link>https://blog.example.com/qa</link>
                  <pubDate>Mon, 02 Mar 2026 09:30:00 +0100</pubDate>
                  <description>Plain &#233;t&#xE9; text</description>
                </item>
                <item>
                  <title><![CDATA[Newer <em>launch</em> & party]]></title>
                  <link>/launch?a=1&amp;b=2</link>
                  <pubDate>Tue, 3 Mar 2026 18:00 GMT</pubDate>
                  <description><![CDATA[<p>We <b>launched</b>&nbsp;it!</p><script>alert('x')</script>
                     <p>See   you&hellip;</p>]]></description>
                </item>
                <item>
                  <title>Undated</title>
                  <guid isPermaLink="true">https://blog.example.com/undated</guid>
                  <content:encoded>&lt;p&gt;Escaped &amp;amp; HTML&lt;/p&gt;</content:encoded>
                </item>
              </channel>
            </rss>
            """)
        #expect(feed.title == "Acme & Co. news")
        #expect(feed.items.map(\.title) == ["Newer launch & party", "Older: Q&A < 5 minutes", "Undated"])
        let newer = feed.items[0], older = feed.items[1], undated = feed.items[2]
        #expect(newer.summary == "We launched it! See you…")
        #expect(newer.link == "https://blog.example.com/launch?a=1&b=2", "relative links resolve against the feed's address")
        #expect(newer.published == Self.instant("2026-03-03T18:00:00Z"))
        #expect(newer.source == "Acme & Co. news")
        #expect(older.link == "https://blog.example.com/qa")
        #expect(older.published == Self.instant("2026-03-02T08:30:00Z"))
        #expect(older.summary == "Plain été text")
        #expect(undated.published == nil && undated.link == "https://blog.example.com/undated")
        #expect(undated.summary == "Escaped & HTML")
    }

    @Test func readsAtomTextConstructsAndAlternateLinks() throws {
        let feed = try Self.parse("""
            <?xml version='1.0' encoding='utf-8'?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://social.example/">
              <title type="text">Acme on Mastodon</title>
              <link rel="self" href="https://social.example/@acme.atom"/>
              <entry>
                <title type="html">&lt;b&gt;Bold&lt;/b&gt; news</title>
                <link rel="self" href="https://social.example/api/1"/>
                <link rel="alternate" type="application/json" href="https://social.example/1.json"/>
                <link rel="alternate" type="text/html" href="@acme/1"/>
                <updated>2026-03-01T10:00:00Z</updated>
                <published>2026-02-28T23:30:00.250-02:00</published>
                <summary type="html"><![CDATA[<p>First&#8230;</p>]]></summary>
              </entry>
              <entry>
                <title>Second</title>
                <link href="javascript:alert(1)"/>
                <updated>2026-03-02T07:00:00+00:00</updated>
                <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hello <a href="x">world</a></p></div></content>
              </entry>
            </feed>
            """, url: "https://social.example/@acme.atom")
        #expect(feed.title == "Acme on Mastodon")
        #expect(feed.items.count == 2)
        #expect(feed.items[0].title == "Second" && feed.items[0].link == nil, "a javascript: link is dropped")
        #expect(feed.items[0].summary == "Hello world")
        #expect(feed.items[1].title == "Bold news" && feed.items[1].summary == "First…")
        #expect(feed.items[1].link == "https://social.example/@acme/1", "the alternate text/html link, against xml:base")
        #expect(feed.items[1].published == Self.instant("2026-03-01T01:30:00.250Z"), "published wins over updated")
    }

    @Test func refusesDocumentTypesGarbageAndOtherDocuments() throws {
        let billionLaughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
            <rss version="2.0"><channel><title>&lol2;</title></channel></rss>
            """
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <rss version="2.0"><channel><item><title>&xxe;</title></item></channel></rss>
            """
        for document in [billionLaughs, xxe] {
            #expect(throws: FeedParser.Failure.self) { try Self.parse(document) }
            #expect(throws: FeedXML.Failure.doctype) { try FeedXML.parse(Array(document.utf8)) }
        }
        // An entity that is not XML's is left as written, never looked up anywhere.
        #expect(try FeedXML.parse(Array("<a>&xxe; &#0; &#x1F600;</a>".utf8)).text == "&xxe; \u{FFFD} 😀")

        for garbage in ["", "not xml at all", "<rss><channel></rss>", "<rss a=1></rss>", "<rss></rss><rss></rss>", "<a><b></a></b>"] {
            #expect(throws: FeedParser.Failure.self, "\(garbage)") { try Self.parse(garbage) }
        }
        #expect(throws: FeedParser.Failure.self) { try Self.parse("<html><body>Not a feed</body></html>") }
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(throws: FeedParser.Failure.self) { try Self.parse(deep) }
    }

    @Test func readsLatin1Documents() throws {
        var bytes = Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><item><title>Caf"#.utf8)
        bytes.append(0xE9)
        bytes += Array("</title></item></channel></rss>".utf8)
        #expect(try FeedParser.parse(bytes, url: "https://example.com/").items.first?.title == "Café")
        #expect(throws: FeedParser.Failure.self) {
            try FeedParser.parse(Array(#"<?xml version="1.0" encoding="EBCDIC"?><rss/>"#.utf8), url: "https://example.com/")
        }
    }

    @Test func reducesHTMLToBoundedPlainText() {
        #expect(FeedText.plain("<p>One</p><p>Two<br/>three</p>", maximum: 100) == "One Two three")
        #expect(FeedText.plain("<style>p { color: red }</style><SCRIPT type=x>evil()</SCRIPT>Safe", maximum: 100) == "Safe")
        #expect(FeedText.plain("a < b &amp;&amp; c > d", maximum: 100) == "a < b && c > d")
        #expect(FeedText.plain("&lt;script&gt;x&lt;/script&gt;", maximum: 100) == "", "escaped markup is markup too: stripped")
        #expect(FeedText.plain("&lt;b&gt;bold&lt;/b&gt;", maximum: 100) == "bold")
        #expect(FeedText.plain("  spaced \n\t out\u{7}\u{200B} ", maximum: 100) == "spaced out")
        #expect(FeedText.plain("<!-- hidden -->shown &unknown; &#65;", maximum: 100) == "shown &unknown; A")
        #expect(FeedText.plain(String(repeating: "word ", count: 100), maximum: 12) == "word word w…")
        #expect(FeedText.plain("<a href='x'>unclosed", maximum: 100) == "unclosed")
        #expect(FeedText.plain("<a href='x'", maximum: 100) == "")
    }

    @Test func keepsOnlyWebLinks() {
        #expect(FeedText.link(" https://example.com/a b ", base: nil) == nil)
        #expect(FeedText.link("https://example.com/a", base: nil) == "https://example.com/a")
        #expect(FeedText.link("../b", base: "https://example.com/x/feed") == "https://example.com/b")
        for bad in ["javascript:alert(1)", "data:text/html,hi", "mailto:a@example.com", "ftp://example.com/", "//", "", "http://"] {
            #expect(FeedText.link(bad, base: nil) == nil, "\(bad)")
        }
    }

    @Test func readsRFC822AndRFC3339Dates() {
        let expected = Self.instant("2026-01-02T15:04:05Z")
        for text in [
            "Fri, 02 Jan 2026 15:04:05 +0000", "Fri, 02 Jan 2026 15:04:05 GMT", "02 Jan 2026 15:04:05 UT",
            "Fri, 2 Jan 26 15:04:05 Z", "Fri, 02 Jan 2026 10:04:05 EST", "Fri, 02 Jan 2026 16:34:05 +0130",
            "2026-01-02T15:04:05Z", "2026-01-02t15:04:05z", "2026-01-02 16:04:05+01:00", "2026-01-02T07:04:05-08:00",
        ] {
            #expect(FeedDate.parse(text) == expected, "\(text)")
        }
        #expect(FeedDate.parse("Fri, 02 Jan 2026 15:04 GMT") == Self.instant("2026-01-02T15:04:00Z"))
        #expect(FeedDate.parse("2026-01-02T15:04:05.5Z") == Self.instant("2026-01-02T15:04:05.500Z"))
        for bad in ["", "yesterday", "2026-02-30T00:00:00Z", "2026-01-02", "2026-01-02T25:00:00Z", "Fri, 32 Jan 2026 10:00:00 GMT",
                    "Fri, 02 Foo 2026 10:00:00 GMT", "2026-01-02T10:00:00+0100"] {
            #expect(FeedDate.parse(bad) == nil, "\(bad)")
        }
    }

    /// Whether `text` holds what a browser would read as markup, a `<` that opens a tag, or a reference still to decode.
    static func holdsMarkup(_ text: String) -> Bool {
        let characters = Array(text)
        for (index, character) in characters.enumerated() where character == "<" {
            if let next = characters.dropFirst(index + 1).first, next.isLetter || "/!?".contains(next) { return true }
        }
        return text.contains("&lt;") || text.contains("&gt;") || text.contains("&amp;")
    }

    @Test func markupEscapedOnceTwiceOrInCDATAIsStrippedToo() throws {
        let cases: [(xml: String, text: String)] = [
            ("&amp;lt;img src=x onerror=alert(1)&amp;gt;Hello", "Hello"),
            ("<![CDATA[&lt;b onmouseover=alert(1)&gt;bold&lt;/b&gt;]]>", "bold"),
            ("&amp;amp;lt;script&amp;amp;gt;alert(1)&amp;amp;lt;/script&amp;amp;gt;after", "after"),
            ("<![CDATA[<<img src=x>img src=x onerror=alert(1)>]]>", "< img src=x onerror=alert(1)>"),
            ("&#38;#60;svg onload=alert(1)&#38;#62;numeric", "numeric"),
            ("<![CDATA[&lt;!--&gt;&lt;img src=x onerror=alert(1)&gt;--&gt;tail]]>", "-->tail"),
            ("&amp;lt;a href=&quot;javascript:alert(1)&quot;&amp;gt;link&amp;lt;/a&amp;gt;", "link"),
            ("a &amp;lt; b and c &gt; d", "a < b and c > d"),
        ]
        for (xml, text) in cases {
            let feed = try Self.parse("<rss version=\"2.0\"><channel><title>T</title><item><title>\(xml)</title><description>\(xml)</description></item></channel></rss>")
            let item = try #require(feed.items.first)
            #expect(item.title == text && item.summary == text, "\(xml) → \(item.title)")
            #expect(!Self.holdsMarkup(item.title), "\(item.title)")
        }
    }

    /// For any text, plain text is already plain: stripping it again changes nothing, and it holds no markup.
    @Test func plainTextIsAFixedPointForAnyInput() {
        let pieces = ["<", ">", "&", ";", "#", "/", "!", "?", "lt", "gt", "amp", "60", "x3C", "img", "b", " ", "a", "script", "--", "CDATA["]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3000 {
            var text = ""
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for _ in 0..<(Int(state >> 59) + 4) {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            let plain = FeedText.plain(text, maximum: 10_000)
            #expect(FeedText.plain(plain, maximum: 10_000) == plain, "\(text) → \(plain)")
            #expect(!Self.holdsMarkup(plain), "\(text) → \(plain)")
        }
    }
}
