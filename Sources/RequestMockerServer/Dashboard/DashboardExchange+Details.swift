import Foundation
import RequestMocker
import RequestMockerOpenAPI

extension DashboardExchange {
    /// What the page's details show: the summary's members, then `request` and `response`
    /// (`{"headers": [{"name", "value"}], "body"}`), `nearest` for an unmatched request (the
    /// three nearest stubs, each with every field that differs, and the files the folders looked
    /// for), `drift` for an exchange checked against a contract, and `curl`.
    var details: JSONValue {
        guard case .object(var members) = summary else { return summary }
        let request = shownRequest
        if let request {
            members["request"] = [
                "headers": Self.headers(request.headers),
                "body": Self.body(request.body.map { ($0.prefix(Self.shownBytes), $0.count) }, request.headers),
            ]
            members["curl"] = .string(Self.curl(request))
        }
        if let head, status != nil {
            let recorded = RecordedResponse(status: head.status, headers: head.headers)
            let headers = served.request.flatMap { Redaction.default.redact(recorded, for: $0)?.headers }
            members["response"] = [
                "status": .int(head.status.code), "headers": Self.headers(headers ?? head.headers),
                "body": Self.body(responseBody, head.headers),
            ]
        }
        if let entry = served.journalEntry, case .unmatched(let report) = entry.disposition {
            members["nearest"] = [
                "stubs": .array(
                    report.candidates.map { candidate in
                        [
                            "filter": .string(candidate.filter),
                            "differences": .array(candidate.differences.map(JSONValue.string)),
                        ]
                    }),
                "filterCount": .int(report.filterCount),
                "notes": .array(report.notes.map(JSONValue.string)),
            ]
        }
        if case .object(let journal) = served.journalEntry.map(AdminJSON.json), let drift = journal["drift"] {
            members["drift"] = drift
        }
        return .object(members)
    }

    private static func headers(_ headers: HTTPHeaders) -> JSONValue {
        .array(headers.map { ["name": .string($0.name.rawValue), "value": .string($0.value)] })
    }

    /// A body as the page shows it: `{"size", "shown"}` and `"json"` (pretty-printed), `"text"`,
    /// or neither for binary; `null` for none.
    private static func body(_ body: (prefix: Data, size: Int)?, _ headers: HTTPHeaders) -> JSONValue {
        guard let body, body.size > 0 else { return .null }
        var members: [String: JSONValue] = ["size": .int(body.size), "shown": .int(body.prefix.count)]
        let type = headers[.contentType]?.lowercased() ?? ""
        if body.prefix.count == body.size, type.contains("json") || type.isEmpty,
            let value = try? JSONValue(parsing: body.prefix), let pretty = try? value.serialized(pretty: true)
        {
            members["json"] = .string(String(decoding: pretty, as: UTF8.self))
        } else if let text = String(data: body.prefix, encoding: .utf8), !text.contains("\u{0}") {
            members["text"] = .string(text)
        } else if body.prefix.count < body.size,
            let text = (1...3).lazy.compactMap({ String(data: body.prefix.dropLast($0), encoding: .utf8) }).first
        {
            // Cut inside a character: up to the last whole one.
            members["text"] = .string(text)
        }
        return .object(members)
    }

    /// The request as a `curl` command line, each argument quoted for a POSIX shell.
    static func curl(_ request: MockRequest) -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        var words = ["curl"]
        if request.method == .head {
            words.append("-I")  // -X HEAD would wait for a body that never comes
        } else if request.method != .get || request.body?.isEmpty == false {
            words += ["-X", quoted(request.method.rawValue)]
        }
        words.append(quoted(request.url.absoluteString))
        for field in request.headers where ![.host, .contentLength].contains(field.name) {
            words += ["-H", quoted("\(field.name.rawValue): \(field.value)")]
        }
        if let body = request.body, !body.isEmpty {
            // --data-raw: a body that starts with @ is sent as it is, not read from a file.
            if let text = String(data: body, encoding: .utf8), !text.contains("\u{0}") {
                words += ["--data-raw", quoted(text)]
            } else {
                words.append("--data-binary @body.bin  # \(body.count) bytes that aren't text")
            }
        }
        return words.joined(separator: " ")
    }
}
