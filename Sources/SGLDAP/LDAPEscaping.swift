import Foundation

/// Escaping of user input on its way into LDAP filters and distinguished names, and a loose DN comparison.
public enum LDAPEscaping {
    /// The placeholder a filter or DN template holds for the username.
    public static let placeholder = "{username}"

    /// RFC 4515 §3: a value inside a search filter. `*`, `(`, `)`, `\` and NUL become `\2a`, `\28`, `\29`, `\5c`
    /// and `\00`, so `*)(uid=*` stays one literal value and can neither widen nor close the filter.
    public static func filterValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "*": escaped += "\\2a"
            case "(": escaped += "\\28"
            case ")": escaped += "\\29"
            case "\\": escaped += "\\5c"
            case "\u{0}": escaped += "\\00"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// RFC 4514 §2.4: an attribute value inside a distinguished name. `"` `+` `,` `;` `<` `>` `\` (and `=`) get a
    /// backslash, as do a leading space or `#` and a trailing space; NUL becomes `\00`.
    public static func dnValue(_ value: String) -> String {
        let scalars = Array(value.unicodeScalars)
        var escaped = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\"", "+", ",", ";", "<", ">", "\\", "=":
                escaped += "\\"
                escaped.unicodeScalars.append(scalar)
            case "\u{0}":
                escaped += "\\00"
            case " " where index == 0 || index == scalars.count - 1:
                escaped += "\\ "
            case "#" where index == 0:
                escaped += "\\#"
            default:
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The filter for a username: the template with every `{username}` replaced by the escaped username.
    public static func filter(_ template: String, username: String) -> String {
        template.replacingAll(placeholder, with: filterValue(username))
    }

    /// The DN for a username in direct-bind mode.
    public static func distinguishedName(_ template: String, username: String) -> String {
        template.replacingAll(placeholder, with: dnValue(username))
    }

    /// A form of a DN for equality checks: attribute types and values lower-cased, escapes resolved, spaces
    /// around separators dropped. "CN=Holiday Admins, ou=Groups,dc=example,dc=com" and
    /// "cn=holiday admins,ou=groups,dc=example,dc=com" compare equal. Multi-valued RDNs keep their order.
    public static func normalizedDN(_ dn: String) -> String {
        var components: [String] = []
        var type = "", value = "", inValue = false, pendingSpaces = ""
        var bytes: [UInt8] = []  // the value's UTF-8 with escapes resolved
        func finishComponent(_ separator: String) {
            value = String(decoding: bytes, as: UTF8.self).lowercased()
            components.append(type.trimmingSpaces().lowercased() + "=" + value + separator)
            type = ""; value = ""; bytes = []; inValue = false; pendingSpaces = ""
        }
        let scalars = Array(dn.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if !inValue {
                if scalar == "=" { inValue = true } else { type.unicodeScalars.append(scalar) }
                index += 1
                continue
            }
            switch scalar {
            case "\\" where index + 1 < scalars.count:
                bytes += Array(pendingSpaces.utf8); pendingSpaces = ""
                let next = scalars[index + 1]
                if index + 2 < scalars.count, let high = next.hexValue, let low = scalars[index + 2].hexValue {
                    bytes.append(UInt8(high << 4 | low))
                    index += 3
                } else {
                    bytes += Array(String(next).utf8)
                    index += 2
                }
                continue
            case ",", ";":
                finishComponent(",")
            case "+":
                finishComponent("+")
            case " ":
                // Leading spaces of a value are dropped; inner ones kept once something follows them.
                if !bytes.isEmpty { pendingSpaces += " " }
            default:
                bytes += Array(pendingSpaces.utf8); pendingSpaces = ""
                bytes += Array(String(scalar).utf8)
            }
            index += 1
        }
        if inValue || !type.isEmpty { finishComponent("") }
        return components.joined()
    }
}

extension String {
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = "", rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}

extension Unicode.Scalar {
    fileprivate var hexValue: UInt32? {
        switch value {
        case 0x30...0x39: value - 0x30
        case 0x41...0x46: value - 0x41 + 10
        case 0x61...0x66: value - 0x61 + 10
        default: nil
        }
    }
}
