import NIOCore
import SGTestSupport
import Testing
@testable import SGAPI

/// Kept bodies come back byte for byte, whatever they hold, and a year view takes a fraction of its size.
@Suite struct CompressedBodyTests {
    /// Bodies of text that repeats (JSON's keys) mixed with text that does not (names, comments, any UTF-8), and of
    /// bytes that do not compress at all (LZ4 then writes more than it read, up to `LZ4_compressBound`).
    @Test(arguments: [0, 1, 17, 2_500, 70_000], [true, false])
    func expandsToTheSameBytes(length: Int, repetitive: Bool) {
        var random = SeededRandom(seed: UInt64(length) * 2 + (repetitive ? 1 : 0))
        let pieces: [[UInt8]] = [Array(#"{"status":"approved","startDate":"2026-"#.utf8), Array("José Núñez «fiesta» 🏖️".utf8)]
        var body: [UInt8] = []
        while body.count < length {
            if repetitive && Bool.random(using: &random) {
                body += pieces[Int.random(in: 0...1, using: &random)]
            } else {
                body += (0..<8).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
        }
        body = Array(body.prefix(length))
        let kept = CompressedBody(body)
        #expect(kept.count == length)
        #expect(Array(buffer: kept.buffer) == body)
        // Appended after what the buffer already holds, as a response's bytes are.
        var buffer = ByteBuffer(string: "prefix")
        kept.write(to: &buffer)
        #expect(Array(buffer: buffer) == Array("prefix".utf8) + body)
    }

    @Test func aYearViewTakesAFractionOfItsSize() {
        let requests = (1...8).map { number in
            #"{"allowedActions":[],"approvers":[],"comment":"Ski week","createdAt":"2026-03-1\#(number)T14:12:12.000Z","#
                + #""decidedBy":"admin1\#(number)","employeeId":45,"endDate":"2026-04-0\#(number)","id":25172\#(number),"#
                + #""leaveTypeId":1,"leaveTypeName":"holiday","startDate":"2026-03-2\#(number)","status":"approved"}"#
        }
        let body = Array((#"{"requests":["# + requests.joined(separator: ",") + #"],"year":2026}"#).utf8)
        let kept = CompressedBody(body)
        #expect(Array(buffer: kept.buffer) == body)
        #expect(kept.compressedCount * 2 < body.count, "\(kept.compressedCount) of \(body.count) bytes")
        // Kept in an allocation of about that size, not of the room compression needed.
        #expect(kept.compressedCapacity < kept.compressedCount + 64)
    }
}
