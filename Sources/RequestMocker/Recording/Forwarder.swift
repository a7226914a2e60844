/// Sends a request to the real network, for pass-through and recording.
///
/// The inner session is a plain ephemeral one: it has none of RequestMocker's classes, so the
/// forwarded request can't come back to us. It does not follow redirects: the 3xx is the
/// answer. `MockURLProtocol` follows it through the registry like any answer, so every hop is
/// matched (and recorded) on its own; the loopback server hands it to its client, which follows
/// it. (FoundationNetworking drops a refused redirect's body.)
enum Forwarder {
    private static let session = URLSession(configuration: .ephemeral, delegate: RedirectRefusal(), delegateQueue: nil)

    /// The response with the header fields as received and the body decoded (the inner session
    /// undoes `Content-Encoding`), or the transport error.
    static func forward(_ request: MockRequest, timeout: TimeInterval) async -> Result<RecordedResponse, URLError> {
        var forwarded = URLRequest(url: request.url)
        // Set as a property, in whole seconds: FoundationNetworking's HTTP loader ignores the
        // timeout given to `URLRequest(url:timeoutInterval:)` (the session's applies), and a
        // property of 0.5 s was seen to time out at once.
        forwarded.timeoutInterval = max(timeout.rounded(.up), 1)
        forwarded.httpMethod = request.method.rawValue
        for field in request.headers {
            forwarded.addValue(field.value, forHTTPHeaderField: field.name.rawValue)
        }
        forwarded.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: forwarded)
            guard let http = response as? HTTPURLResponse else {
                return .failure(URLError(.badServerResponse))
            }
            var fields: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name] = value }
            }
            // Sorted by name: the dictionary has no order, and cassettes should diff cleanly.
            return .success(
                RecordedResponse(status: HTTPStatus(http.statusCode), headers: HTTPHeaders(fields), body: data))
        } catch let error as URLError {
            return .failure(error)
        } catch {
            return .failure(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\(error)"]))
        }
    }

    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }
}
