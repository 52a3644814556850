/// What a profile photo must be: a JPEG or PNG, judged by its bytes (never by the declared content type), at
/// most 2 MiB and 8192 pixels a side, so that no client is asked to decode a bomb.
public enum PhotoRules {
    public static let maximumBytes = 2 * 1024 * 1024
    public static let maximumSide = 8192

    public struct Inspected: Sendable, Equatable {
        public let contentType: String
        public let width: Int
        public let height: Int

        public init(contentType: String, width: Int, height: Int) {
            self.contentType = contentType
            self.width = width
            self.height = height
        }
    }

    /// The image's type and size in pixels, or an error that says what was wrong.
    public static func inspect(_ bytes: [UInt8]) throws -> Inspected {
        guard !bytes.isEmpty else {
            throw SGError.invalid(field: "photo", message: "the body is empty; send the image's bytes (JPEG or PNG)")
        }
        guard bytes.count <= maximumBytes else {
            throw SGError.payloadTooLarge("A photo can be at most \(maximumBytes / 1024 / 1024) MiB; this one is \(bytes.count) bytes. Scale it down first.")
        }
        let inspected: Inspected
        if bytes.starts(with: pngSignature) {
            inspected = try png(bytes)
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            inspected = try jpeg(bytes)
        } else {
            throw SGError.unsupportedMediaType("A photo must be a JPEG or PNG image; these bytes are neither.")
        }
        guard inspected.width <= maximumSide, inspected.height <= maximumSide else {
            throw SGError.invalid(
                field: "photo",
                message: "\(inspected.width)×\(inspected.height) pixels is larger than \(maximumSide) pixels a side; scale it down")
        }
        return inspected
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func broken(_ kind: String) -> SGError {
        SGError.invalid(field: "photo", message: "the \(kind) image is truncated or malformed")
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// The first chunk of a PNG is IHDR: width and height, 4 bytes each, big-endian; the file ends with IEND.
    private static func png(_ bytes: [UInt8]) throws -> Inspected {
        guard bytes.count >= 8 + 25 + 12, Array(bytes[12..<16]) == Array("IHDR".utf8), bigEndian(bytes, 8, 4) == 13,
              Array(bytes[(bytes.count - 8)..<(bytes.count - 4)]) == Array("IEND".utf8)
        else { throw broken("PNG") }
        let width = bigEndian(bytes, 16, 4), height = bigEndian(bytes, 20, 4)
        guard width > 0, height > 0 else { throw broken("PNG") }
        return Inspected(contentType: "image/png", width: width, height: height)
    }

    /// Walks the JPEG's marker segments to the first start-of-frame, which holds height and width.
    private static func jpeg(_ bytes: [UInt8]) throws -> Inspected {
        var index = 2
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw broken("JPEG") }
            var marker = bytes[index + 1]
            while marker == 0xFF, index + 2 < bytes.count {  // fill bytes
                index += 1
                marker = bytes[index + 1]
            }
            index += 2
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }  // no length
            guard marker != 0xD9, marker != 0xDA, index + 2 <= bytes.count else { break }  // end or scan before a frame
            let length = bigEndian(bytes, index, 2)
            guard length >= 2, index + length <= bytes.count else { break }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard length >= 7 else { break }
                let height = bigEndian(bytes, index + 3, 2), width = bigEndian(bytes, index + 5, 2)
                guard width > 0, height > 0 else { break }
                return Inspected(contentType: "image/jpeg", width: width, height: height)
            }
            index += length
        }
        throw broken("JPEG")
    }
}
