#ifndef SG_CSQLITECONFIG_SHIM_H
#define SG_CSQLITECONFIG_SHIM_H

#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one function per setting the binaries make.

/// Whether SQLite counts the memory it allocates. Counting takes a mutex shared by every connection of the process
/// at each allocation. Only before SQLite is initialized (the first connection opened); SQLITE_MISUSE after.
static inline int sg_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
