import Foundation

/// The Python of the repository's .venv (scripts/venv.sh makes it; scripts/test.sh runs that first), which runs the
/// stand-in servers of scripts/delivery.
public enum Venv {
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let python = repository.appendingPathComponent(".venv/bin/python").path
    /// Under CI a missing venv fails the tests instead of skipping them.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
    public static let isAvailable = FileManager.default.isExecutableFile(atPath: python)
    /// The suites that need the servers run when they can, and under CI always (to fail when they cannot).
    public static var shouldRun: Bool { isAvailable || isCI }

    public static func checkAvailable() throws {
        guard isAvailable else {
            throw TestSetupError("\(python) is missing: run scripts/venv.sh (it installs the pinned tools into .venv/)")
        }
    }

    /// A new empty folder under the temporary directory.
    public static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// JSON lines of `file` as objects (none when the file is missing).
    public static func jsonLines(_ file: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}

/// scripts/delivery/feed_server.py on 127.0.0.1: each path serves a file (with ETag, Last-Modified and 304s),
/// hangs, answers a status, a body too large, or garbage.
public final class TestFeedServer: @unchecked Sendable {
    static let script = Venv.repository.appendingPathComponent("scripts/delivery/feed_server.py").path

    public let folder: URL
    public let port: Int
    private let process: ServerProcess

    private init(folder: URL, port: Int) {
        self.folder = folder
        self.port = port
        process = ServerProcess(log: folder.appendingPathComponent("server.log"))
    }

    /// `files`: path → the document it serves (the file can be changed later with `write`); `routes`: path →
    /// hang, status:CODE, big:BYTES or garbage.
    public static func start(files: [String: String], routes: [String: String] = [:]) async throws -> TestFeedServer {
        try Venv.checkAvailable()
        let folder = try Venv.temporaryFolder("sg-feeds")
        var all = routes
        for (path, text) in files {
            let file = folder.appendingPathComponent(Self.fileName(path))
            try Data(text.utf8).write(to: file)
            all[path] = "file:\(file.path)"
        }
        var lastError: (any Error)?
        for _ in 0..<3 {
            let server = TestFeedServer(folder: folder, port: freePort())
            var arguments = [script, "--port", String(server.port), "--log", folder.appendingPathComponent("requests.jsonl").path]
            for (path, behaviour) in all.sorted(by: { $0.key < $1.key }) { arguments += ["--route", "\(path)=\(behaviour)"] }
            let command = arguments
            do {
                try await offload { try server.process.start(Venv.python, command, ports: [server.port], timeout: 20) }
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    private static func fileName(_ path: String) -> String {
        "feed" + path.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() + ".xml"
    }

    /// Serves `text` at `path` from now on, with a new ETag and a later Last-Modified.
    public func write(_ text: String, at path: String, modified: Date = Date().addingTimeInterval(60)) throws {
        let file = folder.appendingPathComponent(Self.fileName(path))
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
    }

    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// One JSON object per request received: path, headers (lowercased names), status.
    public func requests(to path: String) -> [[String: Any]] {
        Venv.jsonLines(folder.appendingPathComponent("requests.jsonl")).filter { $0["path"] as? String == path }
    }

    public func stop() async { try? await offload { self.process.stop() } }

    public func shutdown() async {
        await stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
