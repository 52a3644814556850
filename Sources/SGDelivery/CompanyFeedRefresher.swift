import Foundation
import Logging
import SGCore
import ServiceLifecycle

/// How the company's feeds are fetched: short limits, so that a feed that hangs or floods costs little.
public struct FeedFetchConfiguration: Sendable, Equatable {
    public var connectTimeout: TimeInterval
    /// For a whole fetch, connecting and redirects included.
    public var timeout: TimeInterval
    /// A body past this many bytes (decoded) ends the fetch.
    public var maximumBytes: Int
    /// PEM file of the CAs to trust instead of the system's.
    public var caFile: String?
    /// The internal addresses a feed (or a redirect it makes) may lead to: none unless allowed.
    public var destinations: DestinationPolicy

    public init(
        connectTimeout: TimeInterval = 2, timeout: TimeInterval = 5, maximumBytes: Int = 2 * 1024 * 1024, caFile: String? = nil,
        destinations: DestinationPolicy = .publicOnly
    ) {
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.caFile = caFile
        self.destinations = destinations
    }
}

/// Fetches one feed over HTTP(S) with libcurl, conditionally when it has an ETag or Last-Modified from before.
public struct FeedFetcher: Sendable {
    public let configuration: FeedFetchConfiguration

    public init(configuration: FeedFetchConfiguration = FeedFetchConfiguration()) {
        self.configuration = configuration
    }

    public func fetch(_ source: FeedSource, on lane: CurlLane) async -> FeedRefresh {
        var headers = ["Accept: application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.1"]
        if let etag = source.etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified = source.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        let response = await lane.perform(CurlRequest(
            url: source.url, protocols: "http,https", kind: .httpGet(headers: headers, redirects: 3), body: [],
            caFile: configuration.caFile, connectTimeout: configuration.connectTimeout, timeout: configuration.timeout,
            responseLimit: configuration.maximumBytes, abortBeyondLimit: true, destinations: configuration.destinations))
        return Self.refresh(response, url: source.url, limit: configuration.maximumBytes)
    }

    static func refresh(_ response: CurlResponse, url: String, limit: Int) -> FeedRefresh {
        if response.tooLarge { return .failed("the feed is larger than \(limit) bytes") }
        guard response.completed else { return .failed(response.failure) }
        switch response.responseCode {
        case 304:
            return .notModified
        case 200:
            do {
                let feed = try FeedParser.parse(response.body, url: url)
                return .fetched(feed, etag: response.headers["etag"], lastModified: response.headers["last-modified"])
            } catch {
                return .failed("\(error)")
            }
        default:
            return .failed("HTTP \(response.responseCode)")
        }
    }
}

/// Keeps the company's feeds fresh in the background: every minute it fetches those whose copy is 30 minutes
/// old (or that were never fetched), one after the other on one lane, and records what came of each. Requests read
/// the kept copies and never wait for a feed. A feed that fails keeps its last good copy; the failure is logged
/// when it begins or changes, not again at each try.
public struct CompanyFeedRefresher: Service {
    public let feeds: CompanyFeedService
    public let fetcher: FeedFetcher
    /// How often to look for feeds due.
    public let pollInterval: Duration
    let logger: Logger
    private let lane = CurlLane(name: "sgserver.feeds")

    public init(feeds: CompanyFeedService, fetcher: FeedFetcher = FeedFetcher(), pollInterval: Duration = .seconds(60), logger: Logger) {
        self.feeds = feeds
        self.fetcher = fetcher
        self.pollInterval = pollInterval
        self.logger = logger
    }

    public func run() async {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await refreshDue()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: pollInterval) }
        }
        await lane.close()
    }

    /// Fetches every feed due now and records each outcome; returns the outcomes by address.
    @discardableResult
    public func refreshDue() async -> [(url: String, refresh: FeedRefresh)] {
        let due: [FeedSource]
        do {
            due = try await feeds.due()
        } catch {
            logger.warning("The company feeds could not be read", metadata: ["error": "\(error)"])
            return []
        }
        var outcomes: [(url: String, refresh: FeedRefresh)] = []
        for source in due {
            if Task.isShuttingDownGracefully || Task.isCancelled { break }
            let refresh = await fetcher.fetch(source, on: lane)
            switch refresh {
            case .fetched(let feed, _, _):
                logger.debug("Company feed fetched", metadata: ["url": "\(source.url)", "items": "\(feed.items.count)"])
            case .notModified:
                logger.debug("Company feed not modified", metadata: ["url": "\(source.url)"])
            case .failed(let why):
                let level: Logger.Level = source.failure == String(why.prefix(500)) ? .debug : .warning
                logger.log(level: level, "Company feed failed; its last good copy is served", metadata: ["url": "\(source.url)", "error": "\(why)"])
            }
            do {
                try await feeds.record(refresh, url: source.url)
            } catch {
                logger.warning("A company feed's copy could not be kept", metadata: ["url": "\(source.url)", "error": "\(error)"])
            }
            outcomes.append((source.url, refresh))
        }
        return outcomes
    }
}
