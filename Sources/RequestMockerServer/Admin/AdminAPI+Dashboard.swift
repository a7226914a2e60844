import Foundation
import RequestMocker
import RequestMockerOpenAPI

extension AdminAPI {
    /// The dashboard's calls: the page (`GET /__admin/`), its events (`GET /__admin/events`),
    /// an exchange's details, the session as HAR, "mock this", and a stub turned off or on;
    /// `nil` for any other call.
    static func dashboardCall(_ request: MockRequest, route: [String], server: MockServer) -> ResolvedResponse? {
        guard let feed = server.dashboard else { return nil }
        let method = request.method
        if method == .get, route.isEmpty { return page() }
        if method == .get, route == ["events"] {
            let last = request.headers[.init("Last-Event-ID")].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return events(feed.follow(after: last))
        }
        if method == .get, route == ["exchanges"] {
            return json(.ok, ["exchanges": .array(feed.exchanges.map(\.summary))])
        }
        if method == .get, route == ["exchanges.har"] { return har(feed.exchanges) }
        if route.count >= 2, route[0] == "exchanges", method == (route.count == 2 ? .get : .post),
            route.count == 2 || (route.count == 3 && route[2] == "mock")
        {
            guard let exchange = Int(route[1]).flatMap(feed.exchange) else { return unknownExchange(route[1]) }
            return route.count == 2 ? json(.ok, exchange.details) : mock(exchange, request, server: server)
        }
        if method == .patch, route.count == 2, route[0] == "stubs" {
            return setEnabled(request, id: route[1].removingPercentEncoding ?? route[1], in: server.stubStore)
        }
        if method == .post, route == ["resources", "reset"] {
            do {
                try server.registry.resetResourcesReporting()
            } catch {
                return Self.error(.internalServerError, "\(error)")
            }
            return document(.ok, server.registry.resourcesDocument)
        }
        return nil
    }

    private static func unknownExchange(_ id: String) -> ResolvedResponse {
        error(
            .notFound,
            "no exchange \(id.debugDescription) is kept; the last \(DashboardFeed.kept) are, listed by "
                + "GET /__admin/exchanges")
    }

    /// The page, from the binary.
    private static func page() -> ResolvedResponse {
        let body = Data(DashboardPage.html.utf8)
        var headers = HTTPHeaders()
        headers.add(.contentType, "text/html; charset=utf-8")
        headers.add(.contentLength, String(body.count))
        headers.add(.init("Cache-Control"), "no-store")
        // The page runs only its own script, and talks only to this server.
        headers.add(
            .init("Content-Security-Policy"),
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
                + "img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        headers.add(.init("X-Content-Type-Options"), "nosniff")
        return ResolvedResponse(status: .ok, httpVersion: "HTTP/1.1", headers: headers, body: body)
    }

    /// `text/event-stream`: an `exchange` event per exchange (`id:` its id, `data:` its summary),
    /// a `dropped` event with how many a slow page lost, and a comment every 15 seconds so
    /// proxies and the page know the stream is alive.
    private static func events(_ page: DashboardPageStream) -> ResolvedResponse {
        let lastSent = LockedState(ContinuousClock.now)
        let stream = BodyStream(
            expectedLength: nil,
            pull: { wait in
                guard let (exchanges, dropped) = page.take(waitingAtMost: wait) else { return .end }
                var text = ""
                if dropped > 0 { text += "event: dropped\ndata: {\"dropped\":\(dropped)}\n\n" }
                for exchange in exchanges {
                    let data = (try? exchange.summary.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    text += "id: \(exchange.id)\nevent: exchange\ndata: \(data)\n\n"
                }
                let now = ContinuousClock.now
                let quiet = lastSent.withLock { last -> Bool in
                    guard text.isEmpty else {
                        last = now
                        return false
                    }
                    guard last.duration(to: now) >= .seconds(15) else { return false }
                    last = now
                    return true
                }
                if quiet { text = ": still here\n\n" }
                return text.isEmpty ? .pending : .bytes(Data(text.utf8))
            },
            onCancel: { page.cancel() })
        var headers = HTTPHeaders()
        headers.add(.contentType, "text/event-stream; charset=utf-8")
        headers.add(.init("Cache-Control"), "no-store")
        return ResolvedResponse(status: .ok, httpVersion: "HTTP/1.1", headers: headers, body: .stream(stream))
    }

    /// The kept exchanges as a HAR file, secrets hidden as a recording hides them; bodies are
    /// cut at ``DashboardExchange/shownBytes``.
    private static func har(_ exchanges: [DashboardExchange]) -> ResolvedResponse {
        let data: Data
        do {
            data = try TrafficConversion.harData(of: exchanges.compactMap(\.interaction), redaction: .default)
        } catch {
            return Self.error(.internalServerError, "the session can't be written as HAR: \(error)")
        }
        var headers = HTTPHeaders()
        headers.add(.contentType, "application/json")
        headers.add(.contentLength, String(data.count))
        headers.add(.init("Content-Disposition"), "attachment; filename=\"requestmocker-session.har\"")
        return ResolvedResponse(status: .ok, httpVersion: "HTTP/1.1", headers: headers, body: data)
    }

    /// `POST /__admin/exchanges/{id}/mock` with `{"as": "stub"}` (the default) or `{"as": "file"}`:
    /// the exchange's answer becomes a stub matching its method and path (and query items), or a
    /// file in the mock-data folder under its mock-data name, with secrets hidden.
    private static func mock(
        _ exchange: DashboardExchange, _ request: MockRequest, server: MockServer
    ) -> ResolvedResponse {
        var kind = "stub"
        if let body = request.body, !body.isEmpty {
            guard let value = try? JSONValue(parsing: body), let asked = value["as"]?.stringValue,
                ["stub", "file"].contains(asked)
            else { return error(.badRequest, "send {\"as\": \"stub\"} or {\"as\": \"file\"}") }
            kind = asked
        }
        guard let original = exchange.served.request, let response = exchange.recordedResponse else {
            return error(
                .conflict,
                "exchange \(exchange.id) has no whole answer to copy (it ended: \(exchange.ending ?? "with no body")"
                    + ", or its body is over \(DashboardExchange.shownBytes / 1024) KiB)")
        }
        if kind == "file" {
            guard let folder = server.configuration.admin?.mockDataFolder else {
                return error(.conflict, "the server has no mock-data folder to write into; serve with a FOLDER")
            }
            guard let interaction = exchange.interaction else { return error(.conflict, "nothing to write") }
            do {
                let (written, skipped) = try TrafficConversion.writeMockData(
                    [interaction], into: folder, redaction: .default, replacing: false)
                guard let file = written.first else {
                    return Self.error(.conflict, skipped.first ?? "the file wasn't written")
                }
                return json(.created, ["file": .string(file.path)])
            } catch {
                return Self.error(.internalServerError, "the file can't be written into \(folder.path): \(error)")
            }
        }
        let stub: Stub
        do {
            stub = try Stub(json: stubJSON(for: Redaction.default.redact(original) ?? original, answer: response))
        } catch {
            return Self.error(.internalServerError, "the stub made from exchange \(exchange.id) is invalid: \(error)")
        }
        do {
            let id = try server.stubStore.add(stub)
            return json(.created, ["id": .string(id), "stub": stub.json])
        } catch {
            return Self.error(.conflict, "\(StubStore.maximumAdded) stubs were added already; reset, or remove some")
        }
    }

    /// A stub that matches `request`'s method, path and query items and answers `answer`.
    static func stubJSON(for request: MockRequest, answer: RecordedResponse) -> JSONValue {
        // The path as a pattern of literals: what a pattern reads as a wildcard or a variable is
        // percent-encoded, which a literal may be.
        var path = request.url.path(percentEncoded: true)
        for (character, encoded) in [
            ("*", "%2A"), ("<", "%3C"), (">", "%3E"), ("{", "%7B"), ("}", "%7D"), ("$", "%24"),
        ] {
            path = path.replacingOccurrences(of: character, with: encoded)
        }
        var matching: [String: JSONValue] = [
            "method": .string(request.method.rawValue), "path": .string(path.isEmpty ? "/" : path),
        ]
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        if !items.isEmpty {
            var query: [String: JSONValue] = [:]
            for item in items where query[item.name] == nil {
                query[item.name] = item.value.map(JSONValue.string) ?? .null
            }
            matching["query"] = .object(query)
        }
        var response: [String: JSONValue] = ["status": .int(answer.status.code)]
        var headers: [String: JSONValue] = [:]
        for field in answer.headers
        where ![.contentLength, .transferEncoding, .connection, .init("Date")].contains(field.name) {
            headers[field.name.rawValue] = .string(field.value)
        }
        if !headers.isEmpty { response["headers"] = .object(headers) }
        if !answer.body.isEmpty {
            if let text = String(data: answer.body, encoding: .utf8) {
                response["body"] = .string(text)
            } else {
                response["base64Body"] = .string(answer.body.base64EncodedString())
            }
        }
        return ["request": .object(matching), "response": .object(response)]
    }

    /// `PATCH /__admin/stubs/{id}` with `{"enabled": false}` or `{"enabled": true}`.
    private static func setEnabled(_ request: MockRequest, id: String, in store: StubStore) -> ResolvedResponse {
        guard let body = request.body, let value = try? JSONValue(parsing: body),
            case .bool(let enabled)? = value["enabled"]
        else {
            return error(
                .badRequest, "send {\"enabled\": false} to turn the stub off, {\"enabled\": true} to turn it on")
        }
        guard let held = store.setEnabled(enabled, id: id) else {
            return error(.notFound, "no stub has the id \(id.debugDescription); GET /__admin/stubs lists them")
        }
        return json(.ok, ["id": .string(held.id), "enabled": .bool(held.isEnabled)])
    }
}
