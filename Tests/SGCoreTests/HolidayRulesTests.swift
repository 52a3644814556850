import Foundation
import Testing
@testable import SGCore

/// Every move from every state, for every kind of actor.
@Suite struct HolidayRulesTests {
    static let today = CalendarDate(iso: "2026-03-02")!
    static let owner = Actor(employeeID: 1, name: "alice", isAdmin: false)
    static let ownerAdmin = Actor(employeeID: 1, name: "alice", isAdmin: true)
    static let admin = Actor(employeeID: 2, name: "admin", isAdmin: true)
    static let operatorOfHost = Actor(employeeID: nil, name: "root (sgadmin)", isAdmin: true)
    static let stranger = Actor(employeeID: 3, name: "bob", isAdmin: false)
    /// A company without teams, with one admin besides the owner: the admins decide.
    static let noTeams = ApprovalContext(admins: [Employee(id: 2, username: "admin", name: "Ada", surname: "Admin", email: "", isAdmin: true, isActive: true)])

    func request(_ status: HolidayStatus, start: CalendarDate = CalendarDate(iso: "2026-03-10")!) -> HolidayRequest {
        HolidayRequest(
            id: 42, employeeID: 1, startDate: start, endDate: start.adding(days: 2)!, duration: .days(3), status: status,
            comment: "", createdAt: Date(), updatedAt: Date(), decidedBy: nil, decidedAt: nil)
    }

    enum Outcome: Equatable { case allowed, forbidden, notFound, wrongState, conflict }

    func outcome(_ action: HolidayAction, _ status: HolidayStatus, _ actor: Actor, start: CalendarDate = CalendarDate(iso: "2026-03-10")!) -> Outcome {
        do {
            try HolidayRules.check(action, on: request(status, start: start), by: actor, today: Self.today, approval: Self.noTeams)
            return .allowed
        } catch SGError.forbidden {
            return .forbidden
        } catch SGError.notFound {
            return .notFound
        } catch SGError.wrongState(let id, let current, let attempted) {
            #expect(id == 42 && current == status && attempted == action)
            return .wrongState
        } catch SGError.conflict {
            return .conflict
        } catch {
            Issue.record("unexpected \(error)")
            return .conflict
        }
    }

    @Test func adminDecisionsFollowTheStateMachine() {
        let expected: [(HolidayAction, HolidayStatus, Outcome)] = [
            (.approve, .approvedByManager, .allowed), (.reject, .approvedByManager, .allowed),
            (.revert, .approvedByManager, .allowed), (.cancel, .approvedByManager, .allowed),
            (.approve, .pending, .allowed), (.approve, .approved, .wrongState), (.approve, .rejected, .wrongState), (.approve, .cancelled, .wrongState),
            (.reject, .pending, .allowed), (.reject, .approved, .wrongState), (.reject, .rejected, .wrongState), (.reject, .cancelled, .wrongState),
            (.revert, .pending, .wrongState), (.revert, .approved, .allowed), (.revert, .rejected, .wrongState), (.revert, .cancelled, .wrongState),
            (.cancel, .pending, .allowed), (.cancel, .approved, .allowed), (.cancel, .rejected, .wrongState), (.cancel, .cancelled, .wrongState),
        ]
        for (action, status, result) in expected {
            #expect(outcome(action, status, Self.admin) == result, "admin \(action) from \(status)")
            #expect(outcome(action, status, Self.operatorOfHost) == result, "operator \(action) from \(status)")
        }
    }

    @Test func theOwnerMayOnlyCancel() {
        for status in HolidayStatus.allCases {
            for action in [HolidayAction.approve, .reject, .revert] {
                #expect(outcome(action, status, Self.owner) == .forbidden, "owner \(action) from \(status)")
            }
        }
        #expect(outcome(.cancel, .pending, Self.owner) == .allowed)
        #expect(outcome(.cancel, .approved, Self.owner) == .allowed)
        #expect(outcome(.cancel, .approvedByManager, Self.owner) == .allowed)
        #expect(outcome(.cancel, .rejected, Self.owner) == .wrongState)
        #expect(outcome(.cancel, .cancelled, Self.owner) == .wrongState)
    }

    @Test func anAdminCannotDecideTheirOwnRequest() {
        #expect(outcome(.approve, .pending, Self.ownerAdmin) == .forbidden)
        #expect(outcome(.reject, .pending, Self.ownerAdmin) == .forbidden)
        #expect(outcome(.revert, .approved, Self.ownerAdmin) == .forbidden)
        #expect(outcome(.cancel, .pending, Self.ownerAdmin) == .allowed)
    }

    @Test func anotherEmployeeDoesNotSeeTheRequest() {
        for status in HolidayStatus.allCases {
            #expect(outcome(.cancel, status, Self.stranger) == .notFound)
            // Deciding a request one may not read is "not found", as for an id that does not exist.
            for action in [HolidayAction.approve, .reject, .revert] {
                #expect(outcome(action, status, Self.stranger) == .notFound)
            }
        }
    }

    /// A team with approver 5 (Paula) for the owner (1), and approver 6 (Quim) of another team.
    static let paula = Actor(employeeID: 5, name: "paula", isAdmin: false)
    static let quim = Actor(employeeID: 6, name: "quim", isAdmin: false)
    static let oneStageTeam = ApprovalContext(
        teamID: 9, twoStage: false,
        approvers: [Employee(id: 5, username: "paula", name: "Paula", surname: "P", email: "", isAdmin: false, isActive: true)],
        admins: [Employee(id: 2, username: "admin", name: "Ada", surname: "Admin", email: "", isAdmin: true, isActive: true)])

    func decide(_ action: HolidayAction, _ request: HolidayRequest, _ actor: Actor) -> Outcome {
        do {
            try HolidayRules.check(action, on: request, by: actor, today: Self.today, approval: Self.oneStageTeam)
            return .allowed
        } catch SGError.forbidden {
            return .forbidden
        } catch SGError.notFound {
            return .notFound
        } catch SGError.wrongState {
            return .wrongState
        } catch {
            return .conflict
        }
    }

    @Test func aTypeWithoutApprovalIsRevertedByAdminsOnly() {
        var sick = request(.approved)
        sick.leaveTypeID = LeaveType.sickID
        sick.leaveTypeName = "sick"
        sick.typeNeedsApproval = false
        #expect(decide(.revert, sick, Self.paula) == .forbidden, "the team's approver approved nothing")
        #expect(!HolidayRules.allowedActions(on: sick, by: Self.paula, today: Self.today, approval: Self.oneStageTeam).contains(.revert))
        #expect(decide(.revert, sick, Self.admin) == .allowed)
        #expect(decide(.revert, request(.approved), Self.paula) == .allowed, "a holiday the approver approved they may revert")
        do {
            try HolidayRules.check(.revert, on: sick, by: Self.paula, today: Self.today, approval: Self.oneStageTeam)
        } catch SGError.forbidden(let message) {
            #expect(message.contains("needs no approval") && message.contains("only an admin"), "\(message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func anApproverOfAnotherTeamHearsNotFound() {
        for status in HolidayStatus.allCases {
            for action in [HolidayAction.approve, .reject, .revert] {
                #expect(decide(action, request(status), Self.quim) == .notFound, "\(action) from \(status)")
            }
        }
        #expect(decide(.approve, request(.pending), Self.paula) == .allowed)
    }

    @Test func theOwnerCancelsAnApprovedHolidayOnlyBeforeItsFirstDay() {
        let tomorrow = Self.today.adding(days: 1)!
        #expect(outcome(.cancel, .approved, Self.owner, start: tomorrow) == .allowed)
        #expect(outcome(.cancel, .approved, Self.owner, start: Self.today) == .conflict)
        #expect(outcome(.cancel, .approved, Self.owner, start: Self.today.adding(days: -3)!) == .conflict)
        #expect(outcome(.cancel, .approved, Self.ownerAdmin, start: Self.today) == .conflict)
        // A pending request that has started can still be withdrawn, and an admin may cancel any time.
        #expect(outcome(.cancel, .pending, Self.owner, start: Self.today.adding(days: -3)!) == .allowed)
        #expect(outcome(.cancel, .approved, Self.admin, start: Self.today.adding(days: -3)!) == .allowed)
    }

    @Test func anEmployeesHolidaysAreTheirsAndTheAdminsToRead() {
        #expect(Approval.mayRead(holidaysOf: 1, by: Self.owner, Self.noTeams))
        #expect(Approval.mayRead(holidaysOf: 1, by: Self.admin, Self.noTeams))
        #expect(Approval.mayRead(holidaysOf: 1, by: Self.operatorOfHost, Self.noTeams))
        #expect(!Approval.mayRead(holidaysOf: 1, by: Self.stranger, Self.noTeams))
    }

    @Test func allowedActionsAreWhatCheckAllows() {
        #expect(HolidayRules.allowedActions(on: request(.pending), by: Self.admin, today: Self.today, approval: Self.noTeams) == [.approve, .reject, .cancel])
        #expect(HolidayRules.allowedActions(on: request(.approved), by: Self.admin, today: Self.today, approval: Self.noTeams) == [.revert, .cancel])
        #expect(HolidayRules.allowedActions(on: request(.pending), by: Self.owner, today: Self.today, approval: Self.noTeams) == [.cancel])
        #expect(HolidayRules.allowedActions(on: request(.rejected), by: Self.admin, today: Self.today, approval: Self.noTeams) == [])
        #expect(HolidayRules.allowedActions(on: request(.pending), by: Self.stranger, today: Self.today, approval: Self.noTeams) == [])
    }

    @Test func theWrongStateMessageNamesTheStateAndTheMoves() {
        let approved = SGError.wrongState(requestID: 42, status: .approved, action: .approve).message
        #expect(approved.contains("Request 42 is approved"))
        #expect(approved.contains("revert (to pending)") && approved.contains("cancel (to cancelled)"))
        let rejected = SGError.wrongState(requestID: 7, status: .rejected, action: .cancel).message
        #expect(rejected.contains("rejected is final"))
    }
}

@Suite struct CSVTests {
    @Test func quotesPerRFC4180() {
        #expect(CSV.record(["plain", "with,comma", "with \"quote\"", "two\nlines", .number(5)])
                == "plain,\"with,comma\",\"with \"\"quote\"\"\",\"two\nlines\",5\r\n")
    }

    @Test func neutralisesFormulas() {
        #expect(CSV.record(["=SUM(A1)", "+1", "-2", "@cmd", "José Núñez"]) == "'=SUM(A1),'+1,'-2,'@cmd,José Núñez\r\n")
        #expect(CSV.record(["=1,2"]) == "\"'=1,2\"\r\n")
        #expect(CSV.record([.number(-3)]) == "-3\r\n")
        // A quote carrying a combining mark is still doubled; CR LF inside a cell is quoted.
        #expect(CSV.record(["a\"\u{301}b", "x\r\ny", "\tTab"]) == "\"a\"\"\u{301}b\",\"x\r\ny\",'\tTab\r\n")
    }

    /// `append` (the export's buffer) writes what `record` returns, after what the buffer already holds.
    @Test func appendsARecordsBytesToABuffer() {
        let cells: [CSV.Cell] = ["Núñez, \"Pepe\"", "=1", .days(HalfDays(halves: 5)), .flag(true), .absent, .number(7), "a\"\u{301}"]
        var bytes = Array("head\r\n".utf8)
        CSV.append(cells, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "head\r\n" + CSV.record(cells))
        #expect(String(decoding: bytes, as: UTF8.self) == "head\r\n\"Núñez, \"\"Pepe\"\"\",'=1,2.5,yes,,7,\"a\"\"\u{301}\"\r\n")
    }
}
