extension MockResponse {
    /// A JSON body from a literal or a ``JSONValue``, with `Content-Type: application/json`
    /// unless `headers` sets one.
    ///
    /// Keys are sorted, so the body is the same bytes every run. A value JSON can't hold
    /// (`Double.nan`) makes every request this answers fail with
    /// ``RequestMockerError/invalidJSON(_:)``.
    ///
    /// ```swift
    /// registry.register(.get("/users"), respond: .json([["id": 1], ["id": 2]]))
    /// ```
    public static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> MockResponse {
        do {
            return MockResponse(
                content: .body(try value.serialized(), defaultContentType: jsonContentType), status: status,
                headers: headers)
        } catch {
            return MockResponse(
                content: .failure(RequestMockerError.invalidJSON(error.description)), status: status, headers: headers)
        }
    }

    /// A JSON body encoded from any `Encodable` value, encoded now.
    ///
    /// ```swift
    /// struct User: Codable { var id: Int; var name: String }
    /// registry.register(.get("/me"), respond: try .json(encoding: User(id: 7, name: "Ada")))
    /// ```
    ///
    /// - Parameters:
    ///   - value: the value to encode.
    ///   - encoder: the encoder; `JSONEncoder()` with sorted keys by default.
    ///   - status: the status code, 200 by default.
    ///   - headers: header fields; a `Content-Type` here is sent as given.
    /// - Throws: the encoder's `EncodingError`.
    public static func json<Value: Encodable>(
        encoding value: Value,
        encoder: JSONEncoder = defaultEncoder(),
        status: HTTPStatus = .ok,
        headers: HTTPHeaders = [:]
    ) throws -> MockResponse {
        MockResponse(
            content: .body(try encoder.encode(value), defaultContentType: jsonContentType), status: status,
            headers: headers)
    }

    /// A JSON body from a Foundation object (`[String: Any]`, `[Any]`), for fixtures already
    /// written as dictionaries.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["id": 7, "name": "Ada"]
    /// registry.register(.get("/me"), respond: try .json(object: legacy))
    /// ```
    ///
    /// - Throws: ``JSONValue/ConversionError`` naming the key path of a value JSON can't hold.
    public static func json(
        object: Any, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]
    ) throws(JSONValue.ConversionError) -> MockResponse {
        json(try JSONValue(any: object), status: status, headers: headers)
    }

    /// `JSONEncoder()` with sorted keys, the default for ``json(encoding:encoder:status:headers:)``.
    public static func defaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static let jsonContentType = "application/json"
}
