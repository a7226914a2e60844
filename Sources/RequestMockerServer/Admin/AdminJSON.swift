import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// Journal entries as the admin API sends them, and requests read back from that JSON (by
/// `MockServerClient`).
enum AdminJSON {
    /// `{"method", "url", "headers": [{"name", "value"}], "body" or "base64Body", "answeredBy",
    /// "time"}`, `"report"` for an unmatched request, and for an exchange `serve --upstream-first`
    /// checked, `"exchange"` (its number, the `entry` of `GET /__admin/drift`'s examples), `"drift"`
    /// (its findings: `{"rule", "severity", "message", "pointer", "new"}`) and `"bodyUnchecked"`
    /// (why the body wasn't checked, when it wasn't).
    static func json(_ entry: JournalEntry) -> JSONValue {
        let request = entry.request
        var members: [String: JSONValue] = [
            "method": .string(request.method.rawValue),
            "url": .string(request.url.absoluteString),
            "headers": .array(request.headers.map { ["name": .string($0.name.rawValue), "value": .string($0.value)] }),
            "answeredBy": .string(answeredBy(entry)),
            "time": .string(HARTimestamp.format(entry.date)),
        ]
        if let body = request.body, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                members["body"] = .string(text)
            } else {
                members["base64Body"] = .string(body.base64EncodedString())
            }
        }
        if case .unmatched(let report) = entry.disposition { members["report"] = .string(report.description) }
        if let check = entry.upstreamCheck {
            members["drift"] = .array(
                check.findings.map { checked in
                    let finding = checked.finding
                    return [
                        "rule": .string(finding.rule.rawValue),
                        "severity": .string(finding.isError ? "error" : "warning"),
                        "message": .string(finding.message), "pointer": finding.pointer.map(JSONValue.string) ?? .null,
                        "new": .bool(checked.isNew),
                    ]
                })
            if let why = check.bodyUnchecked { members["bodyUnchecked"] = .string(why) }
            if let exchange = check.exchange { members["exchange"] = .int(exchange) }
            if check.findingsLeftOut > 0 { members["driftLeftOut"] = .int(check.findingsLeftOut) }
        }
        return .object(members)
    }

    static func answeredBy(_ entry: JournalEntry) -> String {
        if let fallback = entry.upstreamCheck?.fallback {
            let mock = self.mock(fallback.file, fallback.entryIndex, fallback.contractAnswer, fallback.filter)
            return "\(mock), because \(fallback.reason)"
        }
        switch entry.disposition {
        case .answered: return mock(entry.file, entry.entryIndex, entry.contractAnswer, entry.filter)
        case .recorded: return "upstream, recorded into \(entry.file?.path ?? "?")"
        case .passedThrough: return "upstream"
        case .unmatched: return "unmatched"
        case .answeredByPolicy: return "the unmatched-request policy"
        case .failed(let reason): return "failed: \(reason)"
        }
    }

    /// The mock that answered: a cassette's entry, a contract's answer, a file or a filter.
    private static func mock(
        _ file: URL?, _ entryIndex: Int?, _ contractAnswer: ContractAnswer?, _ filter: RequestFilter?
    ) -> String {
        if let file, let entryIndex { return "cassette \(file.path), entry \(entryIndex)" }
        if let contractAnswer { return "openapi \(contractAnswer)" }
        if let file { return "file \(file.path)" }
        return filter.map { "filter \($0)" } ?? "filter"
    }

    /// The request of an entry of `GET /__admin/requests`, or `nil` when it isn't one.
    static func request(from json: JSONValue) -> MockRequest? {
        guard let method = json["method"]?.stringValue, let text = json["url"]?.stringValue,
            let url = URL(string: text)
        else { return nil }
        var headers = HTTPHeaders()
        if case .array(let fields)? = json["headers"] {
            for field in fields {
                guard let name = field["name"]?.stringValue, let value = field["value"]?.stringValue else { continue }
                headers.add(HTTPHeaders.Name(name), value)
            }
        }
        var body: Data?
        if let text = json["body"]?.stringValue {
            body = Data(text.utf8)
        } else if let encoded = json["base64Body"]?.stringValue {
            body = Data(base64Encoded: encoded)
        }
        return MockRequest(method: HTTPMethod(rawValue: method), url: url, headers: headers, body: body)
    }
}
