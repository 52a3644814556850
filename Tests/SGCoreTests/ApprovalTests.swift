import Foundation
import Testing
@testable import SGCore

/// Who decides a request (`Approval`), over contexts as the store reads them.
@Suite struct ApprovalTests {
    static let today = CalendarDate(iso: "2026-03-02")!

    static func person(_ id: Int64, _ username: String, admin: Bool = false) -> Employee {
        Employee(id: id, username: username, name: username.capitalized, surname: "Test", email: "", isAdmin: admin, isActive: true)
    }

    static let member = person(1, "mia")
    static let manager = person(2, "max")
    static let deputy = person(3, "dora")
    static let substitute = person(4, "sam")
    static let admin = person(5, "ada", admin: true)
    static let otherAdmin = person(6, "abe", admin: true)

    func request(of employee: Employee, _ status: HolidayStatus = .pending) -> HolidayRequest {
        HolidayRequest(
            id: 42, employeeID: employee.id, startDate: Self.today.adding(days: 7)!, endDate: Self.today.adding(days: 9)!,
            duration: .days(3), status: status, comment: "", createdAt: Date(), updatedAt: Date(), decidedBy: nil, decidedAt: nil)
    }

    func team(
        approvers: [Employee] = [manager, deputy], away: Set<Int64> = [], substitutes: [Int64: [Employee]] = [:],
        twoStage: Bool = false, admins: [Employee] = [admin, otherAdmin]
    ) -> ApprovalContext {
        ApprovalContext(teamID: 7, twoStage: twoStage, approvers: approvers, away: away, substitutes: substitutes, admins: admins)
    }

    func may(_ actor: Employee, _ action: HolidayAction = .approve, _ request: HolidayRequest, _ context: ApprovalContext) -> Bool {
        HolidayRules.refusal(action, on: request, by: actor.actor, today: Self.today, approval: context) == nil
    }

    @Test func withoutTeamsTheAdminsDecide() {
        let context = ApprovalContext(admins: [Self.admin, Self.otherAdmin])
        #expect(Approval.asked(for: request(of: Self.member), context).map(\.id) == [5, 6])
        #expect(may(Self.admin, .approve, request(of: Self.member), context))
        #expect(!may(Self.manager, .approve, request(of: Self.member), context))
        // An admin's own request goes to the other admin.
        #expect(Approval.asked(for: request(of: Self.admin), context).map(\.id) == [6])
        #expect(!may(Self.admin, .approve, request(of: Self.admin), context))
        #expect(may(Self.otherAdmin, .approve, request(of: Self.admin), context))
    }

    @Test func theTeamsApproversDecideTheirMembersRequests() {
        let context = team()
        #expect(Approval.asked(for: request(of: Self.member), context).map(\.id) == [2, 3])
        for actor in [Self.manager, Self.deputy, Self.admin] {
            #expect(may(actor, .approve, request(of: Self.member), context))
            #expect(may(actor, .reject, request(of: Self.member), context))
            #expect(may(actor, .revert, request(of: Self.member, .approved), context))
        }
        // Cancelling stays the owner's and the admins'.
        #expect(!may(Self.manager, .cancel, request(of: Self.member), context))
        #expect(may(Self.member, .cancel, request(of: Self.member), context))
        #expect(!may(Self.substitute, .approve, request(of: Self.member), context))
        // Another team's approver is not in this context: no decision, and no reading.
        #expect(!Approval.mayRead(holidaysOf: Self.member.id, by: Self.substitute.actor, context))
        #expect(Approval.mayRead(holidaysOf: Self.member.id, by: Self.manager.actor, context))
    }

    @Test func anApproversOwnRequestGoesToTheOtherApproversThenToTheAdmins() {
        #expect(Approval.asked(for: request(of: Self.manager), team()).map(\.id) == [3])
        #expect(!may(Self.manager, .approve, request(of: Self.manager), team()))
        #expect(may(Self.deputy, .approve, request(of: Self.manager), team()))
        let alone = team(approvers: [Self.manager])
        #expect(Approval.asked(for: request(of: Self.manager), alone).map(\.id) == [5, 6])
        #expect(!may(Self.manager, .approve, request(of: Self.manager), alone))
        // Their substitute does not decide their own request for them.
        let delegated = team(approvers: [Self.manager], substitutes: [2: [Self.substitute]])
        #expect(!may(Self.substitute, .approve, request(of: Self.manager), delegated))
        #expect(Approval.asked(for: request(of: Self.manager), delegated).map(\.id) == [5, 6])
    }

    @Test func everyoneIsAskedOnceInTheOrderFirstNamed() {
        // Each approver substitutes for the other: both are present and both are substitutes.
        let crossed = team(substitutes: [2: [Self.deputy], 3: [Self.manager]])
        #expect(Approval.asked(for: request(of: Self.member), crossed).map(\.id) == [2, 3])
        let withSubstitute = team(approvers: [Self.manager], substitutes: [2: [Self.substitute, Self.manager]])
        #expect(Approval.asked(for: request(of: Self.member), withSubstitute).map(\.id) == [2, 4])
        // An admin who is also the team's approver, away: the admins are asked, each once.
        let adminApprover = team(approvers: [Self.admin], away: [5], substitutes: [5: [Self.otherAdmin]])
        #expect(Approval.asked(for: request(of: Self.member), adminApprover).map(\.id) == [6, 5])
    }

    @Test func whenEveryApproverIsAwayTheAdminsAreAskedToo() {
        let oneAway = team(away: [2])
        #expect(Approval.asked(for: request(of: Self.member), oneAway).map(\.id) == [3])
        let allAway = team(away: [2, 3])
        #expect(Approval.asked(for: request(of: Self.member), allAway).map(\.id) == [5, 6])
        // Away approvers may still decide.
        #expect(may(Self.manager, .approve, request(of: Self.member), allAway))
    }

    @Test func aRunningSubstituteDecidesForTheApprover() {
        let context = team(approvers: [Self.manager], away: [2], substitutes: [2: [Self.substitute]])
        #expect(may(Self.substitute, .approve, request(of: Self.member), context))
        #expect(Approval.mayRead(holidaysOf: Self.member.id, by: Self.substitute.actor, context))
        #expect(Approval.asked(for: request(of: Self.member), context).map(\.id) == [4, 5, 6])
        // Outside its dates the store reads no substitute.
        #expect(!may(Self.substitute, .approve, request(of: Self.member), team(approvers: [Self.manager], away: [2])))
    }

    @Test func twoStagesTheManagerThenAnAdmin() {
        let context = team(twoStage: true)
        #expect(HolidayAction.approve.target(from: .pending, twoStage: true, byAdmin: false) == .approvedByManager)
        #expect(HolidayAction.approve.target(from: .pending, twoStage: true, byAdmin: true) == .approved)
        #expect(HolidayAction.approve.target(from: .approvedByManager, twoStage: true, byAdmin: true) == .approved)
        #expect(HolidayAction.approve.target(from: .pending, twoStage: false, byAdmin: false) == .approved)
        let first = request(of: Self.member, .approvedByManager)
        #expect(Approval.asked(for: first, context).map(\.id) == [5, 6])
        #expect(!may(Self.manager, .approve, first, context))
        #expect(!may(Self.manager, .reject, first, context))
        #expect(may(Self.manager, .revert, first, context))
        #expect(may(Self.admin, .approve, first, context))
        // The final approval is the admins' to revert.
        #expect(!may(Self.manager, .revert, request(of: Self.member, .approved), context))
        #expect(may(Self.admin, .revert, request(of: Self.member, .approved), context))
        // An illegal move by an entitled approver is a conflict of states, not a refusal of rights.
        #expect(HolidayRules.refusal(.approve, on: request(of: Self.member, .rejected), by: Self.manager.actor, today: Self.today, approval: context) == .wrongState)
        #expect(Approval.asked(for: request(of: Self.member, .approved), context).isEmpty)
    }

    @Test func theSingleAdminDecidesTheirOwnRequestWhenNobodyElseCan() {
        let alone = ApprovalContext(admins: [Self.admin])
        #expect(Approval.asked(for: request(of: Self.admin), alone).map(\.id) == [5])
        #expect(may(Self.admin, .approve, request(of: Self.admin), alone))
        // With an approver in their team, the approver decides.
        let managed = team(approvers: [Self.manager], admins: [Self.admin])
        #expect(!may(Self.admin, .approve, request(of: Self.admin), managed))
        #expect(Approval.asked(for: request(of: Self.admin), managed).map(\.id) == [2])
        // The second stage has no approver above them.
        let twoStage = team(approvers: [Self.manager], twoStage: true, admins: [Self.admin])
        #expect(may(Self.admin, .approve, request(of: Self.admin, .approvedByManager), twoStage))
    }
}
