import NIOCore
import Testing
@testable import SGAPI

/// Kept bodies come back byte for byte, whatever they hold, and a year view takes a fraction of its size.
@Suite struct CompressedBodyTests {
    @Test(arguments: [0, 1, 17, 2_500, 70_000])
    func expandsToTheSameBytes(length: Int) {
        // Text that repeats (JSON's keys) and text that does not (names, comments, any UTF-8).
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [Array(#"{"status":"approved","startDate":"2026-"#.utf8), Array("José Núñez «fiesta» 🏖️".utf8)]
        var body: [UInt8] = []
        while body.count < length {
            body += Bool.random(using: &generator) ? pieces[Int.random(in: 0...1)] : (0..<8).map { _ in UInt8.random(in: 0...255) }
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
    }
}
