import Foundation
import SGCore
import SGStore
import SGTestSupport
import Testing

/// Every e-mail is written in its reader's language (the profile's `language`), as push messages are: requests,
/// decisions, the approvers' digest, company notices and reset links.
@Suite struct MessageLanguageTests {
    private func actor(_ employee: Employee) -> Actor {
        Actor(employeeID: employee.id, name: employee.username, isAdmin: employee.isAdmin)
    }

    private func speakSpanish(_ f: Fixture, _ employee: Employee) async throws {
        var patch = ProfilePatch()
        patch.language = .set("es")
        _ = try await f.services.people.updateProfile(employeeID: employee.id, patch, owned: [], directoryKind: "local")
    }

    @Test func eachReaderGetsTheirOwnLanguage() async throws {
        let f = try await Fixture.make()
        try await f.services.delivery.announce(DeliveryConfiguration(emailEnabled: true, publicURL: "https://hr.example.com"))
        try await speakSpanish(f, f.admin)
        try await speakSpanish(f, f.bob)
        let noon = f.clock.now()
        let request = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(8)), comment: "Boda de mi hermana", actor: actor(f.bob))
        var mails = try await f.services.delivery.messages(limit: 100).filter { $0.draft.channel == .email }
        let toAdmin = try #require(mails.first { $0.draft.address == "admin@example.com" })
        let toAdmin2 = try #require(mails.first { $0.draft.address == "admin2@example.com" })
        #expect(toAdmin.draft.subject.hasPrefix("Solicitud de vacaciones de José Núñez"), "\(toAdmin.draft.subject)")
        #expect(toAdmin.draft.body.hasPrefix("Hola:\n\nJosé Núñez, \"Pepe\" solicita vacaciones del \(f.weekday(7)) al \(f.weekday(8)): 2 días laborables."),
                "\(toAdmin.draft.body)")
        #expect(toAdmin.draft.body.contains("Comentario: Boda de mi hermana") && toAdmin.draft.body.contains("Estado: pendiente"))
        #expect(toAdmin2.draft.subject.hasPrefix("Holiday request from José Núñez"), "the other admin reads English: \(toAdmin2.draft.subject)")

        // The digest, in each approver's language.
        f.clock.set(noon.addingTimeInterval(3 * 86_400))
        #expect(try await f.services.delivery.remind(waitingHours: 48) == 2)
        mails = try await f.services.delivery.messages(limit: 100).filter { $0.draft.event == .holidayReminder }
        #expect(mails.first { $0.draft.address == "admin@example.com" }?.draft.subject == "1 solicitud espera tu decisión")
        #expect(mails.first { $0.draft.address == "admin2@example.com" }?.draft.subject == "1 holiday request waits for your decision")

        try await f.service.perform(.reject, on: request.id, by: actor(f.admin), note: "Semana de auditoría")
        let rejected = try #require(try await f.services.delivery.messages(limit: 100).last { $0.draft.address == "bob@example.com" })
        #expect(rejected.draft.subject == "Tu solicitud (vacaciones) del \(f.weekday(7)) al \(f.weekday(8)) está rechazada", "\(rejected.draft.subject)")
        #expect(rejected.draft.body.contains("fue rechazada por admin.\nMotivo: Semana de auditoría\nEstado: rechazada"), "\(rejected.draft.body)")

        _ = try await f.services.notices.post(NoticeDraft(title: "Oficina cerrada", body: "El viernes."), by: actor(f.admin))
        let notices = try await f.services.delivery.messages(limit: 200).filter { $0.draft.event == .noticePublished }
        #expect(notices.first { $0.draft.address == "bob@example.com" }?.draft.body.contains("Hay un aviso nuevo en el tablón de la empresa") == true)
        #expect(notices.first { $0.draft.address == "alice@example.com" }?.draft.body.contains("A new notice on the company board") == true)

        _ = try await f.services.passwords.requestReset(login: "bob")
        let reset = try #require(try await f.services.delivery.messages(limit: 200).last { $0.draft.event == .passwordReset })
        #expect(reset.draft.subject == "Restablece tu contraseña" && reset.draft.body.contains("https://hr.example.com/reset-password?token=sgr_"))
    }
}
