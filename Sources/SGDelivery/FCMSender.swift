import Crypto
import Foundation
import SGCore
import _CryptoExtras

/// Firebase Cloud Messaging's HTTP v1 API with a service account.
public struct FCMConfiguration: Sendable, HoldsSecrets {
    public var account: FCMServiceAccount
    /// `https://fcm.googleapis.com`, without a trailing slash.
    public var url: String

    public static let defaultURL = "https://fcm.googleapis.com"

    public init(account: FCMServiceAccount, url: String = defaultURL) {
        self.account = account
        self.url = url
    }
}

/// What the server uses of a Google service account's JSON key file.
public struct FCMServiceAccount: Sendable {
    public var clientEmail: String
    public var privateKey: _RSA.Signing.PrivateKey
    public var tokenURI: String
    public var projectID: String

    public init(clientEmail: String, privateKey: _RSA.Signing.PrivateKey, tokenURI: String, projectID: String) {
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.tokenURI = tokenURI
        self.projectID = projectID
    }

    /// Reads the key file's `client_email`, `private_key` (PEM, RSA), `token_uri` and `project_id`; throws a message
    /// naming what is missing or wrong.
    public init(json: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw PushSetupError("is not a JSON object (a service account's key file)")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name] as? String, !value.isEmpty else { throw PushSetupError("has no \(name)") }
            return value
        }
        let pem = try field("private_key")
        let key: _RSA.Signing.PrivateKey
        do { key = try _RSA.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw PushSetupError("has a private_key that is not an RSA key in PEM (\(error))")
        }
        let tokenURI = try field("token_uri")
        guard tokenURI.lowercased().hasPrefix("https://") else { throw PushSetupError("has a token_uri that is not https") }
        self.init(clientEmail: try field("client_email"), privateKey: key, tokenURI: tokenURI, projectID: try field("project_id"))
    }
}

extension FCMConfiguration {
    /// With the service account read from `serviceAccountFile`.
    public init(serviceAccountFile path: String, url: String = defaultURL) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw PushSetupError("'\(path)' cannot be read") }
        do {
            self.init(account: try FCMServiceAccount(json: data), url: url)
        } catch let error as PushSetupError {
            throw PushSetupError("'\(path)' \(error.description)")
        }
    }
}

extension PushSender {

    static let fcmScope = "https://www.googleapis.com/auth/firebase.messaging"

    /// An OAuth access token for the service account: the one held, or a new one for a signed assertion.
    private func fcmAccessToken(_ fcm: FCMConfiguration, at now: Date, on lane: CurlLane) async -> Result<String, PushSetupError> {
        if let held = await fcmTokens.current(at: now) { return .success(held) }
        let account = fcm.account
        let issued = Int64(now.timeIntervalSince1970)
        let assertion: String
        do {
            assertion = try JWT.rs256(
                claims: [
                    "iss": .text(account.clientEmail), "scope": .text(Self.fcmScope), "aud": .text(account.tokenURI),
                    "iat": .number(issued), "exp": .number(issued + 3600),
                ],
                key: account.privateKey)
        } catch {
            return .failure(PushSetupError("cannot sign the FCM assertion: \(error)"))
        }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let response = await lane.perform(post(
            account.tokenURI, headers: ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"],
            body: Array(form.utf8)))
        guard response.completed else { return .failure(PushSetupError("FCM access token: \(response.failure)")) }
        let answer = Self.json(response)
        guard response.responseCode == 200, let token = answer["access_token"] as? String, !token.isEmpty else {
            let detail = (answer["error_description"] ?? answer["error"]).map { "\($0)" }
            return .failure(PushSetupError("FCM access token: " + Self.reason("the token endpoint", response, detail)))
        }
        let lifetime = (answer["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        // Renewed five minutes before it ends (or at half its life, when it is short).
        await fcmTokens.keep(token, until: now.addingTimeInterval(max(lifetime / 2, lifetime - 300)))
        return .success(token)
    }

    func sendFCM(
        _ notification: PushNotification, token: String, _ fcm: FCMConfiguration, at now: Date, on lane: CurlLane, renewed: Bool = false
    ) async -> DeliveryOutcome {
        let access: String
        switch await fcmAccessToken(fcm, at: now, on: lane) {
        case .success(let token): access = token
        case .failure(let error): return .temporaryFailure(error.description)
        }
        var data = ["event": notification.event]
        var fcmMessage: [String: Any] = ["token": token, "notification": ["title": notification.title, "body": notification.body]]
        if let request = notification.requestId {
            data["requestId"] = String(request)
            fcmMessage["android"] = ["collapse_key": "request-\(request)"]
        }
        fcmMessage["data"] = data
        let response = await lane.perform(post(
            "\(fcm.url)/v1/projects/\(fcm.account.projectID)/messages:send",
            headers: ["Authorization: Bearer \(access)", "Content-Type: application/json"], body: Self.body(["message": fcmMessage])))
        guard response.completed else { return .temporaryFailure("FCM: \(response.failure)") }
        let error = Self.json(response)["error"] as? [String: Any] ?? [:]
        let details = error["details"] as? [[String: Any]] ?? []
        let code = details.compactMap { $0["errorCode"] as? String }.first
        let onToken = details.contains { detail in
            (detail["fieldViolations"] as? [[String: Any]] ?? []).contains { $0["field"] as? String == "message.token" }
        }
        let words = Self.reason("FCM", response, [code ?? error["status"] as? String, error["message"] as? String].compactMap { $0 }.joined(separator: " ").nilIfEmpty)
        switch response.responseCode {
        case 200:
            return .delivered
        // Only an answer about the token removes the device: a 404 for a wrong project or URL must not.
        case 404 where code == "UNREGISTERED", 400 where code == "UNREGISTERED" || onToken:
            return .gone(words)
        case 401 where !renewed:
            await fcmTokens.discard(access)
            return await sendFCM(notification, token: token, fcm, at: now, on: lane, renewed: true)
        case 401, 429, 500...599:
            return Self.retryLater(words, response, at: now)
        default:
            return .permanentFailure(words)
        }
    }

}
