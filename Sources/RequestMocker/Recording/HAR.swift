/// Reading and writing HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format
/// browsers' developer tools export, so a cassette opens there and a browser's export replays.
///
/// Reading is lenient where browsers differ (missing optional fields, extra `_` fields,
/// `pages`, HTTP/2 pseudo-headers, base64 bodies) and strict about what playback needs: a
/// wrong type or a missing `method`, `url` or `status` is an error naming the JSON path.
enum HAR {
    /// The version written into `log.version`.
    static let version = "1.2"

    /// A HAR document whose structure is wrong, with the JSON path that failed.
    struct FormatError: Error, Sendable {
        let path: String
        let reason: String
    }

    // MARK: Documents

    /// The log's fields other than `entries`, and the entries, from a file's bytes.
    static func document(from data: Data) throws(FormatError) -> (log: [String: JSONValue], entries: [JSONValue]) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            let location = JSONLocation(offset: error.offset, in: data)
            throw FormatError(
                path: location.path, reason: "\(error.reason) (line \(location.line), column \(location.column))")
        }
        guard case .object(let top) = root else {
            throw FormatError(path: "(root)", reason: "expected an object with a \"log\"")
        }
        guard case .object(var log)? = top["log"] else {
            throw FormatError(
                path: "log",
                reason: top["log"] == nil
                    ? "missing; a HAR file is {\"log\": {\"entries\": [...]}}" : "expected an object")
        }
        guard case .array(let entries)? = log["entries"] else {
            throw FormatError(path: "log.entries", reason: log["entries"] == nil ? "missing" : "expected an array")
        }
        log["entries"] = nil
        return (log, entries)
    }

    /// A complete document: `log` with `entries`, pretty-printed with sorted keys and a final
    /// newline, so equal content gives equal bytes.
    static func data(log: [String: JSONValue], entries: [JSONValue]) throws -> Data {
        var fields = log
        fields["version"] = fields["version"] ?? .string(version)
        fields["creator"] =
            fields["creator"] ?? .object(["name": "RequestMocker", "version": .string(RequestMockerVersion.current)])
        fields["entries"] = .array(entries)
        var data = try JSONValue.object(["log": .object(fields)]).serialized(pretty: true)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}
