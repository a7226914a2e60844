/// One lexical token of a GraphQL document: a punctuator, a name, a number or a string.
package struct GraphQLToken: Sendable {
    package enum Kind: Sendable, Equatable {
        case end
        case bang, dollar, ampersand, parenLeft, parenRight, spread, colon, equals, at
        case bracketLeft, bracketRight, braceLeft, pipe, braceRight
        case name, int, float, string, blockString

        /// How a message names the token kind: `"{"`, `Name`, `<EOF>`.
        package var described: String {
            switch self {
            case .end: "<EOF>"
            case .bang: "\"!\""
            case .dollar: "\"$\""
            case .ampersand: "\"&\""
            case .parenLeft: "\"(\""
            case .parenRight: "\")\""
            case .spread: "\"...\""
            case .colon: "\":\""
            case .equals: "\"=\""
            case .at: "\"@\""
            case .bracketLeft: "\"[\""
            case .bracketRight: "\"]\""
            case .braceLeft: "\"{\""
            case .pipe: "\"|\""
            case .braceRight: "\"}\""
            case .name: "Name"
            case .int: "Int"
            case .float: "Float"
            case .string: "String"
            case .blockString: "BlockString"
            }
        }
    }

    package var kind: Kind
    /// The byte offset the token starts at.
    package var start: Int
    /// The byte offset just past the token.
    package var end: Int
    /// A name's or a number's text, or a string's value (escapes read, a block string dedented);
    /// empty for a punctuator.
    package var value: String

    /// How a message names this token: `Name "query"`, `"{"`, `<EOF>`.
    package var described: String {
        switch kind {
        case .name, .int, .float, .string, .blockString: "\(kind.described) \"\(value)\""
        default: kind.described
        }
    }
}

/// A document that isn't GraphQL: where it stops being GraphQL and why.
package struct GraphQLSyntaxError: Error, Sendable, Equatable {
    /// The byte offset the mistake is at.
    package var offset: Int
    /// What is wrong, as `Syntax Error: …` (graphql-js's words where they say it well).
    package var message: String

    package init(at offset: Int, _ message: String) {
        self.offset = offset
        self.message = "Syntax Error: " + message
    }
}
