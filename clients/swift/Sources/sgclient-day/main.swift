// sgclient-day BASE_URL: an employee's and an admin's day against a live demo server (`sgserver --seed-demo`),
// through the client generated from api-spec/openapi.yaml. Each step checks what came back, errors included as
// typed problems; the first surprise ends the run with exit status 1, naming it.
import Foundation
import HTTPTypes
import OpenAPIRuntime
import SGEmployeeClient

struct Surprise: Error, CustomStringConvertible {
    let description: String
}

/// Sends `Authorization: Bearer TOKEN` on every call.
struct Bearer: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// How many steps went as expected.
@MainActor final class Steps {
    static var done = 0
}

@MainActor func step<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
    do {
        let value = try await body()
        Steps.done += 1
        print("ok: \(what)")
        return value
    } catch {
        throw Surprise(description: "\(what): \(error)")
    }
}

func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw Surprise(description: message()) }
}

/// A 2×2 PNG, whole: the server judges a photo by its bytes.
let photo: [UInt8] = Array(
    Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP438AARAwQCgAt7gX9iz9uhAAAAABJRU5ErkJggg==")!)

@MainActor func day(base: URL) async throws {
    let anonymous = Client.connect(to: base)

    try await step("a wrong password is a typed unauthenticated problem") {
        let output = try await anonymous.login(body: .json(.init(username: "alice", password: "not-her-password")))
        guard case .unauthorized(let response) = output else { throw Surprise(description: "got \(output)") }
        let problem = try response.body.applicationProblemJson
        try expect(problem.value1.status == 401, "status \(problem.value1.status)")
        try expect(problem.value1._type == .urn_colon_sgemployee_colon_problem_colon_unauthenticated, "type \(String(describing: problem.value2._type))")
    }

    func session(_ username: String) async throws -> Client {
        try await step("\(username) logs in") {
            let output = try await anonymous.login(body: .json(.init(username: username, password: "\(username)-demo-2026")))
            return Client.connect(to: base, middlewares: [Bearer(token: try output.ok.body.json.token)])
        }
    }
    let alice = try await session("alice")
    let admin = try await session("admin")

    let me = try await step("alice reads her profile") {
        let profile = try await alice.getMe().ok.body.json
        try expect(profile.username == "alice", "the profile is \(profile.username)'s")
        return profile
    }
    try await step("alice changes her position and clears her birth date") {
        let profile = try await alice.updateMe(body: .json(.init(position: "Tester of clients", birthDate: ""))).ok.body.json
        try expect(profile.position == "Tester of clients", "position \(String(describing: profile.position))")
        try expect(profile.birthDate == nil, "birth date \(String(describing: profile.birthDate))")
    }
    let etag = try await step("alice uploads a photo") {
        let stored = try await alice.setMyPhoto(body: .png(HTTPBody(photo))).ok.body.json
        try expect(stored.width == 2 && stored.height == 2, "stored \(stored.width)×\(stored.height)")
        return stored.etag
    }
    try await step("a colleague downloads it, then revalidates it (304)") {
        let first = try await admin.getEmployeePhoto(path: .init(id: me.id)).ok
        try expect(first.headers.eTag == "\"\(etag)\"", "ETag \(first.headers.eTag)")
        let bytes = try await [UInt8](collecting: try first.body.png, upTo: 1 << 20)
        try expect(bytes == photo, "the photo came back as \(bytes.count) other bytes")
        let again = try await admin.getEmployeePhoto(path: .init(id: me.id), headers: .init(ifNoneMatch: first.headers.eTag))
        guard case .notModified = again else { throw Surprise(description: "got \(again)") }
    }
    try await step("a photo that is not an image is a typed unsupported-media-type problem") {
        let output = try await alice.setMyPhoto(body: .png(HTTPBody(Array("not a picture".utf8))))
        guard case .unsupportedMediaType(let response) = output else { throw Surprise(description: "got \(output)") }
        try expect(try response.body.applicationProblemJson.value1.status == 415, "not 415")
    }
    try await step("alice browses the directory") {
        let page = try await alice.listEmployees().ok.body.json
        try expect(page.items.contains { $0.username == "alice" }, "the directory does not list alice")
        try expect(page.total >= page.items.count, "total \(page.total) < \(page.items.count) listed")
    }

    // A Monday to Wednesday in September of next year, clear of the demo's requests.
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let year = calendar.component(.year, from: Date()) + 1
    let firstOfSeptember = calendar.date(from: DateComponents(year: year, month: 9, day: 1))!
    let toMonday = (9 - calendar.component(.weekday, from: firstOfSeptember)) % 7
    let monday = calendar.date(byAdding: .day, value: toMonday + 21, to: firstOfSeptember)!
    let formatter = DateFormatter()
    formatter.calendar = calendar
    formatter.timeZone = calendar.timeZone
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy-MM-dd"
    let start = formatter.string(from: monday)
    let end = formatter.string(from: calendar.date(byAdding: .day, value: 2, to: monday)!)

    let request = try await step("alice asks for \(start) to \(end)") {
        let created = try await alice.createMyHoliday(
            body: .json(.init(startDate: start, endDate: end, comment: "from the Swift client"))).created.body.json
        try expect(created.value1.status.value1 == .pending, "status \(created.value1.status)")
        try expect(created.value1.workingDays == 3, "\(created.value1.workingDays) working days")
        return created.value1
    }
    try await step("the same days again are a typed overlap problem") {
        let output = try await alice.createMyHoliday(body: .json(.init(startDate: start, endDate: start)))
        guard case .conflict(let response) = output else { throw Surprise(description: "got \(output)") }
        let overlap = try response.body.applicationProblemJson.value1
        try expect(overlap?.value1.conflictingRequestId == request.id, "overlap \(String(describing: overlap))")
    }
    try await step("alice may not approve her own request (typed forbidden problem)") {
        let output = try await alice.approveHoliday(path: .init(id: request.id))
        guard case .forbidden(let response) = output else { throw Surprise(description: "got \(output)") }
        try expect(try response.body.applicationProblemJson.value1.status == 403, "not 403")
    }
    try await step("the admin finds it among the pending requests") {
        var after: Int64?
        var found = false
        repeat {
            let page = try await admin.listHolidays(query: .init(status: .pending, after: after, limit: 200)).ok.body.json
            found = found || page.items.contains { $0.value1.id == request.id }
            after = page.nextAfter
        } while !found && after != nil
        try expect(found, "request \(request.id) is not pending")
    }
    try await step("the admin approves it") {
        let moved = try await admin.approveHoliday(path: .init(id: request.id)).ok.body.json
        try expect(moved.value1.status.value1 == .approved, "status \(moved.value1.status)")
    }
    try await step("approving it again is a typed wrong-state problem") {
        let output = try await admin.approveHoliday(path: .init(id: request.id))
        guard case .conflict(let response) = output else { throw Surprise(description: "got \(output)") }
        let wrongState = try response.body.applicationProblemJson.value1
        try expect(wrongState?.value1.currentStatus?.value1 == .approved, "problem \(String(describing: wrongState))")
    }
    try await step("the request's history reads created, then approved") {
        let detail = try await alice.getHoliday(path: .init(id: request.id)).ok.body.json
        let moves = detail.value2.history.map { "\($0.from?.value1?.rawValue ?? "none")→\($0.to.value1?.rawValue ?? $0.to.value2 ?? "?")" }
        try expect(moves == ["none→pending", "pending→approved"], "history \(moves)")
    }
    try await step("alice's notice board reports the approval, and she marks it read") {
        let board = try await alice.listNotices().ok.body.json
        guard let notice = board.items.first(where: { $0.request?.id == request.id && $0.request?.to.value1 == .approved }) else {
            throw Surprise(description: "no notice of the approval among \(board.items.count)")
        }
        try expect(notice.read == false, "the notice is already read")
        _ = try await alice.markNoticeRead(path: .init(id: notice.id)).ok
    }
    try await step("the admin posts a company notice that alice reads") {
        let posted = try await admin.postNotice(body: .json(.init(title: "Client day", body: "Generated clients work."))).created.body.json
        let board = try await alice.listNotices().ok.body.json
        try expect(board.items.contains { $0.id == posted.id && $0.request == nil }, "alice does not see notice \(posted.id)")
    }
    try await step("alice cancels her request") {
        let cancelled = try await alice.cancelHoliday(path: .init(id: request.id)).ok.body.json
        try expect(cancelled.value1.status.value1 == .cancelled, "status \(cancelled.value1.status)")
    }
    try await step("an unknown request is a typed not-found problem") {
        let output = try await alice.getHoliday(path: .init(id: 999_999_999))
        guard case .notFound(let response) = output else { throw Surprise(description: "got \(output)") }
        try expect(try response.body.applicationProblemJson.value1.status == 404, "not 404")
    }
    try await step("alice logs out, and her token no longer works") {
        _ = try await alice.logout().noContent
        guard case .unauthorized = try await alice.getMe() else { throw Surprise(description: "the token still works") }
    }
}

guard CommandLine.arguments.count == 2, let base = URL(string: CommandLine.arguments[1]) else {
    FileHandle.standardError.write(Data("usage: sgclient-day BASE_URL\n".utf8))
    exit(2)
}
do {
    try await day(base: base)
    print("swift client: \(Steps.done) steps ok")
} catch {
    print("FAILED: \(error)")
    exit(1)
}
