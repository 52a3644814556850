import ArgumentParser
import Foundation
import SGCore
import SGSQLite
import SGStore

/// `sgbench writes`: scenario 4's write mix without HTTP, one operation at a time, through the same services the
/// server calls. What one write costs on the database's single writer, by kind, on a seeded company: the part of
/// a write that no number of cores can run in parallel.
struct Writes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Time scenario 4's write mix in process, one write at a time (creates and moves).",
        discussion: """
            Each round creates a one-day request for the next employee on a free day and takes it through the chain \
            of moves scenario 4 uses for its id (approve → revert → reject, approve → cancel, reject, or cancel), so \
            every request ends final and the database keeps its invariants. Prints the time per write by kind.
            """)

    @Option(help: "A database seeded by `sgbench seed`.") var database: String
    @Option(help: "The tokens file written by `sgbench seed` (employee ids, usernames, admin flags).") var tokens: String
    @Option(help: "The free days written by `sgbench seed`.") var freeDays: String
    @Option(help: "Requests to create (each followed by its moves).") var requests: Int = 5_000
    @Option(help: "Requests created first and not counted.") var warmUp: Int = 500

    func validate() throws {
        guard requests > 0, warmUp >= 0 else { throw ValidationError("--requests must be positive, --warm-up not negative") }
    }

    func run() async throws {
        SQLiteLibrary.configureForThisProcess()
        // As the server runs it: the write-ahead log copied back in the background, off the writes' path.
        let database = try AppDatabase.open(path: database, schema: .requireCurrent, checkpointing: .background)
        let checkpoints = Task.detached {
            while !Task.isCancelled {
                _ = try? database.checkpoint()
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { checkpoints.cancel() }
        let holidays = database.services().holidays
        var employees: [Actor] = [], admins: [Actor] = []
        for line in try String(contentsOfFile: tokens, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t")
            guard fields.count >= 3, let id = Int64(fields[0]) else { continue }
            let actor = Actor(employeeID: id, name: String(fields[1]), isAdmin: fields[2] == "1")
            if actor.isAdmin { admins.append(actor) } else { employees.append(actor) }
        }
        let days = try String(contentsOfFile: freeDays, encoding: .utf8).split(separator: "\n").compactMap { CalendarDate(iso: String($0)) }
        guard !employees.isEmpty, !admins.isEmpty, !days.isEmpty else { throw ValidationError("no employees, admins or free days") }

        let chains: [[HolidayAction]] = [[.approve, .revert, .reject], [.approve, .cancel], [.reject], [.cancel]]
        var timings: [String: [Duration]] = [:]
        let clock = ContinuousClock()
        // Each employee books the free days in turn, starting at a day of its own, as scenario 4 does.
        var next: [Int64: Int] = [:]
        for round in 0..<(warmUp + requests) {
            let employee = employees[round % employees.count]
            let index = next[employee.employeeID!] ?? Int(employee.employeeID! % Int64(days.count))
            next[employee.employeeID!] = (index + 1) % days.count
            let day = days[index]
            let counted = round >= warmUp
            var request: HolidayRequest?
            let created = try await clock.measure {
                request = try await holidays.createRequest(for: employee.employeeID!, start: day, end: day, comment: "bench", actor: employee)
            }
            if counted { timings["create", default: []].append(created) }
            guard let id = request?.id else { continue }
            for action in chains[Int(id % 4)] {
                let actor = action == .cancel ? employee : admins[Int(id) % admins.count]
                let note = action == .reject ? "Release week" : ""
                let took = try await clock.measure { try await holidays.perform(action, on: id, by: actor, note: note) }
                if counted { timings[action.rawValue, default: []].append(took) }
            }
        }
        let all = timings.values.flatMap { $0 }
        print("kind      count   mean µs  median µs    p99 µs")
        for (kind, durations) in timings.sorted(by: { $0.key < $1.key }) + [("all", all)] {
            let micros = durations.map { $0 / .microseconds(1) }.sorted()
            let mean = micros.reduce(0, +) / Double(micros.count)
            let name = kind.padding(toLength: 8, withPad: " ", startingAt: 0)
            print(name + String(
                format: " %6d %9.1f %10.1f %9.1f", micros.count, mean, micros[micros.count / 2],
                micros[min(micros.count - 1, micros.count * 99 / 100)]))
        }
        let total = all.reduce(Duration.zero, +)
        print(String(format: "writes per second, one at a time: %.0f", Double(all.count) / (total / .seconds(1))))
    }
}
