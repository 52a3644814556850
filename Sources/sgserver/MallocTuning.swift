#if canImport(Glibc)
import Glibc

/// glibc's allocator gives freed memory back to the kernel as soon as more than 128 KiB lie free at the top of a
/// thread's heap, and serves blocks from 128 KiB up with a fresh mapping each time. A server that allocates and
/// frees SQLite page caches, statement buffers and bodies on every request then pays for `madvise`, page faults and
/// TLB shootdowns on each, much of the database writer's time (see docs/performance.md). The process keeps up to
/// `trimThreshold` free at the top of each heap and maps only blocks from `mmapThreshold` up; both stay within the
/// server's memory budget.
enum MallocTuning {
    static let trimThreshold: Int32 = 64 << 20
    static let mmapThreshold: Int32 = 4 << 20

    // <malloc.h> is not part of Swift's Glibc module: mallopt is looked up by name, with the parameters' values of
    // glibc's ABI (M_TRIM_THRESHOLD -1, M_MMAP_THRESHOLD -3).
    private typealias Mallopt = @convention(c) (Int32, Int32) -> Int32

    static func keepFreedMemory() {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-1, trimThreshold)
        _ = mallopt(-3, mmapThreshold)
    }
}
#else
enum MallocTuning {
    static func keepFreedMemory() {}
}
#endif
