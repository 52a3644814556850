import Foundation
import Logging
import SGCore
#if canImport(Glibc)
import Glibc
#endif

/// The server's default log: lines as swift-log's `StreamLogHandler` writes them on standard error
/// (`<local time> <level> <label>: <key=value …> [<source>] <message>`), with the metadata rendered only when a line
/// is written. `StreamLogHandler` renders it again whenever a key is set, and every request sets one (its id): a few
/// percent of a request that logs nothing.
public struct TextLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: Int32

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, output: Int32 = STDERR_FILENO) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let line = Self.line(
            time: time(nil), level: event.level, label: label, message: event.message.description, source: event.source,
            metadata: LogLines.metadata(metadata, metadataProvider, event))
        LogLines.write(Array(line.utf8), to: output)
    }

    static func line(
        time: time_t, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> String {
        // What a log line quotes may come from outside (a feed's or a receiver's answer, a name): control characters
        // are shown escaped, so nothing written into the log can move a terminal's cursor or forge a line.
        let pairs = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\(TextRules.shownSafely("\($0.value)"))" }.joined(separator: " ")
        let message = TextRules.shownSafely(message)
        return "\(timestamp(time)) \(level)\(label.isEmpty ? "" : " ")\(label):\(pairs.isEmpty ? "" : " " + pairs) [\(source)] \(message)\n"
    }

    /// Local time with its offset, as `StreamLogHandler` writes it.
    static func timestamp(_ time: time_t) -> String {
        var time = time
        var local = tm()
        guard localtime_r(&time, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
