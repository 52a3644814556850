import CLZ4
import NIOCore

/// A body kept between requests, compressed with LZ4 (block format): a year view of the benchmark's company takes
/// about 900 bytes instead of 2,500, so the 10,000 views a server keeps take 9 MB instead of 25, and a company ten
/// times the size a tenth of its memory less than it would. Expanding it into a response costs well under a
/// microsecond, about what copying it did.
struct CompressedBody: Sendable {
    /// The compressed bytes, in an allocation of their own size.
    private let compressed: [UInt8]
    /// The body's length before compression.
    let count: Int

    init(_ body: [UInt8]) {
        count = body.count
        let bound = Int(LZ4_compressBound(Int32(body.count)))
        var scratch = [UInt8](repeating: 0, count: bound)
        let written = body.withUnsafeBufferPointer { source in
            scratch.withUnsafeMutableBufferPointer { target in
                LZ4_compress_default(
                    source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    target.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    Int32(source.count), Int32(target.count))
            }
        }
        // LZ4_compressBound leaves room for any input of the size; 0 would be a body over LZ4's 2 GB limit.
        precondition(written > 0 || body.isEmpty, "a kept body is at most LZ4_MAX_INPUT_SIZE bytes")
        compressed = Array(scratch[0..<Int(written)])
    }

    /// Bytes kept.
    var compressedCount: Int { compressed.count }

    /// The body as it was, appended to `buffer`.
    func write(to buffer: inout ByteBuffer) {
        guard count > 0 else { return }
        let expanded = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
            compressed.withUnsafeBufferPointer { source in
                max(0, Int(LZ4_decompress_safe(
                    UnsafeRawPointer(source.baseAddress!).assumingMemoryBound(to: CChar.self),
                    target.baseAddress!.assumingMemoryBound(to: CChar.self),
                    Int32(source.count), Int32(count))))
            }
        }
        // Only this type writes `compressed`, from `count` bytes: anything else is memory gone wrong.
        precondition(expanded == count, "a kept body did not expand to its length")
    }

    /// The body as it was, in a buffer of its own.
    var buffer: ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        write(to: &buffer)
        return buffer
    }
}
