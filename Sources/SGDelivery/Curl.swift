import CCurl
import Foundation
import SGCore
#if canImport(Glibc)
import Glibc
#endif

/// One transfer for a `CurlLane`: an SMTP submission, an HTTP POST or GET, with its limits.
struct CurlRequest: Sendable {
    enum Kind: Sendable {
        /// Submits `body` (the whole message, CRLF lines) from `from` to `recipients`. `requireTLS` demands
        /// STARTTLS on smtp:// (smtps:// is TLS from the first byte either way).
        case smtp(from: String, recipients: [String], requireTLS: Bool, username: String?, password: String?)
        /// POSTs `body` with these header lines ("Name: value").
        case httpPost(headers: [String])
        /// GETs the URL with these header lines, following at most `redirects` redirects (within `protocols`).
        case httpGet(headers: [String], redirects: Int)
    }

    var url: String
    /// Which URL schemes libcurl may use, e.g. "smtp,smtps" or "http,https".
    var protocols: String
    var kind: Kind
    var body: [UInt8]
    /// PEM file of the CAs to trust instead of the system's.
    var caFile: String?
    var connectTimeout: TimeInterval
    /// For the whole transfer, connecting included.
    var timeout: TimeInterval
    /// How much of the response body to keep.
    var responseLimit: Int = 16 * 1024
    /// Whether a body beyond `responseLimit` ends the transfer (CURLE_WRITE_ERROR, `tooLarge`) rather than being cut.
    var abortBeyondLimit = false
    /// HTTP/2 over TLS, agreed through ALPN (the push services speak it; APNs nothing else).
    var http2 = false
    /// For a request made on someone's behalf (a feed, a webhook, a Web Push endpoint): the addresses it may connect
    /// to, checked at each connection on the address connected to. Nil for the operator's own servers (SMTP, the
    /// push services' APIs).
    var destinations: DestinationPolicy?
}

/// What came back from a transfer.
struct CurlResponse: Sendable {
    /// libcurl's result: CURLE_OK (0) when the transfer completed, whatever the server's answer.
    var code: UInt32
    /// libcurl's words for a failure ("" when none).
    var error: String
    /// The last SMTP reply code or the HTTP status; 0 when the server said nothing.
    var responseCode: Int
    /// The start of the response body (HTTP), at most the request's `responseLimit`.
    var body: [UInt8] = []
    /// The final HTTP response's Retry-After header, if any.
    var retryAfter: String?
    /// The final HTTP response's headers, by lowercased name (the last of a repeated one).
    var headers: [String: String] = [:]
    /// The body went past the request's limit and the transfer was ended.
    var tooLarge = false
    /// The last header lines: for SMTP, the server's replies (libcurl hands them to the header callback), e.g.
    /// "550 5.1.1 <x@example.com>: Recipient address rejected" and then, when it closes, "221 Bye".
    var replies: [String] = []

    /// The last reply with the final reply code, in the server's words.
    var reply: String? {
        responseCode > 0 ? replies.last { $0.hasPrefix("\(responseCode)") } : nil
    }

    var completed: Bool { code == CURLE_OK.rawValue }
    var timedOut: Bool { code == CURLE_OPERATION_TIMEDOUT.rawValue }
    var loginDenied: Bool { code == CURLE_LOGIN_DENIED.rawValue }

    /// The sentence of a connection the destination policy refused, if one was.
    var refusedDestination: String?

    /// "the error (code N)": for the outbox's last_error and the log.
    var failure: String {
        if let refusedDestination { return refusedDestination }
        let text = error.isEmpty ? String(cString: curl_easy_strerror(CURLcode(rawValue: code))) : error
        return "\(text) (curl \(code))"
    }
}

/// One libcurl easy handle and the serial queue its transfers run on. A lane is used by one transfer at a time
/// and kept between them: `curl_easy_reset` clears the options but keeps the handle's connection cache, so the
/// next message to the same server reuses the connection (and its TLS session). The transfer blocks a Dispatch
/// thread, never Swift's cooperative pool.
public final class CurlLane: @unchecked Sendable {
    /// curl_global_init, once per process, before the first handle.
    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    private let queue: DispatchQueue
    /// Touched only on `queue` (or by `deinit`, when nothing else can).
    private var handle: UnsafeMutableRawPointer?

    public init(name: String = "sgdelivery.lane") {
        queue = DispatchQueue(label: name, qos: .utility)
        handle = Self.globalInit ? curl_easy_init() : nil
    }

    deinit {
        if let handle { curl_easy_cleanup(handle) }
    }

    /// Closes the lane's connections on its own queue. Closing an SMTP connection says QUIT and waits for the
    /// answer, two seconds at most, rather than libcurl's default two minutes.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                if let handle = self.handle {
                    _ = sg_curl_set_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, 2)
                    curl_easy_cleanup(handle)
                    self.handle = nil
                }
                continuation.resume()
            }
        }
    }

    /// Runs `request` on the lane's queue; returns when it completed or failed (within its time-out).
    func perform(_ request: CurlRequest) async -> CurlResponse {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: self.performNow(request)) }
        }
    }

    private func performNow(_ request: CurlRequest) -> CurlResponse {
        guard let handle else {
            return CurlResponse(code: CURLE_FAILED_INIT.rawValue, error: "libcurl could not be initialised", responseCode: 0)
        }
        // Nothing of this transfer (buffers, callbacks) may outlive it in the handle, so the next one finds it as new.
        defer { curl_easy_reset(handle) }

        let transfer = Transfer(
            upload: request.body, responseLimit: request.responseLimit, abortBeyondLimit: request.abortBeyondLimit,
            destinations: request.destinations)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var lists: [UnsafeMutablePointer<curl_slist>?] = []
        defer { lists.forEach { curl_slist_free_all($0) } }
        func list(_ items: [String]) -> UnsafeMutablePointer<curl_slist>? {
            var head: UnsafeMutablePointer<curl_slist>?
            for item in items { head = curl_slist_append(head, item) }
            lists.append(head)
            return head
        }

        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var setup = CURLE_OK
        func check(_ result: CURLcode) {
            if setup == CURLE_OK { setup = result }
        }
        func set(_ option: CURLoption, _ value: Int) { check(sg_curl_set_long(handle, option, value)) }
        func set(_ option: CURLoption, _ value: String) { check(sg_curl_set_string(handle, option, value)) }

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
            check(sg_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress))
            set(CURLOPT_URL, request.url)
            set(CURLOPT_PROTOCOLS_STR, request.protocols)
            set(CURLOPT_REDIR_PROTOCOLS_STR, request.protocols)
            set(CURLOPT_FOLLOWLOCATION, 0)
            // No SIGALRM for DNS time-outs: signals and threads do not mix.
            set(CURLOPT_NOSIGNAL, 1)
            set(CURLOPT_CONNECTTIMEOUT_MS, Int(request.connectTimeout * 1000))
            set(CURLOPT_TIMEOUT_MS, Int(request.timeout * 1000))
            set(CURLOPT_SSL_VERIFYPEER, 1)
            set(CURLOPT_SSL_VERIFYHOST, 2)
            if let caFile = request.caFile { set(CURLOPT_CAINFO, caFile) }
            set(CURLOPT_USERAGENT, "sgemployee")

            check(sg_curl_set_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().read(into: buffer, capacity: size * count)
            })
            check(sg_curl_set_pointer(handle, CURLOPT_READDATA, context))
            check(sg_curl_set_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                guard let context else { return 0 }
                // Fewer bytes than handed over ends the transfer.
                return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().received(buffer, size * count) ? size * count : 0
            })
            check(sg_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
            check(sg_curl_set_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
                guard let context else { return 0 }
                Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().header(buffer, size * count)
                return size * count
            })
            check(sg_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))
            if request.destinations != nil {
                check(sg_curl_set_open_socket(handle) { context, purpose, address in
                    guard let context, let address else { return CURL_SOCKET_BAD }
                    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                    guard purpose != CURLSOCKTYPE_IPCXN || transfer.mayConnect(to: address) else { return CURL_SOCKET_BAD }
                    return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
                })
                check(sg_curl_set_pointer(handle, CURLOPT_OPENSOCKETDATA, context))
            }

            switch request.kind {
            case .smtp(let from, let recipients, let requireTLS, let username, let password):
                set(CURLOPT_MAIL_FROM, "<\(from)>")
                check(sg_curl_set_list(handle, CURLOPT_MAIL_RCPT, list(recipients.map { "<\($0)>" })))
                set(CURLOPT_UPLOAD, 1)
                set(CURLOPT_INFILESIZE, request.body.count)
                set(CURLOPT_USE_SSL, Int(requireTLS ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue))
                if let username { set(CURLOPT_USERNAME, username) }
                if let password { set(CURLOPT_PASSWORD, password) }
            case .httpPost(let headers):
                if request.http2 { set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) }
                set(CURLOPT_POST, 1)
                set(CURLOPT_POSTFIELDSIZE, request.body.count)
                // "Expect:" with no value: no 100-continue round trip before the body.
                check(sg_curl_set_list(handle, CURLOPT_HTTPHEADER, list(headers + ["Expect:"])))
            case .httpGet(let headers, let redirects):
                set(CURLOPT_HTTPGET, 1)
                set(CURLOPT_FOLLOWLOCATION, redirects > 0 ? 1 : 0)
                set(CURLOPT_MAXREDIRS, redirects)
                // Any encoding libcurl decodes; the limit counts the decoded bytes, so a small bomb is cut too.
                set(CURLOPT_ACCEPT_ENCODING, "")
                check(sg_curl_set_list(handle, CURLOPT_HTTPHEADER, list(headers)))
            }
            guard setup == CURLE_OK else { return setup }
            return curl_easy_perform(handle)
        }

        var responseCode = 0
        _ = sg_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &responseCode)
        let error = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return CurlResponse(
            code: code.rawValue, error: error, responseCode: responseCode, body: transfer.body,
            retryAfter: transfer.headers["retry-after"], headers: transfer.headers, tooLarge: transfer.tooLarge, replies: transfer.lines,
            refusedDestination: transfer.refused)
    }
}

/// The state of one transfer, reached from libcurl's callbacks on the lane's queue.
private final class Transfer {
    private let upload: [UInt8]
    private var offset = 0
    private let responseLimit: Int
    private let abortBeyondLimit: Bool
    private(set) var body: [UInt8] = []
    private(set) var headers: [String: String] = [:]
    private(set) var tooLarge = false
    /// The last few header lines, trimmed.
    private(set) var lines: [String] = []
    private let destinations: DestinationPolicy?
    /// Why the policy refused a connection, when it did.
    private(set) var refused: String?

    init(upload: [UInt8], responseLimit: Int, abortBeyondLimit: Bool, destinations: DestinationPolicy?) {
        self.upload = upload
        self.responseLimit = responseLimit
        self.abortBeyondLimit = abortBeyondLimit
        self.destinations = destinations
    }

    /// Whether the policy lets libcurl connect to `address`, the one it resolved and is about to open: the check
    /// and the connection use the same address, so a name that resolves differently the second time gains nothing.
    func mayConnect(to address: UnsafeMutablePointer<curl_sockaddr>) -> Bool {
        guard let destinations else { return true }
        let bytes: [UInt8]
        let port: Int
        let shown: String
        // libcurl gives room for the whole address after `addr` (struct sockaddr is shorter than sockaddr_in6).
        let socketAddress = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        switch Int32(address.pointee.family) {
        case AF_INET:
            let v4 = socketAddress.loadUnaligned(as: sockaddr_in.self)
            let raw = withUnsafeBytes(of: v4.sin_addr) { Array($0) }
            bytes = DestinationPolicy.bytes(of: raw.map(String.init).joined(separator: ".")) ?? []
            port = Int(UInt16(bigEndian: v4.sin_port))
            shown = raw.map(String.init).joined(separator: ".")
        case AF_INET6:
            guard Int(address.pointee.addrlen) >= MemoryLayout<sockaddr_in6>.size else {
                refused = "the server could not read the address it was to connect to"
                return false
            }
            let v6 = socketAddress.loadUnaligned(as: sockaddr_in6.self)
            bytes = withUnsafeBytes(of: v6.sin6_addr) { Array($0) }
            port = Int(UInt16(bigEndian: v6.sin6_port))
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            shown = inet_ntop(AF_INET6, bytes, &text, socklen_t(text.count)) != nil
                ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "an IPv6 address"
        default:
            refused = "the server connects only over IPv4 or IPv6"
            return false
        }
        guard bytes.count == 16 else {
            refused = "the address \(shown) cannot be checked"
            return false
        }
        if let kind = destinations.refusal(address: bytes, port: port) {
            refused = DestinationPolicy.sentence(address: shown, kind: kind)
            return false
        }
        return true
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, upload.count - offset)
        guard count > 0 else { return 0 }
        upload.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    /// Keeps up to the limit; false when the body goes past it and the transfer is to end.
    func received(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) -> Bool {
        if abortBeyondLimit, body.count + count > responseLimit {
            tooLarge = true
            return false
        }
        guard let buffer, body.count < responseLimit else { return true }
        let kept = min(count, responseLimit - body.count)
        body.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: kept))
        return true
    }

    /// One header line; a status line starts a new response (after a 100 Continue, say), whose headers count.
    func header(_ buffer: UnsafeMutablePointer<CChar>?, _ count: Int) {
        guard let buffer else { return }
        let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: count), as: UTF8.self)
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty {
            if lines.count == 16 { lines.removeFirst() }
            lines.append(String(trimmed.prefix(500)))
        }
        if line.hasPrefix("HTTP/") {
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":"), headers.count < 64 else { return }
        headers[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] =
            String(line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines).prefix(1000))
    }
}
