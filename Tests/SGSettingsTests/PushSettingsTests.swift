import Foundation
import SGCore
import SGDelivery
import SGSettings
import Testing

@Suite("sgserver's push settings")
struct PushSettingsTests {
    @Test("each platform is on when configured; the configuration names the platforms and the VAPID public key")
    func configured() throws {
        let apnsKey = try DeliverySettingsTests.file(WebPushConfiguration.newKey().pem)
        let (vapidPEM, vapidPublic) = WebPushConfiguration.newKey()
        let vapidKey = try DeliverySettingsTests.file(vapidPEM)
        defer { for path in [apnsKey, vapidKey] { try? FileManager.default.removeItem(atPath: path) } }
        #expect(try DeliverySettingsTests.resolve(environment: [:]).delivery.push.platforms.isEmpty)
        let settings = try DeliverySettingsTests.resolve(environment: [
            "SG_APNS_KEY_FILE": apnsKey, "SG_APNS_KEY_ID": "ABC123DEFG", "SG_APNS_TEAM_ID": "DEF123GHIJ", "SG_APNS_TOPIC": "com.example.app",
            "SG_VAPID_PRIVATE_KEY_FILE": vapidKey, "SG_VAPID_SUBJECT": "mailto:ops@example.com",
        ])
        #expect(settings.delivery.push.platforms == [.ios, .web])
        #expect(settings.delivery.push.apns?.url == "https://api.push.apple.com")
        #expect(settings.delivery.configuration.pushPlatforms == [.ios, .web])
        #expect(settings.delivery.configuration.vapidPublicKey == vapidPublic)
    }

    @Test("a missing or unreadable key, a half-configured platform and a bad subject are named at start, all at once")
    func problems() throws {
        let notJSON = try DeliverySettingsTests.file("not json")
        defer { try? FileManager.default.removeItem(atPath: notJSON) }
        let problems = try DeliverySettingsTests.problems(environment: [
            "SG_APNS_KEY_FILE": "/nonexistent/AuthKey.p8", "SG_APNS_KEY_ID": "ABC123DEFG", "SG_APNS_TEAM_ID": "DEF123GHIJ",
            "SG_APNS_TOPIC": "com.example.app", "SG_APNS_URL": "http://api.push.apple.com",
            "SG_FCM_SERVICE_ACCOUNT_FILE": notJSON,
            "SG_VAPID_SUBJECT": "ops@example.com",
        ])
        #expect(problems.contains { $0.contains("SG_APNS_KEY_FILE") && $0.contains("/nonexistent/AuthKey.p8") && $0.contains("cannot be read") })
        #expect(problems.contains { $0.contains("SG_APNS_URL") && $0.contains("https") })
        #expect(problems.contains { $0.contains("SG_FCM_SERVICE_ACCOUNT_FILE") && $0.contains("not a JSON object") })
        #expect(problems.contains { $0.contains("SG_VAPID_SUBJECT") && $0.contains("mailto:") })
        #expect(problems.contains { $0.contains("SG_VAPID_PRIVATE_KEY_FILE") })
        let half = try DeliverySettingsTests.problems(environment: ["SG_APNS_KEY_ID": "ABC123DEFG"])
        #expect(half.count == 1 && half[0].contains("SG_APNS_KEY_FILE") && half[0].contains("SG_APNS_TOPIC"))
    }
}
