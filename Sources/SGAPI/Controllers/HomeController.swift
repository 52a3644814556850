import Foundation
import Hummingbird
import SGCore

/// The main screen in one call, made on every start of the app: its parts are read at the same time.
struct HomeController {
    let services: Services

    static let awayDays = 7
    static let awayLimit = 50
    static let noticeLimit = 5
    static let feedLimit = 10

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The caller, this year's balance, their next approved absence, who is away from today to a week ahead, the
        /// unread notices count with the latest notices, and the newest feed items.
        group.get("/home") { _, context in
            let viewer = try context.requireEmployee()
            let owned = services.sessions.directory.ownedFields
            async let profile = services.people.profile(employeeID: viewer.id)
            async let upcoming = services.core.absences.upcoming(viewer: viewer.actor, days: Self.awayDays, limit: Self.awayLimit)
            async let notices = services.notices.board(for: viewer.actor, limit: Self.noticeLimit)
            async let feed = services.feeds.items(limit: Self.feedLimit)
            let soon = try await upcoming
            let balance = try await services.holidays.balance(employeeID: viewer.id, year: soon.today.year)
            let board = try await notices
            return JSON.response(written: DTO.Home(
                today: soon.today, balance: balance,
                parts: try DTO.Home.Parts(
                    employee: DTO.ProfileBody(try await profile, owned: owned),
                    nextHoliday: soon.next.map(DTO.NextAbsence.init),
                    away: DTO.Away(upcoming: soon),
                    notices: DTO.NoticeList(
                        items: board.items.map(DTO.NoticeBody.init), total: board.total, unread: board.unread, nextAfter: board.next?.text),
                    feed: try await feed.map(DTO.FeedItemBody.init))))
        }
    }
}
