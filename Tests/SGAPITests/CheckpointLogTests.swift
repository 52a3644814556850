import Foundation
import Testing
@testable import SGAPI

/// Issue 18, finding 5: with the disk full, the checkpoint loop logged its failure five times a second.
@Suite struct CheckpointLogTests {
    @Test func aRepeatedFailureIsReportedLessAndLessOftenThenItsEnd() {
        var log = RepeatedFailureLog()
        let start = ContinuousClock.now
        var reports: [Int] = []
        // An hour of failures, five a second.
        for tick in 0..<(5 * 3600) {
            if let count = log.failed(at: start + .milliseconds(200 * tick)) { reports.append(count) }
        }
        #expect(reports.first == 1)
        // 1, 2, 4, ... 256 s apart, then every 5 minutes: about twenty lines, not 18,000.
        #expect(reports.count <= 25, "\(reports.count) lines")
        #expect(reports.reduce(0, +) <= 5 * 3600 && reports.reduce(0, +) > 5 * 3500)
        #expect(log.succeeded() == 5 * 3600)
        // Over: the next failure is reported at once again.
        #expect(log.succeeded() == nil)
        #expect(log.failed(at: start + .seconds(4000)) == 1)
    }
}
