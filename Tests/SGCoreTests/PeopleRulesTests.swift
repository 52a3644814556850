import Foundation
import Testing
import SGCore

private let today = CalendarDate(year: 2026, month: 3, day: 2)!
private let ada = Employee(id: 1, username: "ada", name: "Ada", surname: "Lovelace", email: "ada@example.com", isAdmin: false, isActive: true)

private func field(of error: any Error) -> String? {
    if case .invalid(let field, _) = error as? SGError { return field }
    return nil
}

private func apply(_ build: (inout ProfilePatch) -> Void, owned: Set<ProfileField> = [], to profile: Profile = Profile(employee: ada)) throws -> Profile {
    var patch = ProfilePatch()
    build(&patch)
    return try ProfileRules.apply(patch, to: profile, owned: owned, directoryKind: "ldap", today: today)
}

@Suite struct TextFoldingTests {
    @Test(arguments: [
        ("José Núñez", "jose nunez"), ("ÉMILE", "emile"), ("Straße", "strasse"), ("Ærøskøbing", "aeroskobing"),
        ("Łódź", "lodz"), ("ﬁnance", "finance"), ("Ada@Example.COM", "ada@example.com"), ("İstanbul", "istanbul"),
        ("Zoë O'Brien", "zoe o'brien"), ("", ""),
    ])
    func foldsCaseAccentsAndCompatibilityForms(text: String, folded: String) {
        #expect(TextFolding.fold(text) == folded)
    }

    @Test func searchTermsAreFoldedWords() {
        #expect(TextFolding.terms("  José   NÚÑEZ ") == ["jose", "nunez"])
        #expect(TextFolding.terms("   ").isEmpty)
    }
}

@Suite struct ProfileRulesTests {
    @Test func acceptsAndNormalisesAWholeProfile() throws {
        let profile = try apply {
            $0.name = .set("  Augusta Ada ")
            $0.position = .set(" Analyst ")
            $0.birthDate = .set("1985-12-10")
            $0.phone = .set("+44 (20) 7946-0958")
            $0.twitter = .set("https://x.com/ada_l")
            $0.linkedin = .set("https://www.linkedin.com/in/ada")
        }
        #expect(profile.employee.name == "Augusta Ada")
        #expect(profile.position == "Analyst")
        #expect(profile.birthDate == CalendarDate(year: 1985, month: 12, day: 10))
        #expect(profile.phone == "+44 (20) 7946-0958")
        #expect(profile.twitter == "ada_l")
        #expect(profile.linkedin == "https://www.linkedin.com/in/ada")
    }

    @Test(arguments: [
        ("birthDate", "2026-03-03"),  // tomorrow
        ("birthDate", "1899-12-31"),
        ("birthDate", "2001-02-29"),
        ("birthDate", "10/12/1990"),
        ("phone", "call me"),
        ("phone", "+34 91 2+3"),
        ("phone", "123"),
        ("phone", "+1234567890123456"),
        ("twitter", "@way_too_long_handle_here"),
        ("twitter", "ada lovelace"),
        ("linkedin", "https://example.com/in/ada"),
        ("linkedin", "linkedin.com/in/ada"),
        ("linkedin", "javascript:alert(1)"),
        ("linkedin", "https://user:pw@linkedin.com/in/ada"),
        ("position", String(repeating: "x", count: 101)),
        ("position", "Head\u{0007}of"),
        ("name", ""),
        ("name", "Line\nbreak"),
    ])
    func refusesBadFieldsNamingThem(name: String, value: String) {
        #expect {
            _ = try apply { patch in
                switch name {
                case "birthDate": patch.birthDate = .set(value)
                case "phone": patch.phone = .set(value)
                case "twitter": patch.twitter = .set(value)
                case "linkedin": patch.linkedin = .set(value)
                case "position": patch.position = .set(value)
                default: patch.name = .set(value)
                }
            }
        } throws: { field(of: $0) == name }
    }

    @Test func birthdaysTodayAreFine() throws {
        #expect(try apply { $0.birthDate = .set("2026-03-02") }.birthDate == today)
    }

    @Test func namesCannotBeRemovedButOptionalFieldsCan() throws {
        #expect { _ = try apply { $0.surname = .clear } } throws: { field(of: $0) == "surname" }
        let full = Profile(employee: ada, position: "Analyst", phone: "+44 1234 5678", twitter: "ada")
        let cleared = try apply({ $0.position = .clear; $0.phone = .set("  "); $0.twitter = .set("") }, to: full)
        #expect(cleared.position == nil && cleared.phone == nil && cleared.twitter == nil)
        // Empty text is "not given", as null is.
        #expect(try apply({ $0.position = .set("") }, to: full).position == nil)
    }

    @Test func fieldsTheDirectoryHoldsAreRefusedOnlyWhenChanged() throws {
        let owned: Set<ProfileField> = [.name, .surname, .email]
        #expect {
            _ = try apply({ $0.surname = .set("Byron") }, owned: owned)
        } throws: { error in
            guard case .invalid(let field, let message) = error as? SGError else { return false }
            return field == "surname" && message.contains("company directory (ldap)")
        }
        // The same value, as a client sending its whole form would: fine, and other fields still change.
        let profile = try apply({ $0.name = .set("Ada"); $0.surname = .set(" Lovelace "); $0.position = .set("CTO") }, owned: owned)
        #expect(profile.position == "CTO")
        #expect(ProfileRules.editableFields(owned: owned) == [.position, .birthDate, .phone, .twitter, .linkedin, .language])
        #expect(ProfileRules.editableFields(owned: []) == ProfileField.employeeEditable)
    }

    /// The directory's values need not meet the rules for edits; sent back unchanged they are kept, not refused.
    @Test func directoryValuesOutsideTheEditRulesComeBackUnchanged() throws {
        var fromDirectory = Profile(employee: ada)
        fromDirectory.position = String(repeating: "Principal engineer, ", count: 7) + "Europe"  // 146 characters
        fromDirectory.phone = "+44 20 7946 0000 ext. 12"
        let owned: Set<ProfileField> = [.name, .surname, .email, .position, .phone]
        let profile = try apply({
            $0.position = .set(fromDirectory.position!); $0.phone = .set(fromDirectory.phone!); $0.linkedin = .set("https://www.linkedin.com/in/ada")
        }, owned: owned, to: fromDirectory)
        #expect(profile.position == fromDirectory.position && profile.phone == fromDirectory.phone)
        #expect(profile.linkedin != nil)
        // Changed, they are still the directory's to change.
        #expect {
            _ = try apply({ $0.phone = .set("+44 20 7946 0001") }, owned: owned, to: fromDirectory)
        } throws: { error in field(of: error) == "phone" }
        // Not held by the directory, the same values meet the edit rules.
        #expect(throws: SGError.self) { _ = try apply({ $0.position = .set(fromDirectory.position!) }, to: fromDirectory) }
    }
}

@Suite struct PhotoRulesTests {
    @Test func judgesImagesByTheirBytes() throws {
        let png = try PhotoRules.inspect(TestBytes.png)
        #expect(png == PhotoRules.Inspected(contentType: "image/png", width: 1, height: 1))
        let jpeg = try PhotoRules.inspect(TestBytes.jpeg)
        #expect(jpeg.contentType == "image/jpeg" && jpeg.width == 640 && jpeg.height == 480)
    }

    @Test func refusesWhatIsNotAnAcceptableImage() {
        #expect(throws: SGError.unsupportedMediaType("A photo must be a JPEG or PNG image; these bytes are neither.")) {
            _ = try PhotoRules.inspect(Array("GIF89a......".utf8))
        }
        #expect { _ = try PhotoRules.inspect([]) } throws: { field(of: $0) == "photo" }
        #expect { _ = try PhotoRules.inspect(Array(TestBytes.png.prefix(30))) } throws: { field(of: $0) == "photo" }
        #expect { _ = try PhotoRules.inspect(Array(TestBytes.jpeg.prefix(12))) } throws: { field(of: $0) == "photo" }
        var huge = TestBytes.png
        huge[16...19] = [0x00, 0x01, 0x00, 0x00]  // 65536 pixels wide
        #expect { _ = try PhotoRules.inspect(huge) } throws: { field(of: $0) == "photo" }
        let large = TestBytes.jpeg + [UInt8](repeating: 0, count: PhotoRules.maximumBytes)
        #expect {
            _ = try PhotoRules.inspect(large)
        } throws: { error in
            if case .payloadTooLarge = error as? SGError { return true }
            return false
        }
    }
}

@Suite struct NoticeRulesTests {
    @Test func companyNoticesNeedATitleABodyAndAFutureExpiry() throws {
        let ok = try NoticeRules.validated(NoticeDraft(title: " Office closed ", body: "Friday.\nSee you Monday.", expiresOn: today), today: today)
        #expect(ok.title == "Office closed" && ok.body == "Friday.\nSee you Monday.")
        #expect { _ = try NoticeRules.validated(NoticeDraft(title: "", body: "x"), today: today) } throws: { field(of: $0) == "title" }
        #expect { _ = try NoticeRules.validated(NoticeDraft(title: "x", body: "  "), today: today) } throws: { field(of: $0) == "body" }
        #expect {
            _ = try NoticeRules.validated(NoticeDraft(title: "x", body: "y", expiresOn: today.adding(days: -1)), today: today)
        } throws: { field(of: $0) == "expiresOn" }
        #expect(throws: SGError.self) { try NoticeRules.checkAdmin(ada.actor) }
    }

    @Test func anExpiredNoticeCanBeCorrectedButNotGivenAPastExpiry() throws {
        let yesterday = today.adding(days: -1)!
        let expired = Notice(
            id: 1, kind: .company, employeeID: nil, title: "Office closed", body: "Friday.", pinned: false,
            expiresOn: yesterday, author: "boss", createdAt: Date(), updatedAt: Date(), readAt: nil, transition: nil)
        let corrected = try NoticeRules.apply(NoticePatch(title: "Office closed on Friday"), to: expired, today: today)
        #expect(corrected.title == "Office closed on Friday" && corrected.expiresOn == yesterday)
        #expect(try NoticeRules.apply(NoticePatch(expiresOn: .set(today)), to: expired, today: today).expiresOn == today)
        #expect {
            _ = try NoticeRules.apply(NoticePatch(expiresOn: .set(yesterday)), to: expired, today: today)
        } throws: { field(of: $0) == "expiresOn" }
    }

    @Test func everyMoveOfARequestIsToldToItsOwner() throws {
        let request = HolidayRequest(
            id: 42, employeeID: ada.id, startDate: CalendarDate(year: 2026, month: 8, day: 10)!,
            endDate: CalendarDate(year: 2026, month: 8, day: 14)!, duration: .days(5), status: .pending, comment: "",
            createdAt: Date(), updatedAt: Date(), decidedBy: nil, decidedAt: nil)
        let admin = Actor(employeeID: 9, name: "boss", isAdmin: true)
        #expect(HolidayNotices.notice(for: request, from: nil, to: .pending, actor: ada.actor, actorDisplayName: "Ada", note: "", at: Date()) == nil)

        let onBehalf = try #require(HolidayNotices.notice(
            for: request, from: nil, to: .pending, actor: admin, actorDisplayName: "Bea Boss", note: "", at: Date()))
        #expect(onBehalf.title == "Holiday requested: 2026-08-10 to 2026-08-14" && !onBehalf.read)
        #expect(onBehalf.body.hasPrefix("Bea Boss requested a holiday for you (request 42)"))
        let reverted = try #require(HolidayNotices.notice(
            for: request, from: .approved, to: .pending, actor: admin, actorDisplayName: "Bea Boss", note: "", at: Date()))
        #expect(reverted.title == "Holiday moved back to pending: 2026-08-10 to 2026-08-14")
        #expect(reverted.body == "Bea Boss reverted your request 42 for 2026-08-10 to 2026-08-14 (5 working days): approved → pending.")

        let rejected = try #require(HolidayNotices.notice(
            for: request, from: .pending, to: .rejected, actor: admin, actorDisplayName: "Bea Boss", note: "Audit week", at: Date()))
        #expect(rejected.employeeID == ada.id && rejected.requestID == 42 && rejected.author == "boss")
        #expect(rejected.body == "Bea Boss rejected your request 42 for 2026-08-10 to 2026-08-14 (5 working days): pending → rejected. Reason: Audit week")
        #expect(!rejected.read)

        let cancelled = try #require(HolidayNotices.notice(
            for: request, from: .approved, to: .cancelled, actor: ada.actor, actorDisplayName: "Ada Lovelace", note: "", at: Date()))
        #expect(cancelled.read)  // their own move
        #expect(cancelled.body.hasPrefix("You cancelled your request 42"))
    }
}

@Suite struct CompanyAndDeviceRulesTests {
    private let company = Company(
        settings: CompanySettings(name: "Acme", workingWeek: .mondayToFriday, defaultAllowance: 23, timeZoneIdentifier: "UTC"),
        contact: CompanyContact(phone: "+34 600 000 000"))

    @Test func appliesAPatchFieldByField() throws {
        var patch = CompanyPatch()
        patch.name = " Acme S.L. "
        patch.address = .set("Calle Mayor 1\n28013 Madrid")
        patch.phone = .clear
        patch.website = .set("https://acme.example")
        patch.timeZone = "Europe/Madrid"
        patch.workingWeek = try CompanyRules.workingWeek([1, 2, 3, 4])
        let updated = try CompanyRules.apply(patch, to: company)
        #expect(updated.settings.name == "Acme S.L." && updated.settings.workingWeek.code == "1234")
        #expect(updated.contact == CompanyContact(address: "Calle Mayor 1\n28013 Madrid", website: "https://acme.example"))
        #expect(updated.settings.timeZoneIdentifier == "Europe/Madrid" && updated.settings.defaultAllowance == 23)
    }

    @Test func refusesBadCompanyFields() throws {
        for (name, build) in [
            ("email", { (p: inout CompanyPatch) in p.email = .set("not-an-address") }),
            ("website", { (p: inout CompanyPatch) in p.website = .set("ftp://acme.example") }),
            ("timeZone", { (p: inout CompanyPatch) in p.timeZone = "Mars/Olympus" }),
            ("defaultAllowance", { (p: inout CompanyPatch) in p.defaultAllowance = 400 }),
            ("name", { (p: inout CompanyPatch) in p.name = "" }),
        ] as [(String, (inout CompanyPatch) -> Void)] {
            var patch = CompanyPatch()
            build(&patch)
            #expect { _ = try CompanyRules.apply(patch, to: company) } throws: { field(of: $0) == name }
        }
        #expect { _ = try CompanyRules.workingWeek([1, 1, 2]) } throws: { field(of: $0) == "workingWeek" }
        #expect { _ = try CompanyRules.workingWeek([]) } throws: { field(of: $0) == "workingWeek" }
        #expect { _ = try CompanyRules.workingWeek([0, 8]) } throws: { field(of: $0) == "workingWeek" }
        // Written as digits (sgadmin): the same rule, duplicates included.
        #expect(try CompanyRules.workingWeek(code: "7123", field: "--working-week").code == "1237")
        for code in ["11234", "", "1-5", "٣", "08"] {
            #expect { _ = try CompanyRules.workingWeek(code: code, field: "--working-week") } throws: { field(of: $0) == "--working-week" }
        }
    }

    /// Text for a terminal: control and format characters escaped, everything else as typed. The characters of
    /// Latin-1 are judged without Unicode's tables: each must be judged as the tables judge it (U+0085 and U+00AD,
    /// the soft hyphen, are escaped; U+00A0 and U+00E9 are not).
    @Test func textForATerminal() {
        for value in UInt32(0)...0x2FF {
            let scalar = Unicode.Scalar(value)!
            let category = scalar.properties.generalCategory
            let hidden = [.control, .format, .lineSeparator, .paragraphSeparator].contains(category)
            let text = "a" + String(Character(scalar)) + "b"
            #expect(TextRules.shownSafely(text) == (hidden ? "a\\u{\(String(value, radix: 16))}b" : text), "U+\(String(value, radix: 16))")
        }
        #expect(TextRules.shownSafely("José Müller-Lüdenscheidt") == "José Müller-Lüdenscheidt")
        #expect(TextRules.shownSafely("Zoë\u{1B}]0;x\u{7} Ørsted\u{202E}") == "Zoë\\u{1b}]0;x\\u{7} Ørsted\\u{202e}")
        #expect(TextRules.shownSafely("Zoë\nØrsted\t", keeping: ["\n"]) == "Zoë\nØrsted\\u{9}")
        #expect(TextRules.shownSafely("👩\u{200D}💻") == "👩\u{200D}💻")
        #expect(TextRules.isPrintableASCII("Ada Lovelace ~") && !TextRules.isPrintableASCII("Ada\t") && !TextRules.isPrintableASCII("Zoë"))
    }

    /// Control and invisible format characters (U+0000, U+0007, U+202E right-to-left override, U+200B zero-width
    /// space) make an address that is not the one shown; they were accepted.
    @Test(arguments: ["hr\u{0}@acme.example", "hr\u{7}@acme.example", "hr@acme\u{202E}.example", "h\u{200B}r@acme.example"])
    func emailAddressesWithHiddenCharactersAreRefused(address: String) throws {
        #expect(try TextRules.email("hr@acme.example", field: "email") == "hr@acme.example")
        #expect { _ = try TextRules.email(address, field: "email") } throws: { field(of: $0) == "email" }
    }

    @Test func deviceTokensAndPlatforms() throws {
        #expect(try DeviceRules.token("fcm:APA91b-x_y.z~0") == "fcm:APA91b-x_y.z~0")
        #expect { _ = try DeviceRules.token("short") } throws: { field(of: $0) == "token" }
        #expect { _ = try DeviceRules.token("has/slash/in/it") } throws: { field(of: $0) == "token" }
        #expect(try DeviceRules.platform("ios") == .ios)
        #expect { _ = try DeviceRules.platform("symbian") } throws: { field(of: $0) == "platform" }
    }
}

/// Images built byte by byte: a 1×1 PNG and the header of a 640×480 JPEG.
enum TestBytes {
    static let png: [UInt8] = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]
        + [0xFF, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        + [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00, 0x12, 0x34]  // a scan and its data
        + [0xFF, 0xD9]
}

/// Issue 18, finding 7: a PNG declaring 8192×8192 pixels over a small IDAT (a decompression bomb) and a PNG with
/// no image data at all were accepted.
@Suite struct PhotoBoundsTests {
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc
        func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        return be(UInt32(data.count)) + typed + be(crc)
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func ihdr(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 0) -> [UInt8] {
        func be(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }
        return chunk("IHDR", be(width) + be(height) + [depth, colour, 0, 0, 0])
    }

    @Test func aHugeDeclaredImageIsRefusedHoweverSmallItsData() {
        // 261 KB of zlib data that would inflate to 64 MiB of pixels.
        let idat = [0x78, 0x9C] + [UInt8](repeating: 0x00, count: 261_000)
        let bomb = Self.signature + Self.ihdr(width: 8192, height: 8192) + Self.chunk("IDAT", idat) + Self.chunk("IEND", [])
        #expect { _ = try PhotoRules.inspect(bomb) } throws: { field(of: $0) == "photo" }
        let tall = Self.signature + Self.ihdr(width: 1, height: 5000) + Self.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00]) + Self.chunk("IEND", [])
        #expect { _ = try PhotoRules.inspect(tall) } throws: { field(of: $0) == "photo" }
    }

    @Test func aPNGMustHoldImageDataInWellFormedChunks() throws {
        // 45 bytes: signature, IHDR, IEND, and no IDAT.
        let empty = Self.signature + Self.ihdr(width: 1, height: 1) + Self.chunk("IEND", [])
        #expect(empty.count == 45)
        #expect { _ = try PhotoRules.inspect(empty) } throws: { field(of: $0) == "photo" }
        // A chunk whose checksum is wrong.
        var corrupt = TestBytes.png
        corrupt[corrupt.count - 20] ^= 0xFF
        #expect { _ = try PhotoRules.inspect(corrupt) } throws: { field(of: $0) == "photo" }
        // A bit depth no PNG decoder knows.
        let oddDepth = Self.signature + Self.ihdr(width: 1, height: 1, depth: 7) + Self.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
            + Self.chunk("IEND", [])
        #expect { _ = try PhotoRules.inspect(oddDepth) } throws: { field(of: $0) == "photo" }
        // Data after IEND.
        #expect { _ = try PhotoRules.inspect(TestBytes.png + Self.chunk("tEXt", Array("x".utf8))) } throws: { field(of: $0) == "photo" }
        // The real thing still passes.
        #expect(try PhotoRules.inspect(TestBytes.png).width == 1)
    }

    @Test func aJPEGMustHoldAScanAndEnd() throws {
        // A frame header and nothing to decode.
        let frameOnly: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x02, 0x00, 0x03, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xD9]
        #expect { _ = try PhotoRules.inspect(frameOnly) } throws: { field(of: $0) == "photo" }
        // With a scan and its end, accepted.
        let whole = Array(frameOnly.dropLast(2)) + [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]
        #expect(try PhotoRules.inspect(whole).width == 3)
        // Cut before its end.
        #expect { _ = try PhotoRules.inspect(Array(whole.dropLast(2))) } throws: { field(of: $0) == "photo" }
    }
}
