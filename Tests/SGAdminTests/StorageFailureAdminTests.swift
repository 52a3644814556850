import Foundation
import Testing
import SGCore
import SGStore
import SGTestSupport

/// A small RAM disk (tmpfs) of its own, for running out of space for real. Mounting needs root; where it is
/// refused, the tests that need one are skipped.
struct SmallDisk {
    let folder: String

    static let canMount: Bool = {
        guard getuid() == 0, let disk = SmallDisk(kilobytes: 64) else { return false }
        disk.remove()
        return true
    }()

    init?(kilobytes: Int) {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-disk-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard (try? runTool("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", folder])) != nil else {
            try? FileManager.default.removeItem(atPath: folder)
            return nil
        }
    }

    /// Takes up every free byte with a file of its own.
    func fill() {
        _ = FileManager.default.createFile(atPath: folder + "/filler", contents: nil)
        guard let handle = FileHandle(forWritingAtPath: folder + "/filler") else { return }
        let chunk = Data(count: 4096)
        for _ in 0..<100_000 {
            do { try handle.write(contentsOf: chunk) } catch { break }
        }
        try? handle.close()
    }

    func remove() {
        _ = try? runTool("/bin/umount", ["-l", folder])
        try? FileManager.default.removeItem(atPath: folder)
    }
}

@Suite(.serialized) struct StorageFailureAdminTests {
    /// Issue 18, finding 5: on a full disk sgadmin printed "SQLite error 13"; an operator should read what is wrong.
    @Test(.enabled(if: SmallDisk.canMount, "mounting a small tmpfs needs root"))
    func aFullDiskIsSaidInWords() async throws {
        let disk = try #require(SmallDisk(kilobytes: 4096))
        defer { disk.remove() }
        let path = disk.folder + "/sg.sqlite"
        let f = try await Fixture.make(path: path)
        _ = try await f.services.notices.board(for: f.alice.actor)
        disk.fill()
        let cli = AdminCLI(databasePath: path)
        let post = try cli.run(["notice", "post", "--title", "Fire drill", "--body", String(repeating: "Long text. ", count: 900)])
        #expect(post.status == 1)
        #expect(post.stderr.hasPrefix("sgadmin: "), "\(post.stderr)")
        #expect(post.stderr.contains("full") && !post.stderr.contains("SQLite error"), "\(post.stderr)")
    }
}
