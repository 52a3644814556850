import CLZ4
import NIOCore

/// A body kept between requests, compressed with LZ4 (block format): a year view of the benchmark's company takes
/// about 900 bytes instead of 2,500, so the views a server keeps for every employee take about a third of the memory
/// they would. Expanding one into its response costs about what copying it would (see docs/performance.md).
struct CompressedBody: Sendable {
    /// The compressed bytes, in an allocation of their own size.
    private let compressed: [UInt8]
    /// The body's length before compression.
    let count: Int

    init(_ body: [UInt8]) {
        count = body.count
        let bound = Int(LZ4_compressBound(Int32(body.count)))
        let scratch = [UInt8](unsafeUninitializedCapacity: bound) { target, written in
            written = body.withUnsafeBufferPointer { source in
                Int(LZ4_compress_default(
                    source.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    target.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) },
                    Int32(source.count), Int32(bound)))
            }
        }
        // LZ4_compressBound leaves room for any input of the size; 0 would be a body over LZ4's 2 GB limit.
        precondition(!scratch.isEmpty || body.isEmpty, "a kept body is at most LZ4_MAX_INPUT_SIZE bytes")
        // Copied into an allocation of the compressed size: `scratch` has the bound's capacity, more than the body's.
        compressed = [UInt8](unsafeUninitializedCapacity: scratch.count) { target, initialized in
            initialized = target.initialize(fromContentsOf: scratch)
        }
    }

    /// Bytes kept (and, for the tests, the capacity they take).
    var compressedCount: Int { compressed.count }
    var compressedCapacity: Int { compressed.capacity }

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
