import Foundation
import RequestMocker
import RequestMockerTestSupport

/// The problems a HAR document has against the HAR 1.2 spec's required fields and types
/// (http://www.softwareishard.com/blog/har-12-spec/); empty when it is valid.
func harProblems(_ document: JSONValue) -> [String] {
    var problems: [String] = []
    func require(_ value: JSONValue?, _ path: String, _ kind: String) {
        let ok: Bool
        switch (kind, value) {
        case ("string", .string?): ok = true
        case ("number", .int?), ("number", .double?): ok = true
        case ("object", .object?): ok = true
        case ("array", .array?): ok = true
        default: ok = false
        }
        if !ok { problems.append("\(path): expected \(kind), found \(value.map { "\($0)" } ?? "nothing")") }
    }
    func nameValueList(_ value: JSONValue?, _ path: String) {
        require(value, path, "array")
        guard case .array(let items)? = value else { return }
        for (index, item) in items.enumerated() {
            require(item["name"], "\(path)[\(index)].name", "string")
            require(item["value"], "\(path)[\(index)].value", "string")
        }
    }
    let log = document["log"]
    require(log, "log", "object")
    require(log?["version"], "log.version", "string")
    require(log?["creator"], "log.creator", "object")
    require(log?["creator"]?["name"], "log.creator.name", "string")
    require(log?["creator"]?["version"], "log.creator.version", "string")
    require(log?["entries"], "log.entries", "array")
    guard case .array(let entries)? = log?["entries"] else { return problems }
    for (index, entry) in entries.enumerated() {
        let path = "log.entries[\(index)]"
        require(entry["startedDateTime"], "\(path).startedDateTime", "string")
        require(entry["time"], "\(path).time", "number")
        require(entry["cache"], "\(path).cache", "object")
        let request = entry["request"]
        let response = entry["response"]
        let timings = entry["timings"]
        require(request, "\(path).request", "object")
        for field in ["method", "url", "httpVersion"] { require(request?[field], "\(path).request.\(field)", "string") }
        for field in ["headersSize", "bodySize"] { require(request?[field], "\(path).request.\(field)", "number") }
        nameValueList(request?["cookies"], "\(path).request.cookies")
        nameValueList(request?["headers"], "\(path).request.headers")
        nameValueList(request?["queryString"], "\(path).request.queryString")
        if let postData = request?["postData"] {
            require(postData["mimeType"], "\(path).request.postData.mimeType", "string")
        }
        require(response, "\(path).response", "object")
        require(response?["status"], "\(path).response.status", "number")
        for field in ["statusText", "httpVersion", "redirectURL"] {
            require(response?[field], "\(path).response.\(field)", "string")
        }
        for field in ["headersSize", "bodySize"] { require(response?[field], "\(path).response.\(field)", "number") }
        nameValueList(response?["cookies"], "\(path).response.cookies")
        nameValueList(response?["headers"], "\(path).response.headers")
        require(response?["content"], "\(path).response.content", "object")
        require(response?["content"]?["size"], "\(path).response.content.size", "number")
        require(response?["content"]?["mimeType"], "\(path).response.content.mimeType", "string")
        require(timings, "\(path).timings", "object")
        for field in ["send", "wait", "receive"] { require(timings?[field], "\(path).timings.\(field)", "number") }
        if let date = entry["startedDateTime"]?.stringValue,
            date.range(
                of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(Z|[+-]\d{2}:\d{2})$"#, options: .regularExpression)
                == nil
        {
            problems.append("\(path).startedDateTime: \(date) is not ISO 8601 with milliseconds")
        }
    }
    return problems
}
