extension Duration {
    /// Whole nanoseconds (swift-metrics' timers, NIO's time amounts).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Whole milliseconds (SQLite's busy time-out, PostgreSQL's lock_timeout).
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }
}
