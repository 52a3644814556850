import Foundation
import Hummingbird
import SGCore

/// The logged-in employee's profile and photo.
struct ProfileController {
    let services: Services

    var owned: Set<ProfileField> { services.sessions.directory.ownedFields }

    /// PATCH /v1/me: absent keys are kept, `null` clears an optional field.
    struct PatchBody: JSONObjectBody {
        static let fields = ProfileField.employeeEditable.map(\.rawValue)
        static let what = "a profile field an employee can change"

        var patch = ProfilePatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            patch.name = try container.change(String.self, "name")
            patch.surname = try container.change(String.self, "surname")
            patch.position = try container.change(String.self, "position")
            patch.birthDate = try container.change(String.self, "birthDate")
            patch.phone = try container.change(String.self, "phone")
            patch.twitter = try container.change(String.self, "twitter")
            patch.linkedin = try container.change(String.self, "linkedin")
            patch.language = try container.change(String.self, "language")
        }
    }

    struct PasswordBody: JSONObjectBody {
        static let fields = ["currentPassword", "newPassword"]

        let currentPassword: String
        let newPassword: String
    }

    /// The condition of the request's If-Match on the profile's tag, a digest of its body.
    static func ifMatch(_ request: Request, owned: Set<ProfileField>) -> (@Sendable (Profile) -> Bool)? {
        guard let matches = EntityTags.ifMatch(request) else { return nil }
        return { current in
            guard let body = try? JSON.encoder.encode(DTO.ProfileBody(current, owned: owned)) else { return false }
            return matches(EntityTags.digest(body))
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Changes the logged-in employee's password. The token of this call stays valid; the employee's other
        /// sessions end, as a stolen session should when its owner changes the password.
        group.put("/me/password") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(PasswordBody.self, from: request, context: context)
            try await services.passwords.changePassword(
                employeeID: employee.id, current: body.currentPassword, new: body.newPassword, keepingToken: context.token,
                clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies))
            return Response(status: .noContent)
        }

        /// The logged-in employee's profile, private fields included, and which fields they may change. Its ETag is
        /// a digest of the body (If-None-Match: 304 while it is the same).
        group.get("/me") { request, context in
            let employee = try context.requireEmployee()
            let profile = try await services.people.profile(employeeID: employee.id)
            let body = try JSON.encoder.encode(DTO.ProfileBody(profile, owned: owned))
            let etag = EntityTags.digest(body)
            let headers: HTTPFields = [.eTag: EntityTags.quoted(etag)]
            if EntityTags.noneMatch(request.headers[.ifNoneMatch], etag: etag) { return Response(status: .notModified, headers: headers) }
            return JSON.response(ByteBuffer(bytes: body), headers: headers)
        }

        /// Changes the logged-in employee's profile; fields the directory holds are refused, naming the field.
        /// If-Match: only the profile as read (412 otherwise).
        group.patch("/me") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(PatchBody.self, from: request, context: context)
            let profile = try await services.people.updateProfile(
                employeeID: employee.id, body.patch, owned: owned, directoryKind: services.sessions.directory.kind,
                ifMatch: Self.ifMatch(request, owned: owned))
            let updated = try JSON.encoder.encode(DTO.ProfileBody(profile, owned: owned))
            return JSON.response(ByteBuffer(bytes: updated), headers: [.eTag: EntityTags.quoted(EntityTags.digest(updated))])
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
            let (version, inspected) = try await services.people.setPhoto(
                employeeID: employee.id, bytes: Array(buffer.readableBytesView))
            return try JSON.response(
                DTO.PhotoBody(
                    photoUrl: DTO.photoURL(employeeID: employee.id, version: version), etag: version.etag,
                    contentType: version.contentType, width: inspected.width, height: inspected.height,
                    bytes: buffer.readableBytes),
                headers: [.eTag: EntityTags.quoted(version.etag)])
        }

        /// Removes the logged-in employee's photo (204 also when there was none).
        group.delete("/me/photo") { _, context in
            try await services.people.deletePhoto(employeeID: try context.requireEmployee().id)
            return Response(status: .noContent)
        }
    }
}
