import Foundation

/// One item of a company feed, as the main screen shows it: plain text only, the link http(s) or nil.
public struct FeedItem: Sendable, Equatable {
    public var title: String
    public var link: String?
    public var published: Date?
    public var summary: String
    /// The feed's own name (its channel or feed title), or its address's host when it has none.
    public var source: String

    public init(title: String, link: String?, published: Date?, summary: String, source: String) {
        self.title = title
        self.link = link
        self.published = published
        self.summary = summary
        self.source = source
    }
}

/// A feed document read: its name and its newest items.
public struct ParsedFeed: Sendable, Equatable {
    public var title: String?
    /// Newest first (undated items last, in the document's order), at most `FeedParser.maximumItems`.
    public var items: [FeedItem]
}

/// Reads RSS 2.0 (and 1.0) and Atom documents into plain-text items.
public enum FeedParser {
    public static let maximumItems = 20
    public static let maximumTitleLength = 300
    public static let maximumSummaryLength = 500
    public static let maximumSourceLength = 100

    public enum Failure: Error, CustomStringConvertible {
        case xml(String)
        case notAFeed(String)

        public var description: String {
            switch self {
            case .xml(let why): why
            case .notAFeed(let root): "the document is XML but neither RSS nor Atom (its root is <\(root)>)"
            }
        }
    }

    /// The feed in `bytes`, fetched from `url` (relative links are resolved against it).
    public static func parse(_ bytes: [UInt8], url: String) throws -> ParsedFeed {
        let root: FeedXMLElement
        do {
            root = try FeedXML.parse(bytes)
        } catch let failure as FeedXML.Failure {
            throw Failure.xml(failure.description)
        }
        let title: String?
        let items: [FeedItem]
        let host = URL(string: url)?.host ?? url
        switch root.localName {
        case "rss", "RDF":
            let channel = root.child("channel")
            title = channel?.child("title").map { FeedText.plain($0.text, maximum: maximumSourceLength) }
            let source = title.flatMap { $0.isEmpty ? nil : $0 } ?? host
            // RSS 2.0 keeps its items in the channel; RSS 1.0 beside it.
            let elements = (channel?.children("item") ?? []) + root.children("item")
            items = elements.compactMap { rssItem($0, source: source, base: url) }
        case "feed":
            title = root.child("title").map { FeedText.plain(text(of: $0), maximum: maximumSourceLength) }
            let source = title.flatMap { $0.isEmpty ? nil : $0 } ?? host
            let base = root.attributes["xml:base"].flatMap { FeedText.link($0, base: url) } ?? url
            items = root.children("entry").compactMap { atomEntry($0, source: source, base: base) }
        default:
            throw Failure.notAFeed(root.name)
        }
        return ParsedFeed(title: title.flatMap { $0.isEmpty ? nil : $0 }, items: Array(newestFirst(items).prefix(maximumItems)))
    }

    /// Newest first; undated items after the dated ones, in their order.
    public static func newestFirst(_ items: [FeedItem]) -> [FeedItem] {
        items.enumerated().sorted { a, b in
            switch (a.element.published, b.element.published) {
            case let (x?, y?): x != y ? x > y : a.offset < b.offset
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a.offset < b.offset
            }
        }.map(\.element)
    }

    /// An item with neither a title nor a summary says nothing and is left out.
    private static func item(title: String, link: String?, published: Date?, summary: String, source: String) -> FeedItem? {
        let title = FeedText.plain(title, maximum: maximumTitleLength)
        let summary = FeedText.plain(summary, maximum: maximumSummaryLength)
        guard !title.isEmpty || !summary.isEmpty else { return nil }
        return FeedItem(title: title, link: link, published: published, summary: summary, source: source)
    }

    private static func rssItem(_ element: FeedXMLElement, source: String, base: String) -> FeedItem? {
        var link = element.children.first { $0.name == "link" }.flatMap { FeedText.link($0.text, base: base) }
        if link == nil, let guid = element.child("guid"), guid.attributes["isPermaLink"] != "false" {
            link = FeedText.link(guid.text, base: base)
        }
        let date = (element.child("pubDate") ?? element.child("dc:date") ?? element.child("date")).flatMap { FeedDate.parse($0.text) }
        let summary = element.child("description")?.text ?? element.child("content:encoded")?.text ?? ""
        return item(title: element.child("title")?.text ?? "", link: link, published: date, summary: summary, source: source)
    }

    private static func atomEntry(_ element: FeedXMLElement, source: String, base: String) -> FeedItem? {
        let base = element.attributes["xml:base"].flatMap { FeedText.link($0, base: base) } ?? base
        let links = element.children("link")
        let alternate = links.filter { ($0.attributes["rel"] ?? "alternate") == "alternate" }
        let chosen = alternate.first { ($0.attributes["type"] ?? "text/html").hasPrefix("text/html") } ?? alternate.first
        let link = chosen?.attributes["href"].flatMap { FeedText.link($0, base: base) }
        let date = (element.child("published") ?? element.child("updated")).flatMap { FeedDate.parse($0.text) }
        let summary = (element.child("summary") ?? element.child("content")).map(text(of:)) ?? ""
        return item(title: element.child("title").map(text(of:)) ?? "", link: link, published: date, summary: summary, source: source)
    }

    /// An Atom text construct: `text` and `html` are in the element's text (HTML escaped or in CDATA); `xhtml` is a
    /// div of elements, whose text is kept.
    private static func text(of element: FeedXMLElement) -> String {
        element.attributes["type"] == "xhtml" ? element.allText : element.text
    }
}
