import Foundation
import SGCore
import SGSQLite

/// `CompanyFeedWriting` over one `SQLConnection`: the company's feeds and the last good copy of each.
struct SQLCompanyFeeds: CompanyFeedWriting {
    let connection: SQLConnection

    func companyFeedSources() throws -> [FeedSource] {
        try connection.with("SELECT url, etag, last_modified, checked_at, failure FROM company_feeds ORDER BY position") { statement in
            var sources: [FeedSource] = []
            while try statement.step() {
                sources.append(FeedSource(
                    url: statement.text(0), etag: statement.optionalText(1), lastModified: statement.optionalText(2),
                    checkedAt: try statement.optionalTimestamp(3), failure: statement.optionalText(4)))
            }
            return sources
        }
    }

    /// Through company_feed_items_published: the newest `limit` rows, however many feeds and items are kept.
    func companyFeedItems(limit: Int) throws -> [FeedItem] {
        try connection.with(
            """
            SELECT i.title, i.link, i.published, i.summary, f.title, f.url
            FROM company_feed_items i JOIN company_feeds f ON f.id = i.feed_id
            ORDER BY i.published DESC, f.position, i.position LIMIT ?
            """
        ) { statement in
            statement.bind(1, limit)
            var items: [FeedItem] = []
            while try statement.step() {
                let source = statement.optionalText(4) ?? URL(string: statement.text(5))?.host ?? statement.text(5)
                items.append(FeedItem(
                    title: statement.text(0), link: statement.optionalText(1), published: try statement.optionalTimestamp(2),
                    summary: statement.text(3), source: source))
            }
            return items
        }
    }

    func saveCompanyFeedCopy(url: String, title: String?, items: [FeedItem], etag: String?, lastModified: String?, at: Date) throws {
        let now = Timestamp.format(at)
        try connection.execute(
            """
            UPDATE company_feeds SET title = ?, etag = ?, last_modified = ?, fetched_at = ?, checked_at = ?, failure = NULL
            WHERE url = ?
            """
        ) { statement in
            statement.bind(1, title)
            statement.bind(2, etag)
            statement.bind(3, lastModified)
            statement.bind(4, now)
            statement.bind(5, now)
            statement.bind(6, url)
        }
        // Removed from the settings meanwhile: nothing to keep.
        guard connection.changes == 1 else { return }
        try connection.execute("DELETE FROM company_feed_items WHERE feed_id = (SELECT id FROM company_feeds WHERE url = ?)") { statement in
            statement.bind(1, url)
        }
        for (position, item) in items.enumerated() {
            try connection.execute(
                """
                INSERT INTO company_feed_items (feed_id, position, title, link, published, summary)
                SELECT id, ?, ?, ?, ?, ? FROM company_feeds WHERE url = ?
                """
            ) { statement in
                statement.bind(1, position)
                statement.bind(2, item.title)
                statement.bind(3, item.link)
                statement.bind(4, item.published.map(Timestamp.format))
                statement.bind(5, item.summary)
                statement.bind(6, url)
            }
        }
    }

    func recordCompanyFeedCheck(url: String, failure: String?, at: Date) throws {
        try connection.execute("UPDATE company_feeds SET checked_at = ?, failure = ? WHERE url = ?") { statement in
            statement.bind(1, Timestamp.format(at))
            statement.bind(2, failure)
            statement.bind(3, url)
        }
    }

    // MARK: The addresses, as company settings

    static func urls(_ connection: SQLConnection) throws -> [String] {
        try connection.with("SELECT url FROM company_feeds ORDER BY position") { statement in
            var urls: [String] = []
            while try statement.step() { urls.append(statement.text(0)) }
            return urls
        }
    }

    /// The feeds become `urls` in that order: a feed kept keeps its copy; one removed goes with its items.
    static func save(_ connection: SQLConnection, urls: [String]) throws {
        guard try Self.urls(connection) != urls else { return }
        let list = String(decoding: try JSONSerialization.data(withJSONObject: urls), as: UTF8.self)
        try connection.execute(
            "DELETE FROM company_feed_items WHERE feed_id IN (SELECT id FROM company_feeds WHERE url NOT IN "
                + "(SELECT value FROM \(connection.dialect.jsonValues("?", integers: false)) AS urls))"
        ) { statement in statement.bind(1, list) }
        try connection.execute(
            "DELETE FROM company_feeds WHERE url NOT IN (SELECT value FROM \(connection.dialect.jsonValues("?", integers: false)) AS urls)"
        ) { statement in
            statement.bind(1, list)
        }
        for (position, url) in urls.enumerated() {
            try connection.execute(
                "INSERT INTO company_feeds (url, position) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET position = excluded.position"
            ) { statement in
                statement.bind(1, url)
                statement.bind(2, position)
            }
        }
    }
}
