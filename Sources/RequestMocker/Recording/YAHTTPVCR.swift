import Foundation

/// Reads the cassettes the YAHTTPVCR library writes: a JSON
/// array, or a property list (XML or binary) of the same array, of "scenes" in tape order. Each
/// recorded request is a chapter of scenes sharing an `id`: its request (type 0), its response
/// (1), its body in pieces (2), and then an error (3) or the end (4). Bodies are
/// `{"cls": "NSData", "base64": …}`; the response holds no HTTP version.
///
/// A chapter becomes one ``Interaction``: the request (its lower-cased method upper-cased), and
/// its response with the pieces joined, or its error as a `URLError` (an error from another
/// domain keeps its description under `URLError.unknown`). A recorded cancellation (`-999`) is
/// left out, as YAHTTPVCR itself never replayed it. The chapters become HAR entries, in the order
/// their requests were recorded, so everything a HAR cassette does (matching, redaction, the
/// unmatched report) works the same.
enum YAHTTPVCR {
    /// Whether `data` looks like a YAHTTPVCR cassette rather than HAR: a property list, or JSON
    /// whose top level is an array.
    static func isCassette(_ data: Data) -> Bool {
        if data.starts(with: Array("bplist00".utf8)) { return true }
        let head = String(decoding: data.prefix(256), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        // An XML property list starts with `<`; JSON, HAR included, never does.
        return head.first == "<" || head.first == "["
    }

    /// The cassette as a HAR document: a log of our own and one entry per chapter.
    static func document(from data: Data) throws(HAR.FormatError) -> (log: [String: JSONValue], entries: [JSONValue]) {
        let scenes = try self.scenes(in: data)
        var order: [String] = []
        var chapters: [String: [(index: Int, scene: [String: JSONValue])]] = [:]
        for (index, value) in scenes.enumerated() {
            guard case .object(let scene) = value else {
                throw HAR.FormatError(path: "[\(index)]", reason: "expected a scene: an object with an id and a type")
            }
            guard let id = scene["id"]?.stringValue else {
                throw HAR.FormatError(path: "[\(index)].id", reason: "expected the chapter's id, a string")
            }
            if chapters[id] == nil { order.append(id) }
            chapters[id, default: []].append((index, scene))
        }
        var entries: [JSONValue] = []
        for id in order {
            guard let chapter = chapters[id], let interaction = try self.interaction(of: chapter) else { continue }
            entries.append(HAR.entry(from: interaction))
        }
        let log: [String: JSONValue] = [
            "version": "1.2",
            "creator": ["name": "RequestMocker", "version": .string(RequestMockerVersion.current)],
            "comment": "converted from a YAHTTPVCR cassette",
        ]
        return (log, entries)
    }

    /// The top-level array of scenes, from JSON or a property list.
    private static func scenes(in data: Data) throws(HAR.FormatError) -> [JSONValue] {
        let root: JSONValue
        let isPropertyList = data.starts(with: Array("bplist00".utf8)) || looksLikeXML(data)
        if !isPropertyList {
            do {
                root = try JSONValue(parsing: data)
            } catch {
                let location = JSONLocation(offset: error.offset, in: data)
                throw HAR.FormatError(
                    path: location.path, reason: "\(error.reason) (line \(location.line), column \(location.column))")
            }
        } else {
            if let problem = unreadableBinaryPropertyList(data) {
                throw HAR.FormatError(path: "(root)", reason: problem)
            }
            let list: Any
            do {
                list = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            } catch {
                throw HAR.FormatError(
                    path: "(root)", reason: "not a property list: \((error as NSError).localizedDescription)")
            }
            do {
                root = try JSONValue(any: list)
            } catch {
                throw HAR.FormatError(path: "(root)", reason: "\(error)")
            }
        }
        guard case .array(let scenes) = root else {
            throw HAR.FormatError(path: "(root)", reason: "expected an array of scenes")
        }
        return scenes
    }

    /// Why a binary property list can't be handed to Foundation's parser, if it can't: a UID
    /// or a set anywhere in its object table (swift-corelibs-foundation 6.3.1 crashes bridging a
    /// set of UIDs, or a dictionary keyed by one), or a table that doesn't fit the file. A
    /// YAHTTPVCR tape holds neither, so such a file isn't one. Checked from the trailer and the
    /// offset table alone (bplist00: the last 32 bytes give the offset and reference sizes, the
    /// object count and where the offset table starts); nothing is followed or nested.
    static func unreadableBinaryPropertyList(_ data: Data) -> String? {
        guard data.starts(with: Array("bplist00".utf8)) else { return nil }
        let bytes = [UInt8](data)
        guard bytes.count >= 8 + 32 else { return "a binary property list too short for its trailer" }
        let trailer = bytes.count - 32
        func integer(_ start: Int, _ size: Int) -> Int? {
            guard size > 0, size <= 8, start >= 0, start + size <= bytes.count else { return nil }
            var value: UInt64 = 0
            for byte in bytes[start..<(start + size)] { value = value << 8 | UInt64(byte) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
        let offsetSize = Int(bytes[trailer + 6])
        guard let count = integer(trailer + 8, 8), let tableStart = integer(trailer + 24, 8),
            (1...8).contains(offsetSize), count <= bytes.count,
            tableStart >= 8, tableStart <= trailer, count <= (trailer - tableStart) / offsetSize
        else { return "a binary property list whose offset table doesn't fit the file" }
        for index in 0..<count {
            guard let offset = integer(tableStart + index * offsetSize, offsetSize), offset >= 8, offset < tableStart
            else { return "a binary property list whose object \(index) lies outside the file" }
            switch bytes[offset] >> 4 {
            case 0x8: return "a binary property list that holds a UID, which a YAHTTPVCR tape never does"
            case 0xC: return "a binary property list that holds a set, which a YAHTTPVCR tape never does"
            default: continue
            }
        }
        return nil
    }

    private static func looksLikeXML(_ data: Data) -> Bool {
        String(decoding: data.prefix(256), as: UTF8.self).drop { $0.isWhitespace }.hasPrefix("<")
    }

    /// One chapter as an interaction; `nil` for a recorded cancellation.
    private static func interaction(
        of chapter: [(index: Int, scene: [String: JSONValue])]
    ) throws(HAR.FormatError) -> Interaction? {
        var request: MockRequest?
        var response: (status: Int, headers: HTTPHeaders)?
        var body = Data()
        var failure: URLError?
        for (index, scene) in chapter {
            let path = "[\(index)]"
            guard let type = scene["type"]?.intValue else {
                throw HAR.FormatError(path: path + ".type", reason: "expected 0 to 4")
            }
            let data = scene["data"]
            switch type {
            case 0:
                request = try self.request(data, path: path + ".data")
            case 1:
                guard case .object(let fields)? = data, let status = fields["status"]?.intValue,
                    (100...999).contains(status)
                else {
                    throw HAR.FormatError(path: path + ".data.status", reason: "expected a status code from 100 to 999")
                }
                response = (status, try headers(fields["headers"], path: path + ".data.headers"))
            case 2:
                body.append(try bytes(data, path: path + ".data"))
            case 3:
                failure = try error(data, path: path + ".data")
            case 4:
                break
            default:
                throw HAR.FormatError(path: path + ".type", reason: "scene type \(type) isn't 0 to 4")
            }
        }
        let first = chapter.first.map { "[\($0.index)]" } ?? "(root)"
        guard let request else {
            throw HAR.FormatError(path: first, reason: "this chapter has no request scene (type 0)")
        }
        let result: Result<RecordedResponse, URLError>
        if let failure {
            if failure.code == .cancelled { return nil }
            result = .failure(failure)
        } else if let response {
            result = .success(
                RecordedResponse(
                    status: HTTPStatus(response.status), httpVersion: "HTTP/1.1", headers: response.headers, body: body)
            )
        } else {
            throw HAR.FormatError(path: first, reason: "this chapter has neither a response (type 1) nor an error (3)")
        }
        return Interaction(request: request, result: result, startedAt: Date(timeIntervalSince1970: 0), duration: .zero)
    }

    private static func request(_ value: JSONValue?, path: String) throws(HAR.FormatError) -> MockRequest {
        guard case .object(let fields)? = value else { throw HAR.FormatError(path: path, reason: "expected a request") }
        guard let text = fields["url"]?.stringValue, let url = URL(string: text), url.scheme != nil else {
            throw HAR.FormatError(path: path + ".url", reason: "expected an absolute URL")
        }
        let method = (fields["method"]?.stringValue ?? "get").uppercased()
        guard HTTPHeaders.Name.isValid(method) else {
            throw HAR.FormatError(path: path + ".method", reason: "\(method.debugDescription) is not a method")
        }
        let body = try fields["body"].map { value throws(HAR.FormatError) in try bytes(value, path: path + ".body") }
        return MockRequest(
            method: HTTPMethod(rawValue: method), url: url,
            headers: try headers(fields["headers"], path: path + ".headers"),
            body: body)
    }

    /// `{"Name": "value"}`, or nothing.
    private static func headers(_ value: JSONValue?, path: String) throws(HAR.FormatError) -> HTTPHeaders {
        guard let value, value != .null else { return [:] }
        guard case .object(let fields) = value else { throw HAR.FormatError(path: path, reason: "expected an object") }
        var headers = HTTPHeaders()
        for name in fields.keys.sorted() {
            guard HTTPHeaders.Name.isValid(name), let text = fields[name]?.stringValue, HTTPHeaders.isValidValue(text)
            else {
                throw HAR.FormatError(
                    path: path + "." + name, reason: "a header is a name and a string without line breaks")
            }
            headers.add(HTTPHeaders.Name(name), text)
        }
        return headers
    }

    /// `{"cls": "NSData", "base64": …}`.
    private static func bytes(_ value: JSONValue?, path: String) throws(HAR.FormatError) -> Data {
        guard case .object(let fields)? = value, let text = fields["base64"]?.stringValue,
            let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
        else {
            throw HAR.FormatError(path: path + ".base64", reason: "expected data as base64")
        }
        return data
    }

    /// `{"cls": "NSError", "domain": …, "code": …, "info": {"NSLocalizedDescription": …}}`.
    private static func error(_ value: JSONValue?, path: String) throws(HAR.FormatError) -> URLError {
        guard case .object(let fields)? = value, let code = fields["code"]?.intValue else {
            throw HAR.FormatError(path: path + ".code", reason: "expected an error with a code")
        }
        let domain = fields["domain"]?.stringValue ?? NSURLErrorDomain
        let description = fields["info"]?["NSLocalizedDescription"]?.stringValue ?? "recorded error \(code)"
        // Optional on Linux, not on Apple platforms.
        let known: URLError.Code? = URLError.Code(rawValue: code)
        guard domain == NSURLErrorDomain, let urlCode = known else {
            return URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(domain) \(code): \(description)"])
        }
        return URLError(urlCode, userInfo: [NSLocalizedDescriptionKey: description])
    }
}
