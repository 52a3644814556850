import Foundation
import Hummingbird
import SGCore

/// The notice board: company notices for everyone, personal notices for their employee.
struct NoticesController {
    let services: Services

    struct NewBody: JSONObjectBody {
        static let fields = CodingKeys.allCases.map(\.rawValue)
        static let what = "a notice field"

        let title: String
        let body: String
        let pinned: Bool?
        let expiresOn: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case title, body, pinned, expiresOn }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            body = try container.decode(String.self, forKey: .body)
            pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned)
            expiresOn = try container.decodeIfPresent(String.self, forKey: .expiresOn)
        }
    }

    struct PatchBody: JSONObjectBody {
        static let fields = ["title", "body", "pinned", "expiresOn"]
        static let what = "a notice field"

        var patch = NoticePatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for name in ["title", "body", "pinned"] where container.contains(AnyKey(name)) {
                if try container.decodeNil(forKey: AnyKey(name)) { throw SGError.invalid(field: name, message: "cannot be null") }
            }
            patch.title = try container.decodeIfPresent(String.self, forKey: AnyKey("title"))
            patch.body = try container.decodeIfPresent(String.self, forKey: AnyKey("body"))
            patch.pinned = try container.decodeIfPresent(Bool.self, forKey: AnyKey("pinned"))
            switch try container.change(String.self, "expiresOn") {
            case .keep: break
            case .clear: patch.expiresOn = .clear
            case .set(let text): patch.expiresOn = .set(try CalendarDate.parse(text, field: "expiresOn"))
            }
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The caller's board: live company notices and their own personal notices, pinned first, then newest
        /// first, a page at a time. Admins may add `includeExpired=true`.
        group.get("/notices") { request, context in
            let viewer = try context.requireEmployee()
            var cursor: NoticeCursor?
            if let after = request.uri.queryParameters.get("after") {
                guard let parsed = NoticeCursor(String(after)) else {
                    throw SGError.invalid(field: "after", message: "'\(after)' is not a cursor; pass the nextAfter of the previous page")
                }
                cursor = parsed
            }
            let page = try await services.notices.board(
                for: viewer.actor, includeExpired: try request.booleanQuery("includeExpired") ?? false, after: cursor,
                limit: try request.integerQuery("limit", in: 1...NoticeService.maximumLimit) ?? 50)
            return JSON.response(written: DTO.NoticeList(
                items: page.items.map(DTO.NoticeBody.init), total: page.total, unread: page.unread, nextAfter: page.next?.text))
        }

        /// Admin: posts a company notice.
        group.post("/notices") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(NewBody.self, from: request, context: context)
            let draft = NoticeDraft(
                title: body.title, body: body.body, pinned: body.pinned ?? false, expiresOn: try body.expiresOn.map { try CalendarDate.parse($0, field: "expiresOn") })
            let notice = try await services.notices.post(draft, by: admin.actor)
            return JSON.response(written: DTO.NoticeBody(notice), status: .created, headers: [.location: "/v1/notices/\(notice.id)"])
        }

        /// One notice the caller may see.
        group.get("/notices/:id") { _, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Notice")
            let notice = try await services.notices.notice(id: id, for: viewer.actor)
            return JSON.response(written: DTO.NoticeBody(notice))
        }

        /// Admin: edits a company notice (absent keys are kept; `expiresOn: null` removes the expiry).
        group.patch("/notices/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Notice")
            let body = try await JSON.decode(PatchBody.self, from: request, context: context)
            let notice = try await services.notices.edit(id: id, body.patch, by: admin.actor)
            return JSON.response(written: DTO.NoticeBody(notice))
        }

        /// Admin: deletes a company notice.
        group.delete("/notices/:id") { _, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Notice")
            try await services.notices.delete(id: id, by: admin.actor)
            return Response(status: .noContent)
        }

        /// Marks one of the caller's personal notices read.
        group.post("/notices/:id/read") { _, context in
            try await Self.mark(context, read: true, services: services)
        }

        /// Marks one of the caller's personal notices unread.
        group.delete("/notices/:id/read") { _, context in
            try await Self.mark(context, read: false, services: services)
        }
    }

    static func mark(_ context: AppRequestContext, read: Bool, services: Services) async throws -> Response {
        let viewer = try context.requireEmployee()
        let id = try context.parameters.id("id", what: "Notice")
        let notice = try await services.notices.mark(id: id, read: read, by: viewer.id)
        return JSON.response(written: DTO.NoticeBody(notice))
    }
}
