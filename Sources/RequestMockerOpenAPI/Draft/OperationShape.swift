import Foundation
import RequestMocker

/// What the exchanges of one operation (a method on one path) had in common: its query
/// parameters, request headers, credentials, request bodies and responses.
final class OperationShape {
    private(set) var count = 0
    var query = NamedTexts(ignoresCase: false)
    var headers = NamedTexts(ignoresCase: true)
    /// The sets of credentials requests carried together (``SecurityScheme/key``s, sorted), in
    /// the order first seen; an empty set stands for requests that carried none.
    private(set) var credentials: [[String]] = []
    private(set) var schemes: [String: SecurityScheme] = [:]
    private(set) var requestsWithBody = 0
    var requestBodies = MediaBodies()
    private(set) var responses: [Int: ResponseShape] = [:]

    /// Adds one exchange (already redacted), whose request carried `credentials`; `response` is
    /// `nil` for a transport error.
    func add(
        _ request: MockRequest, credentials used: [SecurityScheme], response: RecordedResponse?, limits: DraftLimits
    ) {
        count += 1
        var queryValues = GroupedTexts(ignoresCase: false)
        for item in request.queryItems
        where !SecurityScheme.isCredential(item.name) && !Preferences.queryNames.contains(item.name) {
            queryValues.add(item.name, item.value ?? "")
        }
        for (name, values) in queryValues.groups { query.add(name, values) }
        var headerValues = GroupedTexts(ignoresCase: true)
        for field in request.headers {
            let name = field.name.rawValue
            let lowered = name.lowercased()
            if SecretNames.isSecretHeader(lowered) { continue }
            if !StandardHeaders.request.contains(lowered), !lowered.hasPrefix("sec-"),
                !lowered.hasPrefix("x-forwarded-"), !lowered.hasPrefix("proxy-")
            {
                headerValues.add(name, field.value)
            }
        }
        for (name, values) in headerValues.groups { headers.add(name, values) }
        var keys: [String] = []
        for scheme in used where !keys.contains(scheme.key) {
            keys.append(scheme.key)
            schemes[scheme.key] = schemes[scheme.key] ?? scheme
        }
        keys.sort()
        if !credentials.contains(keys) { credentials.append(keys) }
        if let body = request.body, !body.isEmpty {
            requestsWithBody += 1
            requestBodies.add(body, contentType: request.headers[.contentType], limits: limits)
        }
        guard let response else { return }
        let status = response.status.code
        let shape = responses[status] ?? ResponseShape()
        shape.add(response, limits: limits)
        responses[status] = shape
    }

    /// Takes in what `other` saw, as if its exchanges had been added here.
    func absorb(_ other: OperationShape) {
        count += other.count
        query.absorb(other.query)
        headers.absorb(other.headers)
        for keys in other.credentials where !credentials.contains(keys) { credentials.append(keys) }
        schemes.merge(other.schemes) { mine, _ in mine }
        requestsWithBody += other.requestsWithBody
        requestBodies.absorb(other.requestBodies)
        for (status, theirs) in other.responses {
            if let mine = responses[status] { mine.absorb(theirs) } else { responses[status] = theirs.copy() }
        }
    }

    func copy() -> OperationShape {
        let copy = OperationShape()
        copy.absorb(self)
        return copy
    }
}

/// The responses of one status.
final class ResponseShape {
    private(set) var count = 0
    var headers = NamedTexts(ignoresCase: true)
    var bodies = MediaBodies()

    func add(_ response: RecordedResponse, limits: DraftLimits) {
        count += 1
        var values = GroupedTexts(ignoresCase: true)
        for field in response.headers {
            let name = field.name.rawValue
            let lowered = name.lowercased()
            guard !StandardHeaders.response.contains(lowered), !SecretNames.isSecretHeader(lowered),
                !lowered.hasPrefix("access-control-")
            else { continue }
            values.add(name, field.value)
        }
        for (name, texts) in values.groups { headers.add(name, texts) }
        if !response.body.isEmpty {
            bodies.add(response.body, contentType: response.headers[.contentType], limits: limits)
        }
    }

    func absorb(_ other: ResponseShape) {
        count += other.count
        headers.absorb(other.headers)
        bodies.absorb(other.bodies)
    }

    func copy() -> ResponseShape {
        let copy = ResponseShape()
        copy.absorb(self)
        return copy
    }
}
