import ArgumentParser
import Foundation
import SGCore
import SGDelivery

/// The push settings as command-line options of `sgserver`. Key files only: a key itself has no flag.
public struct PushOptions: ParsableArguments {
    @Option(name: .customLong("apns-key-file"), help: "APNs: the .p8 key file (token authentication) [SG_APNS_KEY_FILE].")
    public var apnsKeyFile: String?
    @Option(name: .customLong("apns-key-id"), help: "APNs: the key's id [SG_APNS_KEY_ID].")
    public var apnsKeyID: String?
    @Option(name: .customLong("apns-team-id"), help: "APNs: the team id [SG_APNS_TEAM_ID].")
    public var apnsTeamID: String?
    @Option(name: .customLong("apns-topic"), help: "APNs: the iOS app's bundle id [SG_APNS_TOPIC].")
    public var apnsTopic: String?
    @Option(name: .customLong("apns-url"), help: "APNs: the provider API [SG_APNS_URL, default \(APNsConfiguration.defaultURL)].")
    public var apnsURL: String?
    @Option(name: .customLong("fcm-service-account-file"), help: "FCM: the service account's JSON key file [SG_FCM_SERVICE_ACCOUNT_FILE].")
    public var fcmServiceAccountFile: String?
    @Option(name: .customLong("fcm-url"), help: "FCM: the HTTP v1 API [SG_FCM_URL, default \(FCMConfiguration.defaultURL)].")
    public var fcmURL: String?
    @Option(name: .customLong("vapid-private-key-file"), help: "Web Push: the VAPID key file (sgadmin push vapid-keys) [SG_VAPID_PRIVATE_KEY_FILE].")
    public var vapidPrivateKeyFile: String?
    @Option(name: .customLong("vapid-subject"), help: "Web Push: mailto: or https: contact for the push services [SG_VAPID_SUBJECT].")
    public var vapidSubject: String?

    public init() {}

    /// The flags given, keyed by their environment variable's name.
    public var flags: [String: String?] {
        [
            "SG_APNS_KEY_FILE": apnsKeyFile, "SG_APNS_KEY_ID": apnsKeyID, "SG_APNS_TEAM_ID": apnsTeamID, "SG_APNS_TOPIC": apnsTopic,
            "SG_APNS_URL": apnsURL, "SG_FCM_SERVICE_ACCOUNT_FILE": fcmServiceAccountFile, "SG_FCM_URL": fcmURL,
            "SG_VAPID_PRIVATE_KEY_FILE": vapidPrivateKeyFile, "SG_VAPID_SUBJECT": vapidSubject,
        ]
    }
}

extension SettingsResolver {
    /// Reads the SG_APNS_*, SG_FCM_* and SG_VAPID_* settings: each platform is on when its settings are given, and
    /// a key file that is missing, unreadable or not a key is a problem named by its setting.
    public mutating func pushConfiguration(caFile: String?) -> PushConfiguration {
        var push = PushConfiguration(caFile: caFile)

        let apnsNames = ["SG_APNS_KEY_FILE", "SG_APNS_KEY_ID", "SG_APNS_TEAM_ID", "SG_APNS_TOPIC"]
        let apnsURL = httpsURL("SG_APNS_URL", default: APNsConfiguration.defaultURL)
        if apnsNames.contains(where: { text($0) != nil }) {
            let missing = apnsNames.filter { text($0) == nil }
            if !missing.isEmpty {
                problem("APNs needs \(missing.map(label).joined(separator: ", ")) too (with \(apnsNames.filter { text($0) != nil }.map(label).joined(separator: ", ")))")
            } else if let file = text("SG_APNS_KEY_FILE"), let keyID = text("SG_APNS_KEY_ID"), let teamID = text("SG_APNS_TEAM_ID"),
                      let topic = text("SG_APNS_TOPIC")
            {
                do {
                    push.apns = try APNsConfiguration(keyFile: file, keyID: keyID, teamID: teamID, topic: topic, url: apnsURL)
                } catch {
                    problem("\(label("SG_APNS_KEY_FILE")) \(error)")
                }
            }
        }

        let fcmURL = httpsURL("SG_FCM_URL", default: FCMConfiguration.defaultURL)
        if let file = text("SG_FCM_SERVICE_ACCOUNT_FILE") {
            do {
                push.fcm = try FCMConfiguration(serviceAccountFile: file, url: fcmURL)
            } catch {
                problem("\(label("SG_FCM_SERVICE_ACCOUNT_FILE")) \(error)")
            }
        }

        let vapidFile = text("SG_VAPID_PRIVATE_KEY_FILE")
        let subject = text("SG_VAPID_SUBJECT")
        if vapidFile != nil || subject != nil {
            if let subject, !(subject.hasPrefix("mailto:") || subject.hasPrefix("https://")) {
                problem("\(label("SG_VAPID_SUBJECT")) '\(subject)' is not a mailto: or https: URL (how the push services reach you)")
            }
            switch (vapidFile, subject) {
            case (let file?, let subject?):
                do {
                    push.webPush = try WebPushConfiguration(keyFile: file, subject: subject)
                } catch {
                    problem("\(label("SG_VAPID_PRIVATE_KEY_FILE")) \(error)")
                }
            case (nil, _): problem("Web Push needs \(label("SG_VAPID_PRIVATE_KEY_FILE")) too (make one with `sgadmin push vapid-keys`)")
            case (_, nil): problem("Web Push needs \(label("SG_VAPID_SUBJECT")) too, e.g. mailto:ops@example.com")
            }
        }
        return push
    }

    /// An https:// URL with a host, without a trailing slash; `fallback` when unset.
    private mutating func httpsURL(_ name: String, default fallback: String) -> String {
        guard let url = text(name) else { return fallback }
        let trimmed = String(url.reversed().drop { $0 == "/" }.reversed())
        guard let components = URLComponents(string: trimmed), components.scheme?.lowercased() == "https",
              let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
        else {
            problem("\(label(name)) '\(url)' is not an https:// URL without a query")
            return fallback
        }
        return trimmed
    }
}
