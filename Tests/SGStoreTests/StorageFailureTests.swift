import Foundation
import GRDB
import Testing
import SGCore
@testable import SGStore

/// Issue 18, finding 5: the disk refusing work is said in words, as a 503 the client may retry later.
@Suite struct StorageFailureTests {
    @Test func eachRefusalOfTheDiskIsSaidInWords() {
        for (code, words) in [(ResultCode.SQLITE_FULL, "full"), (.SQLITE_READONLY, "read-only"), (ResultCode(rawValue: 778), "I/O error")] {
            let translated = AppDatabase.translated(DatabaseError(resultCode: code, message: "x", sql: "COMMIT"))
            guard case SGError.unavailable(let message, let retry)? = translated as? SGError else {
                Issue.record("\(code): \(translated)")
                continue
            }
            #expect(message.contains(words) && !message.contains("SQLite") && retry > 0, "\(message)")
        }
        // Other failures are left as they are.
        #expect(AppDatabase.translated(DatabaseError(resultCode: .SQLITE_CONSTRAINT)) is DatabaseError)
    }
}
