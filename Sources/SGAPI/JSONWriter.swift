import Foundation
import Hummingbird
import SGCore

/// A response body that writes itself as JSON.
protocol JSONBody {
    func write(to json: inout JSONWriter)
}

/// Writes JSON straight into the response's bytes.
///
/// JSONEncoder builds a tree of boxed values, looks up generic metadata for every field and sorts the keys of every
/// object, which is too slow for the busiest routes. Our bodies are a handful of fixed shapes, so each writes its
/// fields itself, keys already in sorted order (the order JSONEncoder's `.sortedKeys` gives them, so the bytes are
/// the same). Strings are escaped as JSONEncoder escapes them, slashes left alone.
struct JSONWriter {
    /// Plain bytes while writing (appending to an array is cheaper than to a ByteBuffer), copied once at the end.
    private var bytes: [UInt8] = []
    private var needsComma = false
    /// The last list of employee references written and its bytes: a page of requests names the same approvers (the
    /// admins, a team's approvers) on most of its items, read from one snapshot.
    private var lastEmployeeRefs: (employees: [Employee], bytes: [UInt8])?

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    var buffer: ByteBuffer { ByteBuffer(bytes: bytes) }
    var utf8: [UInt8] { bytes }

    /// `employees` as an array of `EmployeeRef`s; the bytes of the list before it again when it names the same
    /// employees the same way.
    mutating func employeeRefs(_ employees: [Employee]) {
        if let last = lastEmployeeRefs, last.employees.elementsEqual(employees, by: DTO.EmployeeRef.sameBody) {
            separate()
            bytes.append(contentsOf: last.bytes)
            needsComma = true
            return
        }
        separate()
        needsComma = false
        let start = bytes.count
        array(employees) { json, employee in json.value(DTO.EmployeeRef(employee)) }
        lastEmployeeRefs = (employees, Array(bytes[start...]))
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<S: Sequence>(_ elements: S, _ body: (inout JSONWriter, S.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// The key of the next value; keys are code literals, which need no escaping.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        append(name)
        append("\":")
        needsComma = false
    }

    /// A key computed at run time (escaped like any string).
    mutating func key(dynamic name: String) {
        separate()
        writeEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func value(_ text: String) {
        separate()
        writeEscaped(text)
        needsComma = true
    }

    mutating func value(_ text: String?) {
        if let text { value(text) } else { null() }
    }

    mutating func value(_ number: Int) {
        separate()
        if number >= 0 && number < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(number))
        } else {
            bytes.append(contentsOf: String(number).utf8)
        }
        needsComma = true
    }

    mutating func value(_ number: Int64) { value(Int(number)) }

    /// Days as a JSON number: whole days as integers, halves as x.5.
    mutating func value(_ days: HalfDays) {
        separate()
        bytes.append(contentsOf: days.description.utf8)
        needsComma = true
    }

    mutating func value(_ days: HalfDays?) {
        if let days { value(days) } else { null() }
    }

    mutating func value(_ number: Int64?) {
        if let number { value(number) } else { null() }
    }

    mutating func value(_ flag: Bool) {
        separate()
        append(flag ? "true" : "false")
        needsComma = true
    }

    mutating func value(_ date: CalendarDate) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { scratch in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<date.write(into: scratch)]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// An instant as `Timestamp.format` writes it.
    mutating func value(_ instant: Date) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { scratch in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<Timestamp.write(instant, into: scratch)]))
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func value(_ instant: Date?) {
        if let instant { value(instant) } else { null() }
    }

    /// A value already encoded as JSON (by JSONEncoder, for the bodies that are `Encodable`).
    mutating func value(encoded json: Data) {
        separate()
        bytes.append(contentsOf: json)
        needsComma = true
    }

    mutating func value(_ body: some JSONBody) {
        body.write(to: &self)
    }

    mutating func null() {
        separate()
        append("null")
        needsComma = true
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeEscaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var clean = 0  // start of the run of bytes that need no escape
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                switch byte {
                case UInt8(ascii: "\""): self.append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    append("\\u00")
                    self.bytes.append(byte >> 4 == 0 ? UInt8(ascii: "0") : UInt8(ascii: "1"))
                    let low = byte & 0x0F
                    self.bytes.append(low < 10 ? UInt8(ascii: "0") + low : UInt8(ascii: "a") + low - 10)
                }
                clean = index + 1
            }
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
