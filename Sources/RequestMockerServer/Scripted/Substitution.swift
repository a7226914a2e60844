import Foundation
import RequestMocker

/// `$`-substitutions in a ``ScriptedServer/Command/text(_:)``.
enum Substitution {
    static let serverName = "RequestMocker ScriptedServer \(RequestMockerVersion.current)"

    static func apply(to template: String, groups: [String], server: ScriptedServer) -> String {
        guard template.contains("$") else { return template }
        let values = server.substitutionValues()
        var result = ""
        var rest = Substring(template)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            rest = rest[rest.index(after: dollar)...]
            if rest.first == "$" {
                result += "$"
                rest = rest.dropFirst()
                continue
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty {
                // The longest run of digits that names a group: `$12` is group 12 if it exists.
                var taken = digits
                while let index = Int(taken), index >= groups.count, taken.count > 1 { taken = taken.dropLast() }
                // A group the pattern doesn't have stands for nothing.
                if let index = Int(taken), index < groups.count { result += groups[index] }
                rest = rest.dropFirst(taken.count)
                continue
            }
            let word = rest.prefix { $0.isASCII && $0.isLetter }
            switch word {
            case "address": result += values.address
            case "port": result += String(values.port)
            case "pasv": result += pasv(address: values.address, port: values.dataPort)
            case "size": result += String(values.size)
            case "date": result += httpDate(Date())
            case "server": result += serverName
            default:
                // Not a substitution: keep the text as written.
                result += "$" + word
            }
            rest = rest.dropFirst(word.count)
        }
        return result + rest
    }

    /// FTP's `h1,h2,h3,h4,p1,p2` for an IPv4 address (other addresses give `127,0,0,1`).
    static func pasv(address: String, port: UInt16) -> String {
        let octets = address.split(separator: ".")
        let host =
            octets.count == 4 && octets.allSatisfy({ UInt8($0) != nil }) ? octets.joined(separator: ",") : "127,0,0,1"
        return "\(host),\(port / 256),\(port % 256)"
    }

    /// RFC 1123, as HTTP's `Date` header: `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
