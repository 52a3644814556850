import Foundation
import Testing
import SGCore
@testable import SGAPI

/// The hand-written JSON must be what JSONEncoder (sorted keys, slashes unescaped) wrote before it.
@Suite struct JSONWriterTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func written(_ body: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        body(&json)
        return String(buffer: json.buffer)
    }

    @Test func escapesStringsAsJSONEncoderDoes() throws {
        var strings = ["", "plain", "José Núñez, \"Pepe\"", "back\\slash", "a/b", "tab\tnew\nline\rcr", "\u{8}\u{c}",
                       "«fiesta» — ñ 🏖️", "=HYPERLINK(\"x\")", "\u{2028}\u{2029}", "\u{7f}"]
        strings += (0..<32).map { String(UnicodeScalar(UInt8($0))) }
        for text in strings {
            let expected = String(decoding: try Self.encoder.encode([text]), as: UTF8.self)
            #expect(written { $0.array([text]) { json, value in json.value(value) } } == expected, "\(text.debugDescription)")
        }
    }

    @Test func writesNumbersBooleansNullsAndNesting() throws {
        struct Shape: Encodable {
            let a: [Int]
            let b: Bool
            let c: String?
            let d: [String: Int]
            let e: Int64
            func encode(to encoder: any Encoder) throws {
                enum Keys: String, CodingKey { case a, b, c, d, e }
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(a, forKey: .a)
                try container.encode(b, forKey: .b)
                try container.encode(c, forKey: .c)
                try container.encode(d, forKey: .d)
                try container.encode(e, forKey: .e)
            }
        }
        let shape = Shape(a: [0, -1, Int.max, Int.min], b: false, c: nil, d: ["2026": 3, "2027": 0], e: Int64.min)
        let expected = String(decoding: try Self.encoder.encode(shape), as: UTF8.self)
        let text = written { json in
            json.object { json in
                json.key("a"); json.array(shape.a) { json, number in json.value(number) }
                json.key("b"); json.value(shape.b)
                json.key("c"); json.value(shape.c)
                json.key("d"); json.object { json in for (key, value) in shape.d.sorted(by: { $0.key < $1.key }) { json.key(dynamic: key); json.value(value) } }
                json.key("e"); json.value(shape.e)
            }
        }
        #expect(text == expected)
    }

    @Test func writesARequestWithEveryFieldInSortedOrder() throws {
        let request = HolidayRequest(
            id: 7, employeeID: 3, startDate: CalendarDate(iso: "2026-12-28")!, endDate: CalendarDate(iso: "2027-01-05")!,
            endHalf: .morning, duration: HalfDays(halves: 11), status: .approved, comment: "Home, \"really\"", createdAt: Date(timeIntervalSince1970: 1_790_000_000.5),
            updatedAt: Date(timeIntervalSince1970: 1_790_000_100), decidedBy: "admin", decidedAt: Date(timeIntervalSince1970: 1_790_000_100))
        let employee = Employee(id: 3, username: "bob", name: "José", surname: "Núñez", email: "bob@example.com", isAdmin: false, isActive: true)
        let admin = Actor(employeeID: 1, name: "admin", isAdmin: true)
        let detail = DTO.RequestDetail(
            request: DTO.Request(
                request, employee: employee, viewer: admin, today: CalendarDate(iso: "2026-12-01")!,
                approval: ApprovalContext(admins: [Employee(id: 1, username: "admin", name: "Ada", surname: "Admin", email: "", isAdmin: true, isActive: true)])),
            workingDaysByYear: [2027: HalfDays(halves: 5), 2026: .days(3)],
            history: [DTO.Event(HolidayEvent(id: 9, requestID: 7, from: nil, to: .pending, actor: "bob", actorEmployeeID: 3,
                                             at: Date(timeIntervalSince1970: 1_790_000_000.5), note: ""))],
            otherRequests: [],
            balances: [Balance(year: 2026, allowance: .days(23), approved: .days(3), pending: HalfDays(halves: 1))])
        var json = JSONWriter()
        detail.write(to: &json)
        let text = String(buffer: json.buffer)
        #expect(text == #"{"allowedActions":["revert","cancel"],"approvers":[],"balances":[{"accrual":null,"adjusted":0,"allowance":23,"allowanceFormula":null,"approved":3,"carriedOver":0,"carryOverExpiresOn":null,"#
            + #""earned":null,"expired":0,"expiring":0,"pending":0.5,"remaining":19.5,"requestable":19.5,"year":2026}],"#
            + #""comment":"Home, \"really\"","createdAt":"2026-09-21T14:13:20.500Z","#
            + #""decidedAt":"2026-09-21T14:15:00.000Z","decidedBy":"admin","employee":{"id":3,"name":"José","surname":"Núñez","username":"bob"},"#
            + #""employeeId":3,"endDate":"2027-01-05","endHalf":"morning","history":[{"actor":"bob","at":"2026-09-21T14:13:20.500Z","from":null,"id":9,"note":"","to":"pending"}],"#
            + #""id":7,"leaveTypeId":1,"leaveTypeName":"holiday","otherRequests":[],"startDate":"2026-12-28","startHalf":"morning","#
            + #""status":"approved","updatedAt":"2026-09-21T14:15:00.000Z","workingDays":5.5,"workingDaysByYear":{"2026":3,"2027":2.5}}"#)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(Array(parsed.keys).sorted() == parsed.keys.sorted())
    }

    /// A list of employees written again is copied from the bytes of the one before it only when it would be written
    /// the same: same employees, same names, in the same order.
    @Test func aRepeatedListOfEmployeesIsWrittenAsBefore() throws {
        func employee(_ id: Int64, _ name: String) -> Employee {
            Employee(id: id, username: "user\(id)", name: name, surname: "Núñez \"\(id)\"", email: "", isAdmin: true, isActive: true)
        }
        let ada = employee(1, "Ada"), bea = employee(2, "Bea"), renamed = employee(1, "Adelheid")
        let lists: [[Employee]] = [[ada, bea], [ada, bea], [bea], [], [ada, bea], [renamed, bea], [renamed, bea], [bea, renamed], [ada, bea]]
        let naive = written { json in
            json.array(lists) { json, list in json.array(list) { json, employee in json.value(DTO.EmployeeRef(employee)) } }
        }
        let remembered = written { json in json.array(lists) { json, list in json.employeeRefs(list) } }
        #expect(remembered == naive)
        let inObjects = written { json in
            json.array(lists) { json, list in json.object { json in json.key("a"); json.employeeRefs(list); json.key("b"); json.value(1) } }
        }
        #expect(inObjects == written { json in
            json.array(lists) { json, list in
                json.object { json in
                    json.key("a"); json.array(list) { json, employee in json.value(DTO.EmployeeRef(employee)) }
                    json.key("b"); json.value(1)
                }
            }
        })
    }
}
