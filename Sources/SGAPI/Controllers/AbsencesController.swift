import Foundation
import Hummingbird
import SGCore

/// Who is off: the team calendar of absences and public holidays, and the calendar feeds that carry it into
/// calendar apps.
struct AbsencesController {
    let services: Services

    /// POST /me/calendar-feeds: `{kind}`.
    struct NewFeedBody: JSONObjectBody {
        static let fields = ["kind"]
        static let what = "a calendar feed field"

        var kind: CalendarFeed.Kind

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let text = try container.required(String.self, "kind")
            guard let kind = CalendarFeed.Kind(rawValue: text) else {
                throw SGError.invalid(
                    field: "kind", message: "'\(text)' is not one of \(CalendarFeed.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.kind = kind
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Active employees (or one) in directory order with their absences in a range of at most 366 days, a page at a time.
        group.get("/absences") { request, context in
            let viewer = try context.requireEmployee()
            var query = AbsenceQuery(
                from: try Self.date(request, "from"), to: try Self.date(request, "to"),
                employeeID: try request.integerQuery("employee", in: 1...Int(Int64.max)).map(Int64.init))
            query.teamID = try request.integerQuery("team", in: 1...Int(Int64.max)).map(Int64.init)
            query.afterID = try request.integerQuery("after", in: 1...Int(Int64.max)).map(Int64.init)
            query.limit = try request.integerQuery("limit", in: 1...AbsenceQuery.maximumLimit) ?? AbsenceQuery.defaultLimit
            return JSON.response(written: DTO.AbsenceList(try await services.core.absences.absences(query, viewer: viewer.actor)))
        }

        /// The logged-in employee's calendar feeds, oldest first (without their secrets).
        group.get("/me/calendar-feeds") { _, context in
            let employee = try context.requireEmployee()
            return try JSON.response(try await services.core.absences.feeds(employeeID: employee.id).map(DTO.CalendarFeedBody.init))
        }

        /// A new calendar feed (personal or company) and its secret address, shown this once.
        group.post("/me/calendar-feeds") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(NewFeedBody.self, from: request, context: context)
            let (feed, path, url) = try await services.core.absences.createFeed(kind: body.kind, employeeID: employee.id)
            return try JSON.response(
                DTO.NewCalendarFeedBody(id: feed.id, kind: feed.kind, createdAt: Timestamp.format(feed.createdAt), path: path, url: url),
                status: .created)
        }

        /// Revokes one of the logged-in employee's calendar feeds: its address answers 404 from now on.
        group.delete("/me/calendar-feeds/:id") { _, context in
            let employee = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Calendar feed")
            try await services.core.absences.revokeFeed(id: id, employeeID: employee.id)
            return Response(status: .noContent)
        }
    }

    /// The feeds themselves, outside /v1 and without Authorization: the secret in the path is the credential.
    func addFeedRoutes(to router: Router<AppRequestContext>) {
        /// A calendar feed as iCalendar text; If-None-Match with its ETag gives 304.
        router.get("/ical/{secret}.ics") { request, context in
            let secret = context.parameters.get("secret") ?? ""
            let document = try await services.core.absences.feedDocument(secret: secret)
            let etag = Digests.sha256Hex(document, prefix: 16)
            var headers: HTTPFields = [.eTag: EntityTags.quoted(etag), .cacheControl: "private, no-cache"]
            if EntityTags.noneMatch(request.headers[.ifNoneMatch], etag: etag) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "text/calendar; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
        }
    }

    /// A required `YYYY-MM-DD` query parameter.
    static func date(_ request: Request, _ name: String) throws -> CalendarDate {
        guard let text = request.uri.queryParameters.get(name) else {
            throw SGError.invalid(field: name, message: "is required (YYYY-MM-DD)")
        }
        return try CalendarDate.parse(String(text), field: name)
    }
}
