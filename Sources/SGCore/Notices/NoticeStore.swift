import Foundation

/// Where a page of the board ends: the board is ordered pinned first, then newest first, so a position is the
/// pinned flag and the id. Its text form ("1.42", "0.17") is what clients pass back as `after`.
public struct NoticeCursor: Sendable, Equatable {
    public var pinned: Bool
    public var id: Int64

    public init(pinned: Bool, id: Int64) {
        self.pinned = pinned
        self.id = id
    }

    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "0" || parts[0] == "1", parts[1].allSatisfy(\.isASCII),
              let id = Int64(parts[1]), id > 0 else { return nil }
        self.init(pinned: parts[0] == "1", id: id)
    }

    public var text: String { "\(pinned ? 1 : 0).\(id)" }
}

/// Which notices a reader sees: live company notices (expired ones too when asked) and their own personal ones.
public struct NoticeVisibility: Sendable, Equatable {
    /// The employee reading: their personal notices are on the board too. nil: company notices only.
    public var viewerID: Int64?
    public var includeExpired: Bool
    /// The company's date: a company notice expiring before it is expired.
    public var today: CalendarDate

    public init(viewerID: Int64?, includeExpired: Bool, today: CalendarDate) {
        self.viewerID = viewerID
        self.includeExpired = includeExpired
        self.today = today
    }
}

public struct NoticePage: Sendable {
    public let items: [Notice]
    /// Notices on the viewer's board, in all pages.
    public let total: Int
    /// The viewer's personal notices not yet read.
    public let unread: Int
    /// Pass as `after` for the next page; nil on the last page.
    public let next: NoticeCursor?

    public init(items: [Notice], total: Int, unread: Int, next: NoticeCursor?) {
        self.items = items
        self.total = total
        self.unread = unread
        self.next = next
    }
}

public protocol NoticeReading: CompanyReading {
    /// Any notice, visible or not.
    func notice(id: Int64) throws -> Notice?
    /// The notice if `visibility` shows it.
    func notice(id: Int64, visibility: NoticeVisibility) throws -> Notice?
    /// The board pinned first, then newest first: the page after `after`, with the counts of all pages.
    func board(_ visibility: NoticeVisibility, after: NoticeCursor?, limit: Int) throws -> NoticePage
}

/// A new company notice writes its messages into the outbox in the same transaction.
public protocol NoticeWriting: NoticeReading, OutboxWriting, AudienceReading {
    func insertCompanyNotice(_ draft: NoticeDraft, author: Actor, at: Date) throws -> Int64
    func updateCompanyNotice(id: Int64, _ draft: NoticeDraft, at: Date) throws
    /// Deletes a company notice; false when there is none with that id.
    func deleteCompanyNotice(id: Int64) throws -> Bool
    /// Sets (an instant) or clears (nil) a personal notice's read flag; a set flag keeps its first instant.
    func setRead(noticeID: Int64, at: Date?) throws
}

public typealias NoticeStore = TransactionalStore<any NoticeReading, any NoticeWriting>
