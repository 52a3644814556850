import Foundation

/// A company feed as the refresher sees it: where it is, what makes the next fetch conditional, and when it was
/// last tried.
public struct FeedSource: Sendable, Equatable {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    /// The last attempt, good or not; nil before the first.
    public var checkedAt: Date?
    /// The last attempt's problem; nil when it went well.
    public var failure: String?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, checkedAt: Date? = nil, failure: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.checkedAt = checkedAt
        self.failure = failure
    }
}

/// What one fetch of a feed came to.
public enum FeedRefresh: Sendable {
    /// A new copy, which replaces the kept one.
    case fetched(ParsedFeed, etag: String?, lastModified: String?)
    /// 304: the kept copy is still the feed's.
    case notModified
    /// Down, too slow, too large, an error status or no feed: the kept copy stays.
    case failed(String)
}

public protocol CompanyFeedReading {
    /// The company's feeds in the admins' order.
    func companyFeedSources() throws -> [FeedSource]
    /// The newest `limit` items of every feed's kept copy, newest first (undated last).
    func companyFeedItems(limit: Int) throws -> [FeedItem]
}

public protocol CompanyFeedWriting: CompanyFeedReading {
    /// Replaces the kept copy of the feed at `url` (if it is still one of the company's) and its conditional state.
    func saveCompanyFeedCopy(url: String, title: String?, items: [FeedItem], etag: String?, lastModified: String?, at: Date) throws
    /// Records an attempt that left the kept copy as it was: `failure` nil for a 304.
    func recordCompanyFeedCheck(url: String, failure: String?, at: Date) throws
}

public typealias CompanyFeedStore = TransactionalStore<any CompanyFeedReading, any CompanyFeedWriting>

/// The company's news feeds: the kept copies the main screen reads, and what the server's refresher fetches and
/// records. Reading never waits for a feed's server: the copies are fetched in the background.
public struct CompanyFeedService: Sendable {
    /// A kept copy is fetched again when it is this old.
    public static let refreshInterval: TimeInterval = 30 * 60
    public static let defaultLimit = 20
    public static let maximumLimit = 50

    public let store: any CompanyFeedStore
    public let clock: any NowProvider

    public init(store: any CompanyFeedStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    /// The newest items of all the company's feeds, newest first.
    public func items(limit: Int = defaultLimit) async throws -> [FeedItem] {
        guard (1...Self.maximumLimit).contains(limit) else {
            throw SGError.invalid(field: "limit", message: "must be between 1 and \(Self.maximumLimit)")
        }
        return try await store.read { tx in try tx.companyFeedItems(limit: limit) }
    }

    /// The feeds to fetch now: never tried, or last tried `refreshInterval` ago or more.
    public func due() async throws -> [FeedSource] {
        let now = clock.now()
        return try await store.read { tx in
            try tx.companyFeedSources().filter { source in
                source.checkedAt.map { now.timeIntervalSince($0) >= Self.refreshInterval || $0 > now } ?? true
            }
        }
    }

    /// Keeps what a fetch of `url` came to.
    public func record(_ refresh: FeedRefresh, url: String) async throws {
        let now = clock.now()
        try await store.write { tx in
            switch refresh {
            case .fetched(let feed, let etag, let lastModified):
                try tx.saveCompanyFeedCopy(url: url, title: feed.title, items: feed.items, etag: etag, lastModified: lastModified, at: now)
            case .notModified:
                try tx.recordCompanyFeedCheck(url: url, failure: nil, at: now)
            case .failed(let why):
                try tx.recordCompanyFeedCheck(url: url, failure: String(why.prefix(500)), at: now)
            }
        }
    }
}
