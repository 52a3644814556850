#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes
import Synchronization

/// How long a client may take, and how many may be connected at once, so that slow clients sending their requests
/// a byte at a time (slowloris) cannot hold every file descriptor while every other client times out.
public struct ConnectionLimits: Sendable, Equatable {
    /// A connection without a complete request head for this long is closed: while the head arrives and between
    /// requests (keep-alive).
    public var idleTimeout: Duration
    /// A request's body must have arrived in full this long after its head, or the connection is closed.
    public var bodyTimeout: Duration
    /// Connections served at once; a further one is closed as soon as it is accepted, before anything is read.
    public var maximumConnections: Int
    /// The metrics listener's cap: a few scrapers, never thousands.
    public static let metricsConnections = 16

    public init(idleTimeout: Duration = .seconds(30), bodyTimeout: Duration = .seconds(30), maximumConnections: Int = 2000) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = max(1, maximumConnections)
    }

    /// The HTTP/1 channel with these limits; `open` counts the connections of one server.
    func http1(counting open: OpenConnections) -> HTTP1Channel.Configuration {
        let bodyTimeout = TimeAmount(bodyTimeout)
        let maximum = maximumConnections
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                ConnectionCapHandler(open: open, maximum: maximum), RequestBodyTimeoutHandler(timeout: bodyTimeout),
            ],
            idleTimeout: TimeAmount(idleTimeout))
    }

    /// Raises the process's soft limit on open files to its hard limit, where allowed: every connection, the
    /// database's connections and the directory's each take one. Returns the limit in force afterwards.
    public static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}

/// Closes a connection whose request body has not arrived in full `timeout` after its head. The idle time-out
/// counts from the last part read, so a body sent a byte every few seconds would hold its connection for days.
final class RequestBodyTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// A head has arrived and its request's end has not.
    private var awaitingEnd = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            awaitingEnd = true
        case .body:
            break
        case .end:
            awaitingEnd = false
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    /// The clock starts when the reads that brought a head are over and its body is still incomplete: most requests
    /// arrive whole in one read, and a timer set and cancelled for each of them would cost every request.
    func channelReadComplete(context: ChannelHandlerContext) {
        if awaitingEnd && deadline == nil {
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        }
        context.fireChannelReadComplete()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}

/// The connections one server has open.
final class OpenConnections: Sendable {
    let count = Atomic<Int>(0)
}

/// Closes a connection accepted beyond `maximum` open ones before reading anything from it. (Hummingbird's
/// `MaximumAvailableConnections` leaves it in the listen queue instead, and in 2.28.1 lets a connection past the
/// maximum be accepted and served.)
final class ConnectionCapHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let open: OpenConnections
    private let maximum: Int
    private var counted = false

    init(open: OpenConnections, maximum: Int) {
        self.open = open
        self.maximum = maximum
    }

    func handlerAdded(context: ChannelHandlerContext) {
        counted = true
        if open.count.wrappingAdd(1, ordering: .relaxed).newValue > maximum {
            context.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    private func release() {
        guard counted else { return }
        counted = false
        open.count.wrappingSubtract(1, ordering: .relaxed)
    }
}
