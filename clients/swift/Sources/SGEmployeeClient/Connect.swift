import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

extension Client {
    /// A client of the server at `serverURL` over URLSession. The server writes instants with milliseconds
    /// (`2026-03-02T09:30:00.250Z`), so dates are read and written with fractional seconds.
    public static func connect(to serverURL: URL, middlewares: [any ClientMiddleware] = []) -> Client {
        Client(
            serverURL: serverURL,
            configuration: Configuration(dateTranscoder: .iso8601WithFractionalSeconds),
            transport: URLSessionTransport(),
            middlewares: middlewares)
    }
}
