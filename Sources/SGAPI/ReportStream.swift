import Dispatch
import Foundation
import Hummingbird
import SGCore

/// HR's reports as a streamed response body, CSV or JSON, written as the rows are read.
///
/// The rows come from one read transaction on a database thread, which must not outrun a slow client: it hands
/// over chunks of 64 KiB and stops once four are waiting to be sent, until the client has taken one (and gives up
/// after 30 seconds of a client taking nothing, or as soon as the client is gone). The response starts only once
/// the first chunk is there, so a report that fails at once is a problem document, never a report cut short.
enum ReportStream {
    enum Format {
        case csv, json
    }

    static let chunkBytes = 64 * 1024
    static let chunksAhead = 4
    static let clientWait = DispatchTimeInterval.seconds(30)

    /// `rows` reads the report and calls `emit` with each row's cells, in `columns` order.
    static func response(
        _ format: Format, columns: [String], filename: String,
        rows: @escaping @Sendable (_ emit: @escaping @Sendable ([CSV.Cell]) throws -> Void) async throws -> Void
    ) async throws -> Response {
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        let pipe = Pipe(format, columns: columns, continuation: continuation)
        Task {
            do {
                try await rows { cells in try pipe.emit(cells) }
                try pipe.finish()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        let chunks = Chunks(stream.makeAsyncIterator())
        let first: ByteBuffer?
        do {
            first = try await chunks.next()
        } catch {
            pipe.consumerGone()
            throw error
        }
        var headers = HTTPFields()
        switch format {
        case .csv:
            headers[.contentType] = "text/csv; charset=utf-8; header=present"
            headers[.contentDisposition] = "attachment; filename=\"\(filename).csv\""
        case .json:
            headers[.contentType] = "application/json"
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { pipe.consumerGone() }
            var next = first
            while let chunk = next {
                try await writer.write(chunk)
                pipe.chunkSent()
                next = try await chunks.next()
            }
            try await writer.finish(nil)
        })
    }

    /// The producer's side: rows in, chunks out. `emit` and `finish` are called by one producer at a time.
    private final class Pipe: @unchecked Sendable {
        private let format: Format
        private let jsonKeys: [String]
        private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
        private let permits = DispatchSemaphore(value: ReportStream.chunksAhead)
        private let lock = NSLock()
        private var gone = false
        private var pending: [UInt8] = []
        private var rowCount = 0

        init(_ format: Format, columns: [String], continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation) {
            self.format = format
            self.continuation = continuation
            jsonKeys = columns.map(HolidayReportLayout.jsonKey)
            pending.reserveCapacity(ReportStream.chunkBytes + 4096)
            switch format {
            case .csv: CSV.append(columns.map(CSV.Cell.text), to: &pending)
            case .json: pending.append(UInt8(ascii: "["))
            }
        }

        func emit(_ cells: [CSV.Cell]) throws {
            switch format {
            case .csv:
                CSV.append(cells, to: &pending)
            case .json:
                var json = JSONWriter(capacity: 512)
                json.object { json in
                    for (key, cell) in zip(jsonKeys, cells) {
                        json.key(dynamic: key)
                        switch cell {
                        case .text(let text): json.value(text)
                        case .number(let number): json.value(number)
                        case .days(let days): json.value(days)
                        case .flag(let flag): json.value(flag)
                        case .absent: json.null()
                        }
                    }
                }
                if rowCount > 0 { pending.append(UInt8(ascii: ",")) }
                pending.append(contentsOf: json.utf8)
            }
            rowCount += 1
            if pending.count >= ReportStream.chunkBytes { try send() }
        }

        func finish() throws {
            if format == .json { pending.append(UInt8(ascii: "]")) }
            try send()
        }

        /// Hands the pending bytes over once the client has room for them.
        private func send() throws {
            if permits.wait(timeout: .now() + ReportStream.clientWait) == .timedOut {
                throw SGError.unavailable("The client took nothing of the report for 30 seconds.", retryAfterSeconds: 1)
            }
            if lock.withLock({ gone }) { throw CancellationError() }
            continuation.yield(ByteBuffer(bytes: pending))
            pending.removeAll(keepingCapacity: true)
        }

        func chunkSent() {
            permits.signal()
        }

        /// The response ended (sent whole, failed, or the client left): a producer waiting for room stops.
        func consumerGone() {
            lock.withLock { gone = true }
            permits.signal()
        }
    }

    /// The consumer's side of the stream, shared by the handler (the first chunk) and the body writer (the rest).
    private final class Chunks: @unchecked Sendable {
        private var iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator

        init(_ iterator: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator) {
            self.iterator = iterator
        }

        func next() async throws -> ByteBuffer? {
            try await iterator.next()
        }
    }
}
