import Foundation

/// The words messages share, in each language the app speaks: how a request's kind, its dates and its days read.
enum MessageWords {
    /// "Holiday", "Sick leave", "Parental leave"; "Vacaciones", "Baja"; "Absence" for a private type shown to others.
    static func kind(_ request: HolidayRequest, _ language: Language) -> String {
        guard language == .es else { return request.kindInWords }
        if request.isShownAsAbsence { return "Ausencia" }
        switch request.leaveTypeID {
        case LeaveType.holidayID: return "Vacaciones"
        case LeaveType.sickID: return "Baja"
        case LeaveType.unpaidID: return "Permiso no retribuido"
        default: return request.leaveTypeName.prefix(1).uppercased() + request.leaveTypeName.dropFirst()
        }
    }

    /// "3 working days", "1 working day"; "2,5 días laborables", "1 día laborable".
    static func days(_ halves: HalfDays, _ language: Language) -> String {
        guard language == .es else { return halves.inWorkingDays }
        return halves.halves == 2 ? "1 día laborable" : "\(halves.description.replacingOccurrences(of: ".", with: ",")) días laborables"
    }

    /// "2026-08-10 to 2026-08-12", with halves; "del 2026-08-10 al 2026-08-12".
    static func period(_ period: LeavePeriod, _ language: Language) -> String {
        guard language == .es else { return period.description }
        func day(_ date: CalendarDate, _ half: DayHalf?) -> String {
            switch half {
            case .morning?: "\(date) (mañana)"
            case .afternoon?: "\(date) (tarde)"
            case nil: date.description
            }
        }
        if period.start == period.end {
            return "el " + day(period.start, period.startHalf == period.endHalf ? period.startHalf : nil)
        }
        return "del \(day(period.start, period.startHalf == .afternoon ? .afternoon : nil)) "
            + "al \(day(period.end, period.endHalf == .morning ? .morning : nil))"
    }

    static func status(_ status: HolidayStatus, _ language: Language) -> String {
        guard language == .es else { return status.rawValue }
        switch status {
        case .pending: return "pendiente"
        case .approvedByManager: return "aprobada por el responsable"
        case .approved: return "aprobada"
        case .rejected: return "rechazada"
        case .cancelled: return "cancelada"
        }
    }
}

/// The e-mail of one move of a request, in the reader's language. The owner reads "your request"; the people
/// asked to decide read the requester's name. Written once per language and reader kind, not once per recipient.
struct HolidayMail {
    let event: DeliveryEvent
    let request: HolidayRequest
    let owner: Employee
    let actor: Actor
    let note: String
    let link: String?
    /// Written to the request's owner ("your request") rather than to an approver.
    let toOwner: Bool
    var language: Language = .en

    /// The subject and body, written once.
    struct Text {
        let subject: String
        let body: String
    }

    var text: Text { Text(subject: subject, body: body) }

    private var es: Bool { language == .es }
    private var dates: String { MessageWords.period(request.period, language) }
    private var days: String { MessageWords.days(request.duration, language) }
    private var kind: String { MessageWords.kind(request, language) }
    /// "holiday", "sick leave" as a word inside a sentence; Spanish keeps its capital-free noun.
    private var kindInSentence: String { kind.lowercased() }

    var subject: String {
        es ? spanishSubject : englishSubject
    }

    private var englishSubject: String {
        switch event {
        case .holidayRequested: "\(kind) request from \(owner.fullName): \(dates)"
        case .holidayApproved where request.status == .approvedByManager:
            toOwner ? "Your \(kindInSentence) \(dates) is approved by your manager" : "To decide: \(owner.fullName), \(dates), approved by the manager"
        case .holidayApproved: toOwner ? "Your \(kindInSentence) \(dates) is approved" : "Approved: \(owner.fullName), \(dates)"
        case .holidayRejected: toOwner ? "Your \(kindInSentence) request \(dates) is rejected" : "Rejected: \(owner.fullName), \(dates)"
        case .holidayReverted: toOwner ? "Your \(kindInSentence) \(dates) is back to pending" : "Back to pending: \(owner.fullName), \(dates)"
        case .holidayCancelled: toOwner ? "Your \(kindInSentence) \(dates) is cancelled" : "Cancelled: \(owner.fullName), \(dates)"
        default: "Holiday request \(request.id)"
        }
    }

    private var spanishSubject: String {
        switch event {
        case .holidayRequested: "Solicitud de \(kindInSentence) de \(owner.fullName): \(dates)"
        case .holidayApproved where request.status == .approvedByManager:
            toOwner ? "Tu solicitud (\(kindInSentence)) \(dates) está aprobada por tu responsable"
                : "Por decidir: \(owner.fullName), \(dates), aprobada por el responsable"
        case .holidayApproved: toOwner ? "Tu solicitud (\(kindInSentence)) \(dates) está aprobada" : "Aprobada: \(owner.fullName), \(dates)"
        case .holidayRejected: toOwner ? "Tu solicitud (\(kindInSentence)) \(dates) está rechazada" : "Rechazada: \(owner.fullName), \(dates)"
        case .holidayReverted: toOwner ? "Tu solicitud (\(kindInSentence)) \(dates) vuelve a estar pendiente" : "De nuevo pendiente: \(owner.fullName), \(dates)"
        case .holidayCancelled: toOwner ? "Tu solicitud (\(kindInSentence)) \(dates) está cancelada" : "Cancelada: \(owner.fullName), \(dates)"
        default: "Solicitud \(request.id)"
        }
    }

    var body: String {
        es ? spanishBody : englishBody
    }

    private var englishBody: String {
        var lines: [String] = []
        let whose = toOwner ? "Your \(kindInSentence) request" : "The \(kindInSentence) request of \(owner.fullName)"
        switch event {
        case .holidayRequested:
            let what = request.isShownAsAbsence ? "time off" : request.leaveTypeID == LeaveType.holidayID ? "holidays" : kindInSentence
            lines.append("\(owner.fullName) asks for \(what) "
                    + (request.period.isWholeDays ? "from \(request.startDate) to \(request.endDate)" : dates) + ": \(days).")
            if !request.comment.isEmpty { lines.append("Comment: \(request.comment)") }
            lines.append("It waits for your decision.")
        case .holidayApproved where request.status == .approvedByManager:
            lines.append("\(whose) from \(request.startDate) to \(request.endDate) (\(days)) was approved by \(actor.name), the team's manager.")
            lines.append(toOwner ? "An admin decides next." : "It waits for your decision.")
        case .holidayApproved:
            lines.append("\(whose) from \(request.startDate) to \(request.endDate) (\(days)) was approved by \(actor.name).")
        case .holidayRejected:
            lines.append("\(whose) from \(request.startDate) to \(request.endDate) (\(days)) was rejected by \(actor.name).")
            lines.append("Reason: \(note)")
        case .holidayReverted:
            lines.append("\(whose) from \(request.startDate) to \(request.endDate) (\(days)) was moved back to pending by \(actor.name).")
        case .holidayCancelled:
            lines.append("\(whose) from \(request.startDate) to \(request.endDate) (\(days)) was cancelled by \(actor.name).")
        default:
            break
        }
        if !note.isEmpty && event != .holidayRejected && event != .holidayRequested { lines.append("Note: \(note)") }
        lines.append("Status: \(request.status.rawValue)")
        if let link { lines += ["", "The request: \(link)"] }
        return "Hello,\n\n" + lines.joined(separator: "\n") + "\n"
    }

    private var spanishBody: String {
        var lines: [String] = []
        let whose = toOwner ? "Tu solicitud (\(kindInSentence))" : "La solicitud (\(kindInSentence)) de \(owner.fullName)"
        let span = "del \(request.startDate) al \(request.endDate) (\(days))"
        switch event {
        case .holidayRequested:
            let what = request.isShownAsAbsence ? "una ausencia" : request.leaveTypeID == LeaveType.holidayID ? "vacaciones" : kindInSentence
            lines.append("\(owner.fullName) solicita \(what) " + (request.period.isWholeDays ? span.replacingOccurrences(of: " (\(days))", with: "") : dates)
                + ": \(days).")
            if !request.comment.isEmpty { lines.append("Comentario: \(request.comment)") }
            lines.append("Espera tu decisión.")
        case .holidayApproved where request.status == .approvedByManager:
            lines.append("\(whose) \(span) fue aprobada por \(actor.name), responsable del equipo.")
            lines.append(toOwner ? "Ahora decide un administrador." : "Espera tu decisión.")
        case .holidayApproved:
            lines.append("\(whose) \(span) fue aprobada por \(actor.name).")
        case .holidayRejected:
            lines.append("\(whose) \(span) fue rechazada por \(actor.name).")
            lines.append("Motivo: \(note)")
        case .holidayReverted:
            lines.append("\(whose) \(span) volvió a estar pendiente por decisión de \(actor.name).")
        case .holidayCancelled:
            lines.append("\(whose) \(span) fue cancelada por \(actor.name).")
        default:
            break
        }
        if !note.isEmpty && event != .holidayRejected && event != .holidayRequested { lines.append("Nota: \(note)") }
        lines.append("Estado: \(MessageWords.status(request.status, language))")
        if let link { lines += ["", "La solicitud: \(link)"] }
        return "Hola:\n\n" + lines.joined(separator: "\n") + "\n"
    }

    /// One line for a team channel, in English: a channel has no reader's language.
    var slackText: String {
        let base: String = switch event {
        case .holidayRequested: "\(owner.fullName) asks for \(request.duration.inWorkingDays) off: \(request.period)"
        case .holidayApproved: "Approved: \(owner.fullName), \(request.period) (\(request.duration.inWorkingDays)), by \(actor.name)"
        case .holidayRejected: "Rejected: \(owner.fullName), \(request.period), by \(actor.name)"
        case .holidayReverted: "Back to pending: \(owner.fullName), \(request.period), by \(actor.name)"
        case .holidayCancelled: "Cancelled: \(owner.fullName), \(request.period) (\(request.duration.inWorkingDays)), by \(actor.name)"
        default: "Holiday request \(request.id)"
        }
        return base + (link.map { " <\($0)|request \(request.id)>" } ?? "")
    }
}

/// An approver's daily digest of the requests waiting for a decision, in their language.
struct ReminderMail {
    let requests: [(request: HolidayRequest, owner: Employee)]
    let waitingHours: Int
    let publicURL: String
    var language: Language = .en

    var subject: String {
        switch language {
        case .en:
            requests.count == 1
                ? "1 holiday request waits for your decision" : "\(requests.count) holiday requests wait for your decision"
        case .es:
            requests.count == 1 ? "1 solicitud espera tu decisión" : "\(requests.count) solicitudes esperan tu decisión"
        }
    }

    var body: String {
        let es = language == .es
        var lines = es
            ? ["Hola:", "", "Estas solicitudes llevan más de \(waitingHours) horas esperando una decisión:", ""]
            : ["Hello,", "", "These requests have waited more than \(waitingHours) hours for a decision:", ""]
        for (request, owner) in requests {
            let kind = MessageWords.kind(request, language).lowercased()
            let period = es ? MessageWords.period(request.period, language) : request.period.description
            let asked = es ? "pedida el" : "asked"
            lines.append("- \(owner.fullName): \(kind) \(period), \(MessageWords.days(request.duration, language)), \(asked) \(Timestamp.format(request.createdAt))")
            if let link = DeliveryConfiguration.link(publicURL, "/holidays/\(request.id)") { lines.append("  \(link)") }
        }
        lines += ["", es ? "Recibes este resumen una vez al día mientras haya solicitudes esperando." : "You get this digest once a day while requests wait."]
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The e-mail of a new company notice: its title and text as the admin wrote them, the frame in the reader's language.
struct NoticeMail {
    let notice: Notice
    let link: String?
    let reader: String
    let language: Language

    var subject: String { (language == .es ? "Aviso: " : "Notice: ") + notice.title }

    var body: String {
        let es = language == .es
        var lines = [es ? "Hola, \(reader):" : "Hello \(reader),", "", es ? "Hay un aviso nuevo en el tablón de la empresa:" : "A new notice on the company board:", "",
                     notice.title, "", notice.body, ""]
        if let link { lines.append(es ? "Léelo en el tablón: \(link)" : "Read it on the board: \(link)") }
        lines += ["", es ? "Publicado por \(notice.author)." : "Posted by \(notice.author)."]
        return lines.joined(separator: "\n") + "\n"
    }
}
