/// Sends unmatched requests to the real network and relays the answer, for registries whose
/// policy is ``UnmatchedRequestPolicy/passThrough``.
///
/// The inner session is a plain ephemeral one: it has none of RequestMocker's classes, so the
/// forwarded request can't come back to us, and it follows redirects the normal way.
enum PassThrough {
    private static let session = URLSession(configuration: .ephemeral)

    static func forward(_ request: MockRequest, timeout: TimeInterval) async -> Delivery {
        var forwarded = URLRequest(url: request.url, timeoutInterval: timeout)
        forwarded.httpMethod = request.method.rawValue
        for field in request.headers {
            forwarded.addValue(field.value, forHTTPHeaderField: field.name)
        }
        forwarded.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: forwarded)
            guard let http = response as? HTTPURLResponse else {
                return .failure(URLError(.badServerResponse))
            }
            var headers = HTTPHeaders()
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers.add(name, value) }
            }
            // The inner session already decoded any compressed body: describe what we relay.
            headers.remove("Content-Encoding")
            headers.replace("Content-Length", with: String(data.count))
            let relayed = ResolvedResponse(status: http.statusCode, httpVersion: "HTTP/1.1", headers: headers, body: data)
            return .response(relayed, url: http.url ?? request.url)
        } catch {
            return .failure(error)
        }
    }
}
