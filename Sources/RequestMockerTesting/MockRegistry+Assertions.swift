import Foundation

/// Checks on what a registry's journal saw. Each records a failure (an issue in Swift Testing,
/// `XCTFail` in XCTest) at the line that called it, quoting the journal, and carries on.
extension MockRegistry {
    /// Checks that requests matching `filter` were made: exactly `times` of them, or at least
    /// one when `times` is `nil`. The filter's response is ignored; only its conditions count.
    ///
    /// ```swift
    /// registry.assertRequested(.post("/events"), times: 2)
    /// let login = registry.assertRequested(.post("/login")).last
    /// ```
    ///
    /// - Returns: the matching requests, oldest first.
    @discardableResult
    public func assertRequested(
        _ filter: RequestFilter,
        times: Int? = nil,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> [MockRequest] {
        let matched = requests(matching: filter)
        let wanted = times.map { "\($0) request\($0 == 1 ? "" : "s")" } ?? "at least 1 request"
        if let times, matched.count != times || times < 0 {
            fail("Expected \(wanted) matching \(filter), but \(matched.count) arrived", fileID, filePath, line, column)
        } else if times == nil, matched.isEmpty {
            fail("Expected \(wanted) matching \(filter), but none arrived", fileID, filePath, line, column)
        }
        return matched
    }

    /// Checks that no request matching `filter` was made.
    ///
    /// ```swift
    /// registry.assertNotRequested(.delete("/users/<id>"))
    /// ```
    public func assertNotRequested(
        _ filter: RequestFilter,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let matched = requests(matching: filter)
        if !matched.isEmpty {
            fail("Expected no request matching \(filter), but \(matched.count) arrived", fileID, filePath, line, column)
        }
    }

    /// Waits until `times` requests matching `filter` have been made, for code that sends
    /// requests in the background and doesn't say when; records a failure if `timeout` passes
    /// first.
    ///
    /// ```swift
    /// analytics.trackLaunch()   // fire and forget
    /// await registry.assertRequested(.post("/events"), times: 1, within: .seconds(2))
    /// ```
    ///
    /// - Returns: the matching requests, oldest first (fewer than `times` after a timeout).
    @discardableResult
    public func assertRequested(
        _ filter: RequestFilter,
        times: Int,
        within timeout: Duration,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> [MockRequest] {
        do {
            return try await waitForRequests(count: times, matching: filter, timeout: timeout)
        } catch {
            let matched = requests(matching: filter)
            let reason = error is CancellationError ? "the test was cancelled" : "\(timeout) passed"
            fail(
                "Expected \(times) request\(times == 1 ? "" : "s") matching \(filter), "
                    + "but \(reason) with \(matched.count)",
                fileID, filePath, line, column)
            return matched
        }
    }

    /// Decodes the JSON body of the latest request matching `filter`; records a failure and
    /// returns `nil` when no request matched or its body doesn't decode as `type`.
    ///
    /// ```swift
    /// struct Event: Decodable { let name: String }
    /// let event = registry.assertJSONBody(of: .post("/events"), as: Event.self)
    /// #expect(event?.name == "launch")
    /// ```
    public func assertJSONBody<Value: Decodable>(
        of filter: RequestFilter,
        as type: Value.Type,
        decoder: JSONDecoder = JSONDecoder(),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Value? {
        guard let request = requests(matching: filter).last else {
            fail(
                "Expected a request matching \(filter) to decode its body as \(Value.self), but none arrived",
                fileID, filePath, line, column)
            return nil
        }
        do {
            return try request.decodeJSON(type, decoder: decoder)
        } catch {
            let body = request.bodyText.map { "\"\($0.count > 500 ? $0.prefix(500) + "…" : $0)\"" } ?? "no body"
            fail(
                "The body of \(request) doesn't decode as \(Value.self): \(describe(error)); the body was \(body)",
                fileID, filePath, line, column)
            return nil
        }
    }

    /// Checks that the JSON body of the latest request matching `filter` decodes to `expected`.
    ///
    /// ```swift
    /// registry.assertJSONBody(of: .post("/events"), equals: Event(name: "launch"))
    /// ```
    public func assertJSONBody<Value: Decodable & Equatable>(
        of filter: RequestFilter,
        equals expected: Value,
        decoder: JSONDecoder = JSONDecoder(),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        guard
            let actual = assertJSONBody(
                of: filter, as: Value.self, decoder: decoder,
                fileID: fileID, filePath: filePath, line: line, column: column)
        else { return }
        if actual != expected {
            fail(
                "The body of the latest request matching \(filter) decoded to \(actual), not \(expected)",
                fileID, filePath, line, column)
        }
    }

    /// Records `message` with the journal appended, at the caller's place.
    private func fail(_ message: String, _ fileID: String, _ filePath: StaticString, _ line: UInt, _ column: UInt) {
        MockingIssue.record(
            message + "\n" + journalSummary, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// The journal, newest last, as a report quotes it.
    var journalSummary: String {
        let entries = journal
        guard !entries.isEmpty else { return "The journal is empty: this registry saw no requests." }
        let limit = 20
        var lines = ["The journal (\(entries.count) request\(entries.count == 1 ? "" : "s")):"]
        if entries.count > limit { lines.append("  … \(entries.count - limit) earlier") }
        lines += entries.suffix(limit).map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

/// A decoding error in words: which key or index, and what was wrong.
private func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? "" : " at \(path)"
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing key \"\(key.stringValue)\"\(path(context))"
    case .typeMismatch(let type, let context): return "expected \(type)\(path(context)): \(context.debugDescription)"
    case .valueNotFound(let type, let context): return "no \(type) value\(path(context))"
    case .dataCorrupted(let context): return "\(context.debugDescription)\(path(context))"
    @unknown default: return "\(error)"
    }
}
