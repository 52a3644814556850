import Foundation
import Logging
import SGCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `SG_LOG_FORMAT=json`: one JSON object per line on standard error, for log collectors. Fixed keys first
/// (`time` in UTC with milliseconds, `level`, `label`, `message`, `source`), then the metadata's, by name;
/// `hb.request.id` names the request a line belongs to. A metadata key that would repeat a fixed one is written
/// as `metadata.<key>`. Strings are escaped as JSON needs; each line is written whole, in one call.
public struct JSONLogHandler: LogHandler {
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

    static let fixedKeys: Set<String> = ["time", "level", "label", "message", "source"]

    public func log(event: LogEvent) {
        let line = Self.line(
            time: Date(), level: event.level, label: label, message: event.message.description, source: event.source,
            metadata: LogLines.metadata(metadata, metadataProvider, event))
        LogLines.write(line, to: output)
    }

    static func line(
        time: Date, level: Logger.Level, label: String, message: String, source: String, metadata: Logger.Metadata
    ) -> [UInt8] {
        var json = JSONWriter(capacity: 256)
        json.object { json in
            json.key("time")
            json.value(timestamp(time))
            json.key("level")
            json.value(level.rawValue)
            json.key("label")
            json.value(label)
            json.key("message")
            json.value(message)
            json.key("source")
            json.value(source)
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
                json.key(dynamic: fixedKeys.contains(key) ? "metadata." + key : key)
                write(value, to: &json)
            }
        }
        // C1 controls and bidirectional marks are escaped too, so a terminal that shows the log acts on none.
        let bytes = json.utf8
        guard !bytes.allSatisfy({ $0 < 0x80 }) else { return bytes + [UInt8(ascii: "\n")] }
        return Array(TextRules.jsonWithEscapedControls(String(decoding: bytes, as: UTF8.self)).utf8) + [UInt8(ascii: "\n")]
    }

    private static func write(_ value: Logger.Metadata.Value, to json: inout JSONWriter) {
        switch value {
        case .string(let text): json.value(text)
        case .stringConvertible(let convertible): json.value(convertible.description)
        case .array(let values): json.array(values) { json, value in write(value, to: &json) }
        case .dictionary(let values):
            json.object { json in
                for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                    json.key(dynamic: key)
                    write(value, to: &json)
                }
            }
        }
    }

    /// `2026-11-25T14:03:07.123Z`.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let milliseconds = Int((interval - Double(seconds)) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}

/// What the server's log handlers share: the metadata of a line, and writing it.
enum LogLines {
    /// The handler's metadata, then its provider's, then the event's; a later value wins.
    static func metadata(_ base: Logger.Metadata, _ provider: Logger.MetadataProvider?, _ event: LogEvent) -> Logger.Metadata {
        var merged = base
        if let provided = provider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        return merged
    }

    /// Writes the whole line in one piece: lines from several threads are not interleaved.
    static func write(_ line: [UInt8], to output: Int32) {
        writing.withLock { _ in
            line.withUnsafeBufferPointer { bytes in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(output, bytes.baseAddress! + offset, bytes.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
        }
    }

    private static let writing = Mutex<Void>(())
}
