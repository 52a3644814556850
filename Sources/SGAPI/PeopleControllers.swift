import Foundation
import Hummingbird
import SGCore
import SGStore

/// A JSON object key of any name, for bodies whose keys are checked one by one.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// Absent: keep; `null`: clear; a value: set.
    func change<T: Decodable & Sendable & Equatable>(_ type: T.Type, _ name: String) throws -> Change<T> {
        let key = AnyKey(name)
        guard contains(key) else { return .keep }
        return try decodeNil(forKey: key) ? .clear : .set(decode(T.self, forKey: key))
    }

    /// Refuses keys the body does not know, naming the first one and the keys it takes.
    func onlyKeys(_ known: [String], what: String) throws {
        if let unknown = allKeys.map(\.stringValue).sorted().first(where: { !known.contains($0) }) {
            throw SGError.invalid(field: unknown, message: "is not \(what); send any of \(known.joined(separator: ", "))")
        }
    }
}

extension Request {
    /// A `true`/`false` query parameter, or nil when absent; anything else is a 422.
    func booleanQuery(_ name: String) throws -> Bool? {
        guard let text = uri.queryParameters.get(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw SGError.invalid(field: name, message: "'\(text)' is not true or false")
        }
    }
}

/// The logged-in employee's profile, photo and notification settings.
struct ProfileController {
    let services: Services

    var owned: Set<ProfileField> { services.sessions.directory.ownedFields }

    /// PATCH /v1/me: absent keys are kept, `null` clears an optional field.
    struct PatchBody: Decodable {
        var patch = ProfilePatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            try container.onlyKeys(ProfileField.employeeEditable.map(\.rawValue), what: "a profile field an employee can change")
            patch.name = try container.change(String.self, "name")
            patch.surname = try container.change(String.self, "surname")
            patch.position = try container.change(String.self, "position")
            patch.birthDate = try container.change(String.self, "birthDate")
            patch.phone = try container.change(String.self, "phone")
            patch.twitter = try container.change(String.self, "twitter")
            patch.linkedin = try container.change(String.self, "linkedin")
        }
    }

    struct SettingsBody: Decodable {
        let notifications: Bool
    }

    struct DeviceBody: Decodable {
        let token: String
        let platform: String
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The logged-in employee's profile, private fields included, and which fields they may change.
        group.get("/me") { _, context in
            let employee = try context.requireEmployee()
            guard let profile = try await services.database.profile(employeeID: employee.id) else {
                throw SGError.unauthenticated("This account no longer exists. Log in again.")
            }
            return try JSON.response(DTO.ProfileBody(profile, owned: owned))
        }

        /// Changes the logged-in employee's profile; fields the directory holds are refused, naming the field.
        group.patch("/me") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(PatchBody.self, from: request, context: context)
            let profile = try await services.database.updateProfile(
                employeeID: employee.id, body.patch, owned: owned, directoryKind: services.sessions.directory.kind,
                at: services.holidays.clock.now())
            return try JSON.response(DTO.ProfileBody(profile, owned: owned))
        }

        /// Replaces the logged-in employee's photo with the body's bytes (JPEG or PNG, judged by content).
        group.put("/me/photo") { request, context in
            let employee = try context.requireEmployee()
            let tooLarge = SGError.payloadTooLarge(
                "A photo can be at most \(PhotoRules.maximumBytes / 1024 / 1024) MiB. Scale it down first.")
            if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > PhotoRules.maximumBytes {
                throw tooLarge
            }
            let buffer: ByteBuffer
            do {
                buffer = try await request.body.collect(upTo: PhotoRules.maximumBytes)
            } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
                throw tooLarge
            }
            let (version, inspected) = try await services.database.setPhoto(
                employeeID: employee.id, bytes: Array(buffer.readableBytesView), at: services.holidays.clock.now())
            return try JSON.response(
                DTO.PhotoBody(
                    photoUrl: DTO.photoURL(employeeID: employee.id, version: version), etag: version.etag,
                    contentType: version.contentType, width: inspected.width, height: inspected.height,
                    bytes: buffer.readableBytes),
                headers: [.eTag: "\"\(version.etag)\""])
        }

        /// Removes the logged-in employee's photo (204 also when there was none).
        group.delete("/me/photo") { _, context in
            try await services.database.deletePhoto(employeeID: try context.requireEmployee().id)
            return Response(status: .noContent)
        }

        /// The logged-in employee's notification switch and registered devices.
        group.get("/me/settings") { _, context in
            let employee = try context.requireEmployee()
            return try JSON.response(DTO.SettingsBody(try await services.database.notificationSettings(employeeID: employee.id)))
        }

        /// Turns notifications on or off; off also removes every registered device.
        group.put("/me/settings") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(SettingsBody.self, from: request, context: context)
            let settings = try await services.database.setNotifications(employeeID: employee.id, enabled: body.notifications)
            return try JSON.response(DTO.SettingsBody(settings))
        }

        /// Registers a device's push token (201 when new, 200 when already registered).
        group.post("/me/devices") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(DeviceBody.self, from: request, context: context)
            let platform = try DeviceRules.platform(body.platform)
            let (device, created) = try await services.database.registerDevice(
                employeeID: employee.id, token: body.token, platform: platform, at: services.holidays.clock.now())
            return try JSON.response(DTO.DeviceBody(device), status: created ? .created : .ok)
        }

        /// Unregisters one of the logged-in employee's devices.
        group.delete("/me/devices/:token") { _, context in
            let employee = try context.requireEmployee()
            let token = context.parameters.get("token").flatMap { $0.removingPercentEncoding } ?? ""
            try await services.database.removeDevice(employeeID: employee.id, token: token)
            return Response(status: .noContent)
        }
    }
}

/// The team directory, photos, and the admin's view of any employee's holidays.
struct DirectoryController {
    let services: Services

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Everyone, in directory order (surname, name, id; case and accents ignored), searchable, a page at a time.
        group.get("/employees") { request, context in
            _ = try context.requireEmployee()
            var query = DirectoryQuery()
            if let q = request.uri.queryParameters.get("q") {
                query.search = String(q)
            }
            query.active = try request.booleanQuery("active")
            query.afterID = try request.integerQuery("after", in: 1...Int(Int64.max)).map(Int64.init)
            query.limit = try request.integerQuery("limit", in: 1...200) ?? 50
            let page = try await services.database.directory(query)
            return try JSON.response(DTO.DirectoryList(
                items: page.items.map(DTO.DirectoryEntry.init), total: page.total, active: page.active,
                nextAfter: page.nextAfterID))
        }

        /// One colleague's public profile.
        group.get("/employees/:id") { _, context in
            _ = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            guard let profile = try await services.database.profile(employeeID: id) else {
                throw SGError.notFound("Employee \(id) does not exist.")
            }
            return try JSON.response(DTO.DirectoryEntry(profile))
        }

        /// An employee's photo. With `?v=` naming the current version it may be cached for good; without it,
        /// clients revalidate with If-None-Match (304 when unchanged).
        group.get("/employees/:id/photo") { request, context in
            _ = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let photo = try await services.database.photo(employeeID: id) { version in
                !Self.matches(ifNoneMatch, etag: version.etag)
            }
            let versioned = request.uri.queryParameters.get("v").map { String($0) } == photo.version.etag
            var headers: HTTPFields = [
                .eTag: "\"\(photo.version.etag)\"",
                .cacheControl: versioned ? "private, max-age=31536000, immutable" : "private, no-cache",
            ]
            guard let data = photo.data else { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = photo.version.contentType
            headers[.init("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }

        /// Admin (or the employee themself): any employee's requests touching a year and that year's balance,
        /// inactive employees included, with the years that hold data.
        group.get("/employees/:id/holidays") { request, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            guard HolidayRules.mayRead(holidaysOf: id, by: viewer.actor) else {
                throw SGError.forbidden("Only an admin can read another employee's holidays.")
            }
            let year = try request.integerQuery("year", in: HolidayService.supportedYears)
            let found = try await services.database.employeeYear(employeeID: id, year: year, at: services.holidays.clock.now())
            guard let profile = try await services.database.profile(employeeID: id) else {
                throw SGError.notFound("Employee \(id) does not exist.")
            }
            let view = found.view
            return JSON.response(written: DTO.EmployeeYear(
                employee: try JSON.encoder.encode(DTO.DirectoryEntry(profile)), year: view.year,
                requests: view.requests.map { DTO.Request($0, employee: nil, viewer: viewer.actor, today: view.today) },
                balance: view.balance, years: found.years))
        }
    }

    /// RFC 9110 If-None-Match: `*`, or a list of entity tags compared weakly.
    static func matches(_ header: String?, etag: String) -> Bool {
        guard let header else { return false }
        if header.trimmingCharacters(in: .whitespaces) == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == "\"\(etag)\""
        }
    }
}

/// The notice board: company notices for everyone, personal notices for their employee.
struct NoticesController {
    let services: Services

    struct NewBody: Decodable {
        let title: String
        let body: String
        let pinned: Bool?
        let expiresOn: String?

        enum CodingKeys: String, CodingKey, CaseIterable { case title, body, pinned, expiresOn }

        init(from decoder: any Decoder) throws {
            try decoder.container(keyedBy: AnyKey.self).onlyKeys(CodingKeys.allCases.map(\.rawValue), what: "a notice field")
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            body = try container.decode(String.self, forKey: .body)
            pinned = try container.decodeIfPresent(Bool.self, forKey: .pinned)
            expiresOn = try container.decodeIfPresent(String.self, forKey: .expiresOn)
        }
    }

    struct PatchBody: Decodable {
        var patch = NoticePatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            try container.onlyKeys(["title", "body", "pinned", "expiresOn"], what: "a notice field")
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
            var query = NoticeQuery(viewerID: viewer.id)
            query.includeExpired = try request.booleanQuery("includeExpired") ?? false
            if query.includeExpired { try NoticeRules.checkListsExpired(viewer.actor) }
            if let after = request.uri.queryParameters.get("after") {
                guard let cursor = NoticeCursor(String(after)) else {
                    throw SGError.invalid(field: "after", message: "'\(after)' is not a cursor; pass the nextAfter of the previous page")
                }
                query.after = cursor
            }
            query.limit = try request.integerQuery("limit", in: 1...200) ?? 50
            let page = try await services.database.notices(query, at: services.holidays.clock.now())
            return try JSON.response(DTO.NoticeList(
                items: page.items.map(DTO.NoticeBody.init), total: page.total, unread: page.unread, nextAfter: page.next?.text))
        }

        /// Admin: posts a company notice.
        group.post("/notices") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(NewBody.self, from: request, context: context)
            let draft = NoticeDraft(
                title: body.title, body: body.body, pinned: body.pinned ?? false, expiresOn: try body.expiresOn.map { try CalendarDate.parse($0, field: "expiresOn") })
            let notice = try await services.database.postNotice(draft, by: admin.actor, at: services.holidays.clock.now())
            return try JSON.response(DTO.NoticeBody(notice), status: .created, headers: [.location: "/v1/notices/\(notice.id)"])
        }

        /// One notice the caller may see.
        group.get("/notices/:id") { _, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Notice")
            let notice = try await services.database.notice(
                id: id, viewerID: viewer.id, includeExpired: NoticeRules.seesExpired(viewer.actor), at: services.holidays.clock.now())
            return try JSON.response(DTO.NoticeBody(notice))
        }

        /// Admin: edits a company notice (absent keys are kept; `expiresOn: null` removes the expiry).
        group.patch("/notices/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Notice")
            let body = try await JSON.decode(PatchBody.self, from: request, context: context)
            let notice = try await services.database.editNotice(id: id, body.patch, by: admin.actor, at: services.holidays.clock.now())
            return try JSON.response(DTO.NoticeBody(notice))
        }

        /// Admin: deletes a company notice.
        group.delete("/notices/:id") { _, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Notice")
            try await services.database.deleteNotice(id: id, by: admin.actor)
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
        let notice = try await services.database.markNotice(id: id, read: read, employeeID: viewer.id, at: services.holidays.clock.now())
        return try JSON.response(DTO.NoticeBody(notice))
    }
}

/// The company's details and settings.
struct CompanyController {
    let services: Services

    /// PUT /v1/company replaces the company: `name`, `workingWeek` and `defaultAllowance` are required; an
    /// absent or null address, phone, email or website is cleared; `timeZone` is kept when absent.
    struct PutBody: Decodable {
        var patch = CompanyPatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            try container.onlyKeys(
                ["name", "address", "phone", "email", "website", "workingWeek", "defaultAllowance", "timeZone"],
                what: "a company field")
            patch.name = try container.decode(String.self, forKey: AnyKey("name"))
            for (name, keyPath) in [
                ("address", \CompanyPatch.address), ("phone", \CompanyPatch.phone), ("email", \CompanyPatch.email),
                ("website", \CompanyPatch.website),
            ] {
                let change = try container.change(String.self, name)
                patch[keyPath: keyPath] = change == .keep ? .clear : change
            }
            patch.workingWeek = try CompanyRules.workingWeek(try container.decode([Int].self, forKey: AnyKey("workingWeek")))
            // Read as a number of any shape so that 1.5 gets a 422 naming the field, not a parse error.
            patch.defaultAllowance = try JSON.wholeDays(
                try container.decode(Double.self, forKey: AnyKey("defaultAllowance")), field: "defaultAllowance")
            patch.timeZone = try container.decodeIfPresent(String.self, forKey: AnyKey("timeZone"))
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The company's name, contact details, working week, default allowance and time zone.
        group.get("/company") { _, context in
            _ = try context.requireEmployee()
            return try JSON.response(DTO.CompanyBody(try await services.holidays.company()))
        }

        /// Admin: replaces the company's details and settings in one transaction.
        group.put("/company") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(PutBody.self, from: request, context: context)
            return try JSON.response(DTO.CompanyBody(try await services.holidays.updateCompany(body.patch, by: admin.actor)))
        }
    }
}
