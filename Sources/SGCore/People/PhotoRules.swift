/// What a profile photo must be: a JPEG or PNG, judged by its bytes (never by the declared content type), at
/// most 2 MiB, 4096 pixels a side and 64 MiB once decoded, and whole enough to be decoded: a PNG's chunks intact
/// (checksums, a valid header, image data, the end), a JPEG's frame and scan present and its end there, so that
/// neither a decompression bomb (a large image declared over a small IDAT) nor a PNG without IDAT gets through.
public enum PhotoRules {
    public static let maximumBytes = 2 * 1024 * 1024
    public static let maximumSide = 4096
    /// Bytes the pixels take once decoded, as the header declares them.
    public static let maximumDecodedBytes = 64 * 1024 * 1024

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
        try checkSize(width: inspected.width, height: inspected.height)
        return inspected
    }

    private static func checkSize(width: Int, height: Int, bytesPerPixel: Double = 4) throws {
        guard width <= maximumSide, height <= maximumSide, Double(width) * Double(height) * bytesPerPixel <= Double(maximumDecodedBytes) else {
            throw SGError.invalid(
                field: "photo",
                message: "\(width)×\(height) pixels is larger than accepted (\(maximumSide) pixels a side, "
                    + "\(maximumDecodedBytes / 1024 / 1024) MiB of pixels once decoded); scale it down")
        }
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func broken(_ kind: String) -> SGError {
        SGError.invalid(field: "photo", message: "the \(kind) image is truncated or malformed")
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Walks every chunk: each within the file and with its checksum; IHDR first with a valid header; PLTE before the
    /// image data when the colour type needs one; consecutive IDAT chunks, starting with a zlib header and holding
    /// enough data to fill the declared image (deflate shrinks at most about 1032 to 1); IEND last, nothing after.
    private static func png(_ bytes: [UInt8]) throws -> Inspected {
        var index = pngSignature.count
        var header: (width: Int, height: Int, bitsPerPixel: Int, colour: Int)?
        var sawPalette = false
        var imageData = 0
        var idatRun: (started: Bool, ended: Bool) = (false, false)
        while true {
            guard index + 12 <= bytes.count else { throw broken("PNG") }
            let length = bigEndian(bytes, index, 4)
            let type = Array(bytes[(index + 4)..<(index + 8)])
            guard length <= bytes.count - index - 12, type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
            else { throw broken("PNG") }
            let data = (index + 8)..<(index + 8 + length)
            guard crc32(bytes[(index + 4)..<data.upperBound]) == UInt32(bigEndian(bytes, data.upperBound, 4)) else { throw broken("PNG") }
            let name = String(decoding: type, as: UTF8.self)
            if header == nil {
                guard name == "IHDR", length == 13 else { throw broken("PNG") }
                header = try pngHeader(bytes, at: data.lowerBound)
            } else if name == "IHDR" {
                throw broken("PNG")
            }
            switch name {
            case "PLTE":
                guard !idatRun.started else { throw broken("PNG") }
                sawPalette = true
            case "IDAT":
                guard !idatRun.ended else { throw broken("PNG") }
                if !idatRun.started {
                    // zlib: deflate (method 8), a window of at most 32 KiB, no preset dictionary, header checksum.
                    guard length >= 2, bytes[data.lowerBound] & 0x0F == 8, bytes[data.lowerBound] >> 4 <= 7,
                          bytes[data.lowerBound + 1] & 0x20 == 0,
                          (Int(bytes[data.lowerBound]) << 8 | Int(bytes[data.lowerBound + 1])) % 31 == 0
                    else { throw broken("PNG") }
                }
                idatRun.started = true
                imageData += length
            case "IEND":
                guard length == 0, data.upperBound + 4 == bytes.count else { throw broken("PNG") }
                guard let header, idatRun.started, header.colour != 3 || sawPalette else { throw broken("PNG") }
                try checkSize(width: header.width, height: header.height, bytesPerPixel: max(1, Double(header.bitsPerPixel) / 8))
                let rowBytes = 1 + (header.width * header.bitsPerPixel + 7) / 8
                guard imageData * 1032 >= rowBytes * header.height else { throw broken("PNG") }
                return Inspected(contentType: "image/png", width: header.width, height: header.height)
            default:
                if idatRun.started { idatRun.ended = true }
            }
            index = data.upperBound + 4
        }
    }

    /// IHDR: width, height, then bit depth and colour type in one of the combinations the format allows,
    /// compression 0, filter 0, interlace 0 or 1.
    private static func pngHeader(_ bytes: [UInt8], at start: Int) throws -> (width: Int, height: Int, bitsPerPixel: Int, colour: Int) {
        let width = bigEndian(bytes, start, 4), height = bigEndian(bytes, start + 4, 4)
        let depth = Int(bytes[start + 8]), colour = Int(bytes[start + 9])
        let allowed: [Int: (depths: [Int], channels: Int)] = [
            0: ([1, 2, 4, 8, 16], 1), 2: ([8, 16], 3), 3: ([1, 2, 4, 8], 1), 4: ([8, 16], 2), 6: ([8, 16], 4),
        ]
        guard width > 0, height > 0, let kind = allowed[colour], kind.depths.contains(depth),
              bytes[start + 10] == 0, bytes[start + 11] == 0, bytes[start + 12] <= 1
        else { throw broken("PNG") }
        return (width, height, depth * kind.channels, colour)
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// Walks the JPEG's marker segments: a start-of-frame (height and width) must come before the first
    /// start-of-scan, and the file must end with its end-of-image marker after the scan's data.
    private static func jpeg(_ bytes: [UInt8]) throws -> Inspected {
        var index = 2
        var frame: (width: Int, height: Int)?
        while index + 4 <= bytes.count {
            guard bytes[index] == 0xFF else { throw broken("JPEG") }
            var marker = bytes[index + 1]
            while marker == 0xFF, index + 2 < bytes.count {  // fill bytes
                index += 1
                marker = bytes[index + 1]
            }
            index += 2
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }  // no length
            guard marker != 0xD9, index + 2 <= bytes.count else { break }  // the end before a scan
            let length = bigEndian(bytes, index, 2)
            guard length >= 2, index + length <= bytes.count else { break }
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                guard frame == nil, length >= 8 else { break }
                let height = bigEndian(bytes, index + 3, 2), width = bigEndian(bytes, index + 5, 2)
                let components = Int(bytes[index + 7])
                guard width > 0, height > 0, (1...4).contains(components), length == 8 + 3 * components else { break }
                frame = (width, height)
            }
            if marker == 0xDA {
                // A scan: its header, then coded data up to the end-of-image marker, which ends the file.
                guard let frame, length >= 6, index + length < bytes.count - 2,
                      bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else { break }
                return Inspected(contentType: "image/jpeg", width: frame.width, height: frame.height)
            }
            index += length
        }
        throw broken("JPEG")
    }
}
