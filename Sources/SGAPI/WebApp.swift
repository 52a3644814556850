import CZlib
import Foundation
import Hummingbird
import SGCore
import SGWebApp

/// The web app's files as served: each with its media type, its bytes and their gzip form, and a strong tag. The
/// files reference each other under `{{assets}}`, which becomes `/assets/<digest of every file>`: a new release is
/// a new address, so those files are cached for good, and only the entry points (the page, the service worker,
/// the manifest) are revalidated.
struct WebAppBundle: Sendable {
    struct File: Sendable {
        let mediaType: String
        let bytes: ByteBuffer
        /// Nil when compressing does not pay (images already compressed, tiny files).
        let gzipped: ByteBuffer?
        let etag: String
    }

    /// The address prefix of this release's files, e.g. "/assets/3f2a9c…".
    let assets: String
    let files: [String: File]

    /// Files named at the root of the site, revalidated at each use: the page itself, the service worker (whose
    /// scope is where it is served) and the manifest.
    static let entryPoints: Set<String> = ["index.html", "sw.js", "manifest.webmanifest"]

    init(files sources: [String: [UInt8]], assetsPrefix: String? = nil) {
        var digest = [UInt8]()
        for (path, bytes) in sources.sorted(by: { $0.key < $1.key }) {
            digest += Array(path.utf8) + [0] + Array(Digests.sha256Hex(bytes, prefix: 16).utf8)
        }
        let assets = assetsPrefix ?? "/assets/" + Digests.sha256Hex(digest, prefix: 16)
        self.assets = assets
        var files: [String: File] = [:]
        for (path, raw) in sources {
            var bytes = raw
            if Self.entryPoints.contains(path) || path.hasSuffix(".css") || path.hasSuffix(".js") {
                bytes = Array(String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "{{assets}}", with: assets).utf8)
            }
            let mediaType = Self.mediaType(path)
            let compressible = !mediaType.hasPrefix("image/png") && bytes.count > 256
            files[path] = File(
                mediaType: mediaType, bytes: ByteBuffer(bytes: bytes),
                gzipped: compressible ? Gzip.compress(bytes).map { ByteBuffer(bytes: $0) } : nil,
                etag: "\"" + Digests.sha256Hex(bytes, prefix: 16) + "\"")
        }
        self.files = files
    }

    static func mediaType(_ path: String) -> String {
        switch path.split(separator: ".").last ?? "" {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "woff2": "font/woff2"
        default: "application/octet-stream"
        }
    }
}

/// Where the web app's files come from: the ones embedded in the binary, or, for working on the app, a folder read
/// at every request (SG_WEB_ROOT), so that a changed file shows on the next reload without a build.
public enum WebAppSource: Sendable, Equatable {
    case embedded
    case folder(String)
    /// No web app: `/` is a 404 like any unknown path.
    case none
}

/// Serves the web app beside the API: `/assets/<release>/…` (cached for a year), the service worker and the
/// manifest at the root, and the page itself for every other path the app shows (`/`, `/holidays/42`, the reset
/// link's `/reset-password?token=…`), so that a link opens the right screen. Sits in front of the not-found
/// responder only: every API route answers first, and the API's own paths (`/v1/`, `/ical/`) stay JSON 404s.
struct WebAppMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    private let embedded: WebAppBundle?
    private let folder: String?

    init(source: WebAppSource) {
        switch source {
        case .embedded:
            embedded = WebAppBundle(files: WebAppFiles.all)
            folder = nil
        case .folder(let path):
            embedded = nil
            folder = path
        case .none:
            embedded = nil
            folder = nil
        }
    }

    /// Paths that are never the app's: the API, the calendar feeds and what later protocols mount.
    static let reserved = ["/v1/", "/ical/", "/scim/", "/auth/", "/metrics"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let bundle = try bundle() else {
            return try await next(request, context)
        }
        let path = request.uri.path
        if Self.reserved.contains(where: { path.hasPrefix($0) }) || path == "/v1" { return try await next(request, context) }
        let name: String
        let cached: Bool
        if path.hasPrefix(bundle.assets + "/") {
            name = String(path.dropFirst(bundle.assets.count + 1))
            cached = folder == nil
        } else if path.hasPrefix("/assets/") {
            // Another release's file: a tab open from before the update; it reloads the page when it fails.
            return try await next(request, context)
        } else if path == "/sw.js" || path == "/manifest.webmanifest" {
            name = String(path.dropFirst())
            cached = false
        } else if path.contains(".") {
            // Not a screen of the app (a stray /favicon.ico, /robots.txt): a plain 404.
            return try await next(request, context)
        } else {
            name = "index.html"
            cached = false
        }
        guard !Self.entryPoints(name) || !cached, let file = bundle.files[name] else { return try await next(request, context) }
        return Self.response(file, to: request, cached: cached, serviceWorker: name == "sw.js")
    }

    private static func entryPoints(_ name: String) -> Bool { WebAppBundle.entryPoints.contains(name) }

    /// The embedded bundle, or the folder's files read now.
    private func bundle() throws -> WebAppBundle? {
        if let embedded { return embedded }
        guard let folder else { return nil }
        var files: [String: [UInt8]] = [:]
        let root = URL(fileURLWithPath: folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { return nil }
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative.hasPrefix("tests/") || relative.hasSuffix(".swift") || relative.hasSuffix(".md") { continue }
            files[relative] = Array(try Data(contentsOf: url))
        }
        return WebAppBundle(files: files, assetsPrefix: "/assets/dev")
    }

    static func response(_ file: WebAppBundle.File, to request: Request, cached: Bool, serviceWorker: Bool) -> Response {
        var headers = WebAppHeaders.security
        headers[.contentType] = file.mediaType
        headers[.eTag] = file.etag
        headers[.vary] = "Accept-Encoding"
        headers[.cacheControl] = cached ? "public, max-age=31536000, immutable" : "no-cache"
        if serviceWorker { headers[HTTPFields.Element.Name("Service-Worker-Allowed")!] = "/" }
        if let tags = request.headers[.ifNoneMatch], tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == file.etag }) {
            return Response(status: .notModified, headers: headers)
        }
        let acceptsGzip = request.headers[values: .acceptEncoding].contains { value in
            value.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "gzip" }
        }
        if let gzipped = file.gzipped, acceptsGzip {
            headers[.contentEncoding] = "gzip"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: gzipped))
        }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: file.bytes))
    }
}

/// The headers every page and file of the web app carries: a Content-Security-Policy that allows nothing but this
/// origin's scripts, styles, images and API (no inline script or style, no other origin, no framing, and Trusted
/// Types so that no string ever becomes markup), no referrer (a reset link's token stays in its page), no sniffing.
/// Trusted Types allow one policy, `sgemployee`, whose only use is the service worker's address: registering a
/// service worker is a script sink, so with no policy at all (`trusted-types 'none'`) the app could not register
/// it (no offline use, no Web Push). The policy has no `createHTML`, so markup from strings stays impossible.
enum WebAppHeaders {
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob: data:", "font-src 'self'",
        "connect-src 'self'", "manifest-src 'self'", "worker-src 'self'", "base-uri 'none'", "form-action 'self'",
        "frame-ancestors 'none'", "require-trusted-types-for 'script'", "trusted-types sgemployee",
    ].joined(separator: "; ")

    static let security: HTTPFields = [
        HTTPFields.Element.Name("Content-Security-Policy")!: contentSecurityPolicy,
        HTTPFields.Element.Name("Referrer-Policy")!: "no-referrer",
        HTTPFields.Element.Name("X-Content-Type-Options")!: "nosniff",
        HTTPFields.Element.Name("Cross-Origin-Opener-Policy")!: "same-origin",
        HTTPFields.Element.Name("Cross-Origin-Resource-Policy")!: "same-origin",
        HTTPFields.Element.Name("Permissions-Policy")!: "camera=(), microphone=(), geolocation=(), payment=()",
    ]
}

/// gzip through zlib, once per file when the server starts.
enum Gzip {
    static func compress(_ input: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var stream = z_stream()
        guard sg_deflate_init_gzip(&stream, level) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        var source = input
        let status = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
