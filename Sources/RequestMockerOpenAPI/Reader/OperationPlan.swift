import RequestMocker

/// What answering and validating need of one operation, read and compiled once when the
/// contract is read: its responses with their media types, examples and schemas, its
/// parameters, its request body and its security.
final class OperationPlan: Sendable {
    /// One media type of a response or a request body.
    struct Media: Sendable {
        /// As the contract writes it (`application/json`, `image/*`).
        let type: String
        /// `type`, read once: every answer asks whether it is JSON or takes a `Content-Type`.
        let mediaType: MediaType
        /// `example`, when the media type has one.
        let example: DocumentNode?
        /// `examples`, in document order, by name.
        let examples: [(name: String, value: DocumentNode)]
        let schema: Schema?
        /// How a form's or multipart body's properties are written (its `encoding`), by name.
        var encoding: [String: Encoding] = [:]
        /// The `Content-Type` an answer of this media type carries (`application/octet-stream`
        /// for a range such as `image/*`).
        let contentType: String
        /// The body answered when nothing is asked for, when the contract writes one: the
        /// `example`, else the first named example, as bytes, and how it was chosen. Encoded once
        /// here, not for every request.
        let written: (body: Data, how: String)?

        init(
            type: String, example: DocumentNode?, examples: [(name: String, value: DocumentNode)], schema: Schema?,
            encoding: [String: Encoding] = [:]
        ) {
            self.type = type
            mediaType = MediaType(type)
            self.example = example
            self.examples = examples
            self.schema = schema
            self.encoding = encoding
            contentType = type.utf8.contains(UInt8(ascii: "*")) ? "application/octet-stream" : type
            if let example {
                written = (ContractResponder.encoded(example, as: type), "example")
            } else if let first = examples.first {
                written = (ContractResponder.encoded(first.value, as: type), "example \(first.name)")
            } else {
                written = nil
            }
        }
    }

    /// One property's `encoding` in a form or multipart body.
    struct Encoding: Sendable {
        /// The part's media type (`application/json` makes a text part JSON).
        let contentType: String?
        /// `form`, `spaceDelimited`, `pipeDelimited` or `deepObject`, for a form's fields.
        let style: String
        let explode: Bool
    }

    struct Response: Sendable {
        /// `200`, `2XX` or `default`.
        let status: String
        let pointer: String
        let headers: [Header]
        let content: [Media]
        /// The media types of `content`, as negotiation takes them.
        var offered: [String] { content.map(\.type) }
    }

    struct Header: Sendable {
        let name: String
        let required: Bool
        let schema: Schema?
        let example: DocumentNode?
    }

    struct Parameter: Sendable {
        enum Location: String, Sendable {
            case path, query, header, cookie
        }

        let name: String
        let location: Location
        let required: Bool
        /// `form`, `simple`, `label`, `matrix`, `deepObject`, `spaceDelimited`, `pipeDelimited`.
        let style: String
        let explode: Bool
        /// The schema, or that of the first media type of its `content`.
        let schema: Schema?
        /// Whether the value is JSON (a parameter with `content: {application/json: …}`).
        let isJSON: Bool
        let example: DocumentNode?
        /// The query names an exploded object declares, one per member (even those its style
        /// can't carry, which ``schema`` leaves out): each is a declared query name.
        var memberNames: Set<String> = []
    }

    struct Body: Sendable {
        let required: Bool
        let content: [Media]
    }

    /// One security scheme a request may need to show credentials for.
    struct Credential: Sendable, Equatable {
        enum Kind: Sendable, Equatable {
            case apiKey(name: String, location: Parameter.Location)
            case basic
            /// `Bearer` for bearer, OAuth 2 and OpenID Connect.
            case bearer
            /// An HTTP scheme other than basic and bearer: the `Authorization` header's scheme.
            case http(String)
            /// Mutual TLS: nothing a mock can see.
            case none
        }

        let scheme: String
        let kind: Kind
    }

    let responses: [Response]
    let parameters: [Parameter]
    let body: Body?
    /// Any of these, each all of its credentials; empty when the operation needs none.
    let security: [[Credential]]
    /// The query names the operation declares (its parameters', an exploded object's members',
    /// an API key's), and the prefixes of its `deepObject` ones (`filter[`): found once here,
    /// not for every request.
    let queryNames: Set<String>
    let queryPrefixes: [String]
    /// The lowest 2xx the operation declares as a code (`201`, not `2XX`): the status answering
    /// chooses when nothing is asked for, and the one a resource's operations answer with.
    let lowestSuccess: Int?
    /// Whether a cookie parameter or credential is declared: only then are a request's cookies read.
    let readsCookies: Bool

    // A class: a request's answer hands the plan along as one reference, not as copies of each
    // of its arrays (which, among 10,000 operations, each cost a cache miss to count).
    init(responses: [Response], parameters: [Parameter], body: Body?, security: [[Credential]]) {
        self.responses = responses
        self.parameters = parameters
        self.body = body
        self.security = security
        var names: Set<String> = []
        var prefixes: [String] = []
        for parameter in parameters where parameter.location == .query {
            names.insert(parameter.name)
            names.formUnion(parameter.memberNames)
            if parameter.style == "deepObject" { prefixes.append(parameter.name + "[") }
        }
        for credential in security.joined() {
            if case .apiKey(let name, .query) = credential.kind { names.insert(name) }
        }
        queryNames = names
        queryPrefixes = prefixes
        readsCookies =
            parameters.contains { $0.location == .cookie }
            || security.joined().contains { if case .apiKey(_, .cookie) = $0.kind { true } else { false } }
        lowestSuccess = responses.compactMap { Int($0.status) }.filter { (200..<300).contains($0) }.min()
    }
}

extension OperationPlan {
    /// The response declared for `status`: its own, else its range's (`4XX`), else `default`.
    /// Answering, `check`, `MockResponse.openAPI(_:operationID:status:example:generation:)`
    /// and the sample requests all find a status's response by this one rule.
    func response(for status: Int) -> Response? {
        responses.first { $0.status == String(status) }
            ?? responses.first { $0.status.uppercased() == "\(status / 100)XX" }
            ?? responses.first { $0.status == "default" }
    }

}
