import ArgumentParser
import Foundation
import SGCore
import SGSettings

struct Export: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "HR's CSV for a year: one row per request, or with --balances one row per employee.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The year.") var year: Int
    @Flag(help: "One row per employee with allowance, approved, pending and remaining.") var balances = false
    @Option(help: "Write to this file (replaced whole, never half-written) instead of standard output.") var output: String?

    func run(_ context: AdminContext) async throws {
        let services = context.services
        let actor = try await context.actor()
        try HolidayService.checkReport(year: year, by: actor)
        // Rows are written as they are read, so a year of a large company never sits in memory at once. A file
        // is written beside the target and renamed over it, so a reader never sees half a file.
        let temporary = output.map { $0 + ".partial-\(ProcessInfo.processInfo.processIdentifier)" }
        var rows = 0
        do {
            // Created here, so that a failure to open the file is reported as itself and leaves nothing behind.
            let sink = try temporary.map(OutputSink.init(creatingFileAt:)) ?? OutputSink(FileHandle.standardOutput)
            rows = try await write(services.holidays, by: actor, to: sink)
            try sink.close()
        } catch {
            if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
            if error is SGError { throw error }
            throw SGError.conflict("Could not write \(output ?? "the export"): \(error.localizedDescription)")
        }
        if let output, let temporary {
            // rename(2) replaces the target atomically.
            guard rename(temporary, output) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(atPath: temporary)
                throw SGError.conflict("Could not write \(output): \(reason)")
            }
            // The CSV went to the file: say what is in it.
            let what = balances ? (rows == 1 ? "employee's balance" : "employees' balances") : (rows == 1 ? "request" : "requests")
            printOut("Wrote \(rows) \(what) of \(year) to \(output).\n")
        }
    }

    /// Writes the header and the rows; returns how many rows.
    private func write(_ holidays: HolidayService, by actor: Actor, to sink: OutputSink) async throws -> Int {
        if balances {
            try sink.write(HolidayReportLayout.balanceColumns.map(CSV.Cell.text))
            for (employee, balance) in try await holidays.balances(year: year, by: actor) {
                try sink.write(HolidayReportLayout.balanceCells(employee, balance, year: year))
            }
        } else {
            try sink.write(HolidayReportLayout.requestColumns.map(CSV.Cell.text))
            try await holidays.export(year: year, by: actor) { row in
                try sink.write(HolidayReportLayout.requestCells(row))
            }
        }
        return sink.records - 1
    }
}

/// Buffered CSV records to a file or standard output, flushed every 256 KiB.
/// Used by one command at a time; the export hands it rows from the store's read, which waits for it.
final class OutputSink: @unchecked Sendable {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []
    /// Records written, the header included.
    private(set) var records = 0

    init(_ handle: FileHandle) {
        self.handle = handle
        self.ownsHandle = false
        buffer.reserveCapacity(Self.flushSize)
    }

    /// Creates (or empties) the file at `path`.
    init(creatingFileAt path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SGError.conflict("Could not create \(path): \(String(cString: strerror(errno)))")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        ownsHandle = true
        buffer.reserveCapacity(Self.flushSize)
    }

    private static let flushSize = 256 * 1024

    /// One CSV record.
    func write(_ cells: [CSV.Cell]) throws {
        CSV.append(cells, to: &buffer)
        records += 1
        if buffer.count >= Self.flushSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if ownsHandle { try handle.close() }
    }
}
