import Foundation
import Hummingbird
import SGCore

/// Holiday requests: the admin's lists, one request's detail, and the moves.
struct HolidaysController {
    let services: Services

    /// Approve, revert and cancel take an optional note; reject takes the reason (`Rejection` in the spec).
    struct NoteBody: JSONObjectBody {
        static let fields = ["note"]

        let note: String?
    }

    struct RejectionBody: JSONObjectBody {
        static let fields = ["reason"]

        let reason: String
    }

    /// The request after a move, with its new version.
    static func answer(_ moved: DecidableRequest, viewer: Actor) -> Answer {
        Answer(
            written: DTO.Request(moved, employee: moved.employee, viewer: viewer, today: moved.today),
            headers: [.eTag: EntityTags.quoted(EntityTags.request(moved.request.id, version: moved.version))])
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Requests filtered by status, year and employee, by id, a page at a time: every request for an admin, the
        /// requests of the employees they decide for for an approver or a running substitute. A first page of up to 50
        /// is kept as sent until anyone's data changes (`Services.requestPages`): admins read the pending list far
        /// more often than anyone decides. Later and longer pages are read each time, so that paging through a list
        /// does not push the first pages out.
        group.get("/holidays") { request, context in
            let viewer = try context.requireEmployee()
            var filter = RequestFilter()
            if let text = request.uri.queryParameters.get("status") { filter.status = try HolidayStatus.parse(text, field: "status") }
            filter.year = try request.integerQuery("year", in: HolidayService.supportedYears)
            if let text = request.uri.queryParameters.get("employee"), Int64(text) == nil {
                throw SGError.invalid(field: "employee", message: "'\(text)' is not an employee id; to name an employee by username, send username=\(text)")
            }
            filter.employeeID = try request.integerQuery("employee", in: 1...Int(Int64.max)).map(Int64.init)
            filter.username = try request.textQuery("username", maximumLength: 255)
            filter.teamID = try request.integerQuery("team", in: 1...Int(Int64.max)).map(Int64.init)
            filter.leaveTypeID = try request.integerQuery("leaveType", in: 1...Int(Int64.max)).map(Int64.init)
            filter.afterID = try request.integerQuery("after", in: 0...Int(Int64.max)).map(Int64.init)
            filter.limit = try request.integerQuery("limit", in: 1...RequestFilter.maximumLimit) ?? 50
            let asked = filter
            func render() async throws -> RenderedBody<ByteBuffer> {
                let (page, today, timeZone) = try await services.holidays.datedRequests(asked, by: viewer.actor)
                var json = JSONWriter(capacity: 16 * 1024)
                DTO.RequestList(
                    items: page.items.map {
                        DTO.Request($0.request, employee: $0.employee, viewer: viewer.actor, today: today, approval: $0.approval)
                    },
                    total: page.total, nextAfter: page.nextAfterID
                ).write(to: &json)
                return RenderedBody(today: today, timeZone: timeZone, body: json.buffer)
            }
            guard RequestPageKey.isKept(asked) else { return JSON.response(try await render().body) }
            let now = services.holidays.clock.now()
            let rendered = try await services.requestPages.value(
                for: RequestPageKey(viewerID: viewer.id, filter: asked), isCurrent: { $0.isCurrent(at: now) }, compute: render)
            return JSON.response(rendered.body)
        }

        /// One request with its per-year days, full history, and the requester's other requests and balances in
        /// the years it draws on, so one call serves the decision (its owner or an admin). Its ETag names the
        /// request's version, which every move changes (If-None-Match: 304 while it has not moved).
        group.get("/holidays/:id") { request, context in
            let viewer = try context.requireEmployee()
            let detail = try await services.holidays.requestDetail(
                id: try context.parameters.id("id", what: "Holiday request"), by: viewer.actor)
            let etag = EntityTags.request(detail.request.id, version: detail.version)
            let headers: HTTPFields = [.eTag: EntityTags.quoted(etag)]
            if EntityTags.noneMatch(request.headers[.ifNoneMatch], etag: etag) { return Response(status: .notModified, headers: headers) }
            let today = detail.today
            return JSON.response(written: DTO.RequestDetail(
                request: DTO.Request(detail.request, employee: detail.employee, viewer: viewer.actor, today: today, approval: detail.approval),
                workingDaysByYear: detail.daysByYear,
                history: detail.events.map(DTO.Event.init),
                otherRequests: detail.otherRequests.map {
                    DTO.Request($0, employee: nil, viewer: viewer.actor, today: today, approval: detail.approval)
                },
                balances: detail.balances), headers: headers)
        }

        for action in HolidayAction.allCases {
            /// Moves a request: approve, reject (with a reason), revert (approved or approved by the manager, to
            /// pending) or cancel. If-Match: only from the version read (412 otherwise); with an Idempotency-Key, a
            /// retry gets the first answer again.
            group.post("/holidays/:id/\(action.rawValue)") { request, context in
                let actor = try context.requireEmployee()
                let id = try context.parameters.id("id", what: "Holiday request")
                return try await RetryKey.run(request, context: context, employeeID: actor.id, services: services) { request, key in
                    // Without a body, a rejection still reaches the service, which names the missing reason.
                    let note = action == .reject
                        ? try await JSON.decodeIfPresent(RejectionBody.self, from: request, context: context)?.reason ?? ""
                        : try await JSON.decodeIfPresent(NoteBody.self, from: request, context: context)?.note ?? ""
                    let viewer = actor.actor
                    let updated = try await services.holidays.move(
                        action, on: id, by: viewer, note: note, ifMatch: EntityTags.ifMatch(request, requestID: id),
                        within: RetryKey.keeping(key) { Self.answer($0, viewer: viewer) })
                    return Self.answer(updated, viewer: viewer).response()
                }
            }
        }
    }
}
