import CSQLiteConfig

/// Settings of the SQLite library for the whole process, made by each binary before it opens a database.
public enum SQLiteLibrary {
    /// Stops SQLite counting the memory it allocates (`SQLITE_CONFIG_MEMSTATUS`, on in Debian's build): the count
    /// takes one mutex of the process at every allocation, shared by the writer and every read connection, and
    /// nothing here asks SQLite for those counts (see docs/performance.md). False if SQLite was already
    /// initialized, when the setting can no longer change.
    @discardableResult
    public static func configureForThisProcess() -> Bool {
        sg_sqlite3_config_memstatus(0) == 0
    }
}
