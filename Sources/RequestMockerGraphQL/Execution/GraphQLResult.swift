import RequestMocker

/// What executing a request gives: the data its selection asked for and the errors met.
///
/// A request error (a syntax or validation mistake, variables that don't fit) has no `data`
/// at all; an error met while answering nulls the field it happened at, and the result has both.
///
/// ```swift
/// let result = GraphQLResult(data: .object([("hero", .null)]), errors: [])
/// result.serialized() // {"data":{"hero":null}}
/// ```
package struct GraphQLResult: Sendable, Equatable {
    /// The answer's data, `nil` for a request error (the response then has no `data` key).
    package var data: GraphQLJSON?
    package var errors: [GraphQLError]

    package init(data: GraphQLJSON?, errors: [GraphQLError] = []) {
        self.data = data
        self.errors = errors
    }

    /// A request error's result: errors and no data.
    package static func refusal(_ errors: [GraphQLError]) -> GraphQLResult {
        GraphQLResult(data: nil, errors: errors)
    }

    /// The response as JSON: `errors` first when there are any, as the specification suggests,
    /// then `data`.
    package var json: GraphQLJSON {
        var members: [(key: String, value: GraphQLJSON)] = []
        if !errors.isEmpty { members.append(("errors", .list(errors.map(\.json)))) }
        if let data { members.append(("data", data)) }
        return .object(members)
    }

    /// The response's bytes: compact JSON, members in order.
    package func serialized() -> [UInt8] {
        json.serialized()
    }
}

extension GraphQLJSON {
    /// Compact JSON text, objects' members in their order; a number JSON can't hold (not finite)
    /// is written as `null`. Recursive as deep as the value nests, which an answer's selection
    /// set bounds.
    package func serialized() -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .float(let number):
            output.append(contentsOf: (number.isFinite ? number.description : "null").utf8)
        case .string(let text): JSONValue.writeString(text, to: &output)
        case .list(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
