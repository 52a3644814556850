import Foundation
import Hummingbird
import SGCore
import SGStore

/// Everything a handler needs, passed in by `buildApplication`: the core's services, and the server's own.
public struct Services: Sendable {
    public let core: CoreServices
    public let sessions: SessionService
    /// Password resets and changes, refused when `sessions.directory` keeps the passwords.
    public let passwords: PasswordService
    /// Addresses of reverse proxies whose X-Forwarded-For is believed when throttling logins per client
    /// (`IPAddress.canonical` form).
    public let trustedProxies: Set<String>
    /// `GET /v1/me/holidays` bodies as sent, until a commit changes the employee's data or the company's day ends.
    let yearViews: CommitScopedCache<YearViewKey, RenderedBody<CompressedBody>>
    /// `GET /v1/holidays` pages as sent, by viewer and filter, until a commit changes anyone's data or the day ends.
    let requestPages: CommitScopedCache<RequestPageKey, RenderedBody<ByteBuffer>>
    /// The company's news feeds, as the background refresher last kept them.
    public let feeds: CompanyFeedService
    /// Each employee's budget of changes; nil: unbounded.
    public let writeLimit: WriteRateLimit?
    /// For the health route and the write-ahead log's checkpoints; handlers use the services.
    let database: AppDatabase
    /// What `GET /metrics` serves; nil: nothing is counted.
    public let metrics: ServerMetrics?
    /// Idempotency-Keys whose change is under way.
    let keysInFlight = KeysInFlight()
    /// Where the web app's files come from; `.none` serves no web app.
    let webApp: WebAppSource

    public init(
        database: AppDatabase, clock: any NowProvider = SystemClock(), directory: (any EmployeeDirectory)? = nil,
        sessionLifetimes: SessionLifetimes = SessionLifetimes(), throttle: LoginThrottle? = nil, trustedProxies: Set<String> = [],
        resetThrottle: LoginThrottle? = nil, passwordChecks: PasswordCheckLimit? = nil, writeLimit: WriteRateLimit? = nil,
        metrics: ServerMetrics? = nil, destinations: DestinationPolicy = .publicOnly, webApp: WebAppSource = .none
    ) {
        self.webApp = webApp
        self.database = database
        self.metrics = metrics
        if let metrics { database.reportMetrics(to: metrics.database) }
        self.writeLimit = writeLimit
        core = database.services(clock: clock, destinations: destinations)
        sessions = core.sessions(
            store: database.sessionStore, directory: directory ?? LocalAccountDirectory(accounts: database.accountStore),
            lifetimes: sessionLifetimes, throttle: throttle, checks: passwordChecks)
        passwords = core.passwords.served(
            by: sessions.directory, loginThrottle: throttle, resetThrottle: resetThrottle, checks: passwordChecks)
        self.trustedProxies = Set(trustedProxies.map { IPAddress.canonical($0) ?? $0 })
        yearViews = database.makeCache(of: RenderedBody<CompressedBody>.self, by: YearViewKey.self) { $0.employeeID }
        requestPages = database.makeCache(
            of: RenderedBody<ByteBuffer>.self, by: RequestPageKey.self, maximumEntries: RequestPageKey.maximumKept,
            maximumPerEmployee: RequestPageKey.maximumKept, anyChangeForgetsAll: true
        ) { $0.viewerID }
        feeds = CompanyFeedService(store: database.companyFeedStore, clock: clock)
    }

    var holidays: HolidayService { core.holidays }
    var company: CompanyService { core.company }
    var people: PeopleService { core.people }
    var notices: NoticeService { core.notices }
    var devices: DeviceService { core.devices }
    var webhooks: WebhookService { core.webhooks }
}

/// A body as sent, and the company's day it was rendered on: what it says of each request (may it still be
/// cancelled?) holds for that day only.
struct RenderedBody<Bytes: Sendable>: Sendable {
    let today: CalendarDate
    let timeZone: TimeZone
    let body: Bytes

    func isCurrent(at instant: Date) -> Bool { today.isToday(at: instant, in: timeZone) }
}

/// A kept year view: one employee's, of a year as asked (nil: the company's current year). Its bytes are kept
/// compressed (`CompressedBody`), expanded into each response.
struct YearViewKey: Hashable, Sendable {
    let employeeID: Int64
    let year: Int?
}

/// A kept page of requests: what one viewer sees through one filter, as a ByteBuffer sent as it is (copying 90 KB,
/// an admin's first page of pending requests, for each response would cost more than the rest of it). Only first
/// pages of up to 50 requests are kept, at most 32: with comments at their longest a page takes up to 512 KB.
struct RequestPageKey: Hashable, Sendable {
    let viewerID: Int64
    let filter: RequestFilter

    static let maximumKept = 32

    static func isKept(_ filter: RequestFilter) -> Bool { filter.afterID == nil && filter.limit <= 50 }
}
