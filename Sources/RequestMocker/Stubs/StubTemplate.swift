import Foundation

/// A templated stub response: `{{id}}` (a path variable), `{{query.q}}` and `{{header.X-Name}}`
/// in the body's text and in header values, filled from each request. Placeholders are parsed
/// when the stub is read, so a mistake in one is an error then, not on every request. What the
/// request lacks fills in as nothing.
struct StubTemplate: Sendable {
    /// Text with its placeholders.
    struct Text: Sendable {
        enum Part: Sendable {
            case literal(String)
            case variable(String)
            case query(String)
            case header(HTTPHeaders.Name)
        }

        let parts: [Part]

        /// Parses `text`; `variables` are the path's variable names.
        init(_ text: String, variables: Set<String>) throws(Problem) {
            var parts: [Part] = []
            var rest = Substring(text)
            while let open = rest.range(of: "{{") {
                guard let close = rest[open.upperBound...].range(of: "}}") else {
                    throw Problem(reason: "\"{{\" without \"}}\"; write {{id}}, {{query.name}} or {{header.Name}}")
                }
                if open.lowerBound > rest.startIndex { parts.append(.literal(String(rest[..<open.lowerBound]))) }
                let name = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
                if name.hasPrefix("query."), name.count > 6 {
                    parts.append(.query(String(name.dropFirst(6))))
                } else if name.hasPrefix("header."), HTTPHeaders.Name.isValid(String(name.dropFirst(7))) {
                    parts.append(.header(HTTPHeaders.Name(String(name.dropFirst(7)))))
                } else if variables.contains(name) {
                    parts.append(.variable(name))
                } else {
                    let known = variables.sorted().map { "{{\($0)}}" }
                    let offered =
                        known.isEmpty ? "the path has no variables" : "the path gives \(known.joined(separator: ", "))"
                    throw Problem(
                        reason: "{{\(name)}} is not a path variable, query.NAME or header.NAME (\(offered))")
                }
                rest = rest[close.upperBound...]
            }
            if !rest.isEmpty { parts.append(.literal(String(rest))) }
            self.parts = parts
        }

        func render(_ request: MockRequest, _ captures: Captures) -> String {
            var out = ""
            for part in parts {
                switch part {
                case .literal(let text): out += text
                case .variable(let name): out += captures[name] ?? ""
                case .query(let name): out += request.queryItems.first { $0.name == name }?.value ?? ""
                case .header(let name): out += request.headers.values(for: name).first ?? ""
                }
            }
            return out
        }
    }

    /// A placeholder that can't be filled, with the JSON steps below the body to it.
    struct Problem: Error {
        var steps: [JSONLocation.Step] = []
        let reason: String
    }

    enum Body: Sendable {
        case none
        case text(Text)
        /// JSON whose strings are templates: filled values stay strings, so the JSON stays valid.
        case json(JSONValue, [[JSONLocation.Step]: Text])
    }

    let status: HTTPStatus
    let headers: [(name: HTTPHeaders.Name, value: Text)]
    let body: Body

    init(
        status: HTTPStatus, headers: [(name: String, value: String)], body kind: String?, bodyValue: JSONValue,
        variables: Set<String>, invalid: ([JSONLocation.Step], String) -> Stub.Invalid
    ) throws(Stub.Invalid) {
        self.status = status
        var parsedHeaders: [(name: HTTPHeaders.Name, value: Text)] = []
        for field in headers {
            do {
                parsedHeaders.append((HTTPHeaders.Name(field.name), try Text(field.value, variables: variables)))
            } catch {
                throw invalid([], "header \(field.name): \(error.reason)")
            }
        }
        self.headers = parsedHeaders
        switch kind {
        case "body":
            guard case .string(let text) = bodyValue else { throw invalid([], "expected a string") }
            do {
                body = .text(try Text(text, variables: variables))
            } catch {
                throw invalid([], error.reason)
            }
        case "json":
            var templates: [[JSONLocation.Step]: Text] = [:]
            var problem: Problem?
            bodyValue.forEachString { steps, text in
                guard problem == nil, text.contains("{{") else { return }
                do throws(Problem) {
                    templates[steps] = try Text(text, variables: variables)
                } catch {
                    problem = Problem(steps: steps, reason: error.reason)
                }
            }
            if let problem { throw invalid(problem.steps, problem.reason) }
            body = .json(bodyValue, templates)
        default:
            body = .none
        }
    }

    func render(_ request: MockRequest, _ captures: Captures) -> MockResponse {
        var headers = HTTPHeaders()
        for field in self.headers {
            let value = field.value.render(request, captures)
            // A request's value can't break the response: line breaks and NULs are left out.
            headers.add(field.name, String(value.unicodeScalars.filter { !["\r", "\n", "\0"].contains($0) }))
        }
        switch body {
        case .none:
            return .status(status, headers: headers)
        case .text(let text):
            return .string(text.render(request, captures), status: status, headers: headers)
        case .json(let value, let templates):
            let filled = value.replacingStrings { steps, text in templates[steps]?.render(request, captures) ?? text }
            return .json(filled, status: status, headers: headers)
        }
    }
}

extension JSONValue {
    /// Calls `body` with every string in the value and the steps to it (without recursion).
    func forEachString(_ body: ([JSONLocation.Step], String) -> Void) {
        var pending: [([JSONLocation.Step], JSONValue)] = [([], self)]
        while let (steps, value) = pending.popLast() {
            switch value {
            case .string(let text): body(steps, text)
            case .array(let elements):
                for (index, element) in elements.enumerated() { pending.append((steps + [.index(index)], element)) }
            case .object(let members):
                for (key, member) in members { pending.append((steps + [.key(key)], member)) }
            default: break
            }
        }
    }

    /// The value with each string replaced by what `transform` returns for it.
    func replacingStrings(_ transform: ([JSONLocation.Step], String) -> String) -> JSONValue {
        var replacements: [[JSONLocation.Step]: String] = [:]
        forEachString { steps, text in
            let replaced = transform(steps, text)
            if replaced != text { replacements[steps] = replaced }
        }
        var result = self
        for (steps, text) in replacements { result.set(.string(text), at: steps[...]) }
        return result
    }

    /// Sets the value at `steps`, which exist.
    private mutating func set(_ value: JSONValue, at steps: ArraySlice<JSONLocation.Step>) {
        guard let first = steps.first else {
            self = value
            return
        }
        switch (self, first) {
        case (.object(var members), .key(let key)):
            members[key]?.set(value, at: steps.dropFirst())
            self = .object(members)
        case (.array(var elements), .index(let index)) where elements.indices.contains(index):
            elements[index].set(value, at: steps.dropFirst())
            self = .array(elements)
        default:
            break
        }
    }
}
