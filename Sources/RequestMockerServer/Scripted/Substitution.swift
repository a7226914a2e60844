import Foundation
import RequestMocker

/// `$`-substitutions in a ``ScriptedServer/Command/text(_:)``.
enum Substitution {
    static let serverName = "RequestMocker ScriptedServer \(RequestMockerVersion.current)"

    static func apply(to template: String, groups: [String], server: ScriptedServer) -> String {
        guard template.contains("$") else { return template }
        let values = server.substitutionValues()
        return DollarSubstitution.apply(to: template, groups: groups) { word in
            switch word {
            case "address": values.address
            case "port": String(values.port)
            case "pasv": pasv(address: values.address, port: values.dataPort)
            case "size": String(values.size)
            case "date": httpDate(Date())
            case "server": serverName
            default: nil
            }
        }
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
