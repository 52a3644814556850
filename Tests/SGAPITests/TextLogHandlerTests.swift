import Foundation
import Logging
import Testing
@testable import SGAPI

/// The default log's lines: swift-log's `StreamLogHandler` format, metadata sorted by key, one line per call.
@Suite struct TextLogHandlerTests {
    @Test func linesReadAsStreamLogHandlersWithTheMetadataOfTheirMoment() throws {
        let file = try LogFile()
        let descriptor = file.descriptor
        var logger = Logger(label: "sgserver") { label in TextLogHandler(label: label, output: descriptor) }
        logger.logLevel = .info
        logger[metadataKey: "hb.request.id"] = "r1"
        logger[metadataKey: "a"] = "1"
        logger.debug("not written")
        logger.warning("first", metadata: ["z": "last"])
        logger[metadataKey: "hb.request.id"] = "r2"
        logger[metadataKey: "a"] = nil
        logger.info("second")
        let lines = try file.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines[2].isEmpty, "\(lines)")
        let stamp = #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}"#
        #expect(lines[0].wholeMatch(of: try Regex(stamp + #" warning sgserver: a=1 hb\.request\.id=r1 z=last \[SGAPITests\] first"#)) != nil, "\(lines[0])")
        #expect(lines[1].wholeMatch(of: try Regex(stamp + #" info sgserver: hb\.request\.id=r2 \[SGAPITests\] second"#)) != nil, "\(lines[1])")
    }

    @Test func aLineWithoutMetadataHasNoGap() {
        let line = TextLogHandler.line(time: 0, level: .error, label: "sgadmin", message: "m", source: "S", metadata: [:])
        #expect(line.hasSuffix(" error sgadmin: [S] m\n"), "\(line)")
    }

    /// A feed's or a receiver's answer quoted in a line cannot drive the terminal that shows the log, nor forge a line.
    @Test func controlCharactersFromOutsideAreShownEscaped() {
        let hostile = "HTTP 500: \u{1B}]0;owned\u{07}\u{1B}[2J\nFAKE error sgserver: [x] all is well\r\u{9B}31m"
        let line = TextLogHandler.line(
            time: 0, level: .warning, label: "sgserver.delivery", message: "Delivery failed: \(hostile)", source: "S",
            metadata: ["error": .string(hostile)])
        #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"), "one line: \(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F || (0x80...0x9F).contains($0.value) })
        #expect(line.contains("\\u{1b}]0;owned\\u{7}") && line.contains("\\u{a}FAKE") && line.contains("\\u{9b}31m"), "\(line)")
    }
}
