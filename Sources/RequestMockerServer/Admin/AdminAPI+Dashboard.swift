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
            // The upstream's exchanges are checked after they are answered: their findings first.
            server.registry.settleDrift()
            return json(.ok, ["exchanges": .array(feed.exchanges.map(\.summary))])
        }
        if method == .get, route == ["exchanges.har"] { return har(feed.exchanges) }
        if route.count >= 2, route[0] == "exchanges", method == (route.count == 2 ? .get : .post),
            route.count == 2 || (route.count == 3 && route[2] == "mock")
        {
            guard let exchange = Int(route[1]).flatMap(feed.exchange) else { return unknownExchange(route[1]) }
            guard route.count == 3 else {
                server.registry.settleDrift()
                return json(.ok, exchange.details)
            }
            return mock(exchange, request, server: server)
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
        respond(
            .ok, Data(DashboardPage.html.utf8), contentType: "text/html; charset=utf-8",
            headers: [
                ("Cache-Control", "no-store"),
                // The page runs only its own script, and talks only to this server.
                (
                    "Content-Security-Policy",
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                        + "connect-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; "
                        + "form-action 'none'"
                ),
                ("X-Content-Type-Options", "nosniff"),
            ])
    }

    /// `text/event-stream`: an `exchange` event per exchange (`id:` its id, `data:` its summary),
    /// a `dropped` event with how many a slow page lost, and a comment every 15 seconds so
    /// proxies and the page know the stream is alive.
    ///
    /// Events go out in batches, at most ten a second (the page draws ten times a second), each
    /// of at most ``batchSize``: a page keeps up with 2,500 exchanges a second, and under heavier
    /// traffic gets the newest of each batch and is told how many it missed, so following the
    /// server costs it little (the page shows the last 1,000 anyway).
    private static func events(_ page: DashboardPageStream) -> ResolvedResponse {
        let lastSent = LockedState(ContinuousClock.now - .seconds(1))
        // The kept exchanges go to a page that opens all at once; the batches after are bounded.
        let opened = LockedState(false)
        let ended = LockedState(false)
        let stream = BodyStream(
            expectedLength: nil,
            pull: { wait in
                let due = lastSent.withLock { $0 } + batchInterval
                let early = ContinuousClock.now.duration(to: due)
                if early > .zero {
                    // Too soon after the last batch: let this one gather (within the wait asked).
                    guard early <= wait else {
                        Thread.sleep(forTimeInterval: wait / .seconds(1))
                        return .pending
                    }
                    Thread.sleep(forTimeInterval: early / .seconds(1))
                }
                let limit = opened.withLock { opened -> Int in
                    defer { opened = true }
                    return opened ? batchSize : .max
                }
                let left = max(.zero, wait - max(.zero, early))
                guard let (exchanges, dropped) = page.take(waitingAtMost: left, atMost: limit) else {
                    // Ended for another page (at most 16 follow): said once, so it doesn't come back.
                    let said = ended.withLock { ended in
                        defer { ended = true }
                        return ended
                    }
                    return said ? .end : .bytes(Data(#"event: ended\#ndata: {"reason":"\#(endedReason)"}\#n\#n"#.utf8))
                }
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

    /// Why a page's stream ended while the server runs: another page took its place.
    static let endedReason =
        "more pages follow this server than it serves (\(DashboardFeed.maximumPages)); reload to follow it again"

    /// The shortest time between two batches of events to a page, and the most in one: the
    /// newest are sent, the others counted as dropped.
    static let batchInterval = Duration.milliseconds(100)
    static let batchSize = 250

    /// The kept exchanges as a HAR file, secrets hidden as a recording hides them; bodies are
    /// cut at ``DashboardExchange/shownBytes``.
    private static func har(_ exchanges: [DashboardExchange]) -> ResolvedResponse {
        let data: Data
        do {
            data = try TrafficConversion.harData(of: exchanges.compactMap(\.interaction), redaction: .default)
        } catch {
            return Self.error(.internalServerError, "the session can't be written as HAR: \(error)")
        }
        return respond(
            .ok, data, headers: [("Content-Disposition", "attachment; filename=\"requestmocker-session.har\"")])
    }

    /// `POST /__admin/exchanges/{id}/mock` with `{"as": "stub"}` (the default) or `{"as": "file"}`:
    /// the exchange's answer becomes a stub matching its method and path (and query items), or a
    /// file in the mock-data folder under its mock-data name, with secrets hidden.
    private static func mock(
        _ exchange: DashboardExchange, _ request: MockRequest, server: MockServer
    ) -> ResolvedResponse {
        var kind = "stub"
        if let body = request.body, !body.isEmpty {
            guard case .object(let members)? = try? JSONValue(parsing: body),
                members["as"].map({ ["stub", "file"].contains($0.stringValue ?? "") }) ?? true
            else { return error(.badRequest, "send {\"as\": \"stub\"} or {\"as\": \"file\"}") }
            kind = members["as"]?.stringValue ?? kind
        }
        guard let original = exchange.served.request, let response = exchange.recordedResponse else {
            let why =
                if let ending = exchange.ending {
                    "it ended without one (\(ending))"
                } else if let body = exchange.responseBody, body.prefix.count < body.size {
                    "its body is over the \(DashboardExchange.shownBytes / 1024) KiB the dashboard keeps; record it "
                        + "with --upstream URL --record instead"
                } else {
                    "it has none"
                }
            return error(.conflict, "exchange \(exchange.id) has no whole answer to copy: \(why)")
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
            stub = try Stub(json: stubJSON(for: original, answer: response))
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

    /// A stub that matches `original`'s method, path and query items and answers `answer`. A
    /// query item a recording hides (`api_key`, `token`) is asked for by its name alone, so its
    /// value stays out of the stub and the same request still matches.
    static func stubJSON(for original: MockRequest, answer: RecordedResponse) -> JSONValue {
        let request = Redaction.default.redact(original) ?? original
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
        let items = URLComponents(url: original.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let shown = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        if !items.isEmpty {
            var query: [String: JSONValue] = [:]
            for (index, item) in items.enumerated() where query[item.name] == nil {
                let hidden = index >= shown.count || shown[index] != item
                query[item.name] = hidden ? .null : item.value.map(JSONValue.string) ?? .null
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
