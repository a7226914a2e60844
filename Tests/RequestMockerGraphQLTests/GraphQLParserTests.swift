import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLParserTests {
    static func parse(_ text: String) throws -> GraphQLDocument {
        try GraphQLParser.parse(GraphQLSource(text))
    }

    /// `line:column message` of the syntax error `text` has, or "no error".
    static func failure(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch let error as GraphQLSyntaxError {
            return "\(GraphQLSource(text).location(of: error.offset)) \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    static let kitchenSink = #"""
        "Finds a hero."
        query HeroAndFriends($episode: Episode = JEDI, "how many" $first: Int! = 2 @deprecated, $ids: [ID!]) @live {
          hero(episode: $episode) {
            __typename
            name
            best: friends(first: $first, filter: {names: ["a", """b"""], on: true, nothing: null, n: -1.5e2}) {
              ...FriendFields @include(if: true)
              ... on Droid { primaryFunction }
              ... @skip(if: false) { id }
            }
          }
        }

        fragment FriendFields on Character @x { name }

        mutation { like(id: 4) }
        subscription OnReview { reviewAdded { stars } }
        { shorthand }
        """#

    @Test func theKitchenSinkReadsEveryPart() throws {
        let document = try Self.parse(Self.kitchenSink)
        #expect(document.operations.map(\.kind) == [.query, .mutation, .subscription, .query])
        #expect(document.operations.map(\.name?.value) == ["HeroAndFriends", nil, "OnReview", nil])
        let query = try #require(document.operations.first)
        #expect(query.description == "Finds a hero.")
        #expect(query.variables.map(\.name.value) == ["episode", "first", "ids"])
        #expect(query.variables.map(\.type.description) == ["Episode", "Int!", "[ID!]"])
        #expect(query.variables[1].description == "how many")
        #expect(query.variables[1].directives.map(\.name.value) == ["deprecated"])
        guard case .enumValue("JEDI") = query.variables[0].defaultValue?.kind else {
            Issue.record("the default value is \(String(describing: query.variables[0].defaultValue))")
            return
        }
        #expect(query.directives.map(\.name.value) == ["live"])
        guard case .field(let hero) = query.selections.first, case .field(let best) = hero.selections.last else {
            Issue.record("hero { … friends }")
            return
        }
        #expect(hero.selections.count == 3)
        #expect(best.alias?.value == "best")
        #expect(best.name.value == "friends")
        #expect(best.responseKey == "best")
        #expect(best.arguments.map(\.name.value) == ["first", "filter"])
        guard case .object(let fields) = best.arguments[1].value.kind else {
            Issue.record("filter is an object")
            return
        }
        #expect(fields.map(\.name.value) == ["names", "on", "nothing", "n"])
        guard case .list(let names) = fields[0].value.kind, case .string("b", block: true) = names[1].kind,
            case .float("-1.5e2") = fields[3].value.kind
        else {
            Issue.record("the literals of filter")
            return
        }
        #expect(names.count == 2)
        guard case .fragmentSpread(let spread) = best.selections[0],
            case .inlineFragment(let droid) = best.selections[1],
            case .inlineFragment(let untyped) = best.selections[2]
        else {
            Issue.record("a spread and two inline fragments")
            return
        }
        #expect(spread.name.value == "FriendFields")
        #expect(spread.directives.map(\.name.value) == ["include"])
        #expect(droid.typeCondition?.value == "Droid")
        #expect(untyped.typeCondition == nil)
        #expect(untyped.directives.map(\.name.value) == ["skip"])
        let fragment = try #require(document.fragments.first)
        #expect(fragment.name.value == "FriendFields")
        #expect(fragment.typeCondition.value == "Character")
        #expect(document.source.location(of: fragment.offset) == GraphQLLocation(line: 14, column: 1))
    }

    @Test func theTypeSystemReadsEveryDefinitionAndExtension() throws {
        let document = try Self.parse(
            #"""
            "The schema." schema @a { query: Q mutation: M }
            extend schema @b
            extend schema { subscription: S }
            """
            A scalar.
            """
            scalar DateTime @specifiedBy(url: "https://example.com")
            type Q implements & A & B @c { "a field" f("an arg" a: Int = 1 @deprecated(reason: "no")): [String!]! @d }
            interface A implements B { f(a: Int): [String!]! }
            union U @e = | Q | M
            enum E { "one" ONE @deprecated TWO }
            input I @oneOf { a: Int, b: [I] = [] }
            directive @d("where" at: String) repeatable on | FIELD_DEFINITION | OBJECT
            extend scalar DateTime @f
            extend type Q implements C
            extend interface A @g
            extend union U = N
            extend enum E { THREE }
            extend input I { c: String }
            """#)
        #expect(document.definitions.count == 16)
        guard case .schema(let schema) = document.definitions[0] else {
            Issue.record("a schema definition first")
            return
        }
        #expect(schema.description == "The schema.")
        #expect(schema.operationTypes.map { "\($0.kind.rawValue):\($0.type.value)" } == ["query:Q", "mutation:M"])
        let types = document.definitions.compactMap { if case .type(let type) = $0 { type } else { nil } }
        #expect(types.map(\.name.value) == ["DateTime", "Q", "A", "U", "E", "I", "DateTime", "Q", "A", "U", "E", "I"])
        #expect(
            types.map(\.isExtension) == [false, false, false, false, false, false, true, true, true, true, true, true])
        #expect(types[0].description == "A scalar.")
        #expect(types[1].interfaces.map(\.value) == ["A", "B"])
        #expect(types[1].fields.first?.arguments.first?.description == "an arg")
        #expect(types[3].members.map(\.value) == ["Q", "M"])
        #expect(types[4].values.map(\.name.value) == ["ONE", "TWO"])
        #expect(types[5].inputFields.map(\.type.description) == ["Int", "[I]"])
        guard case .directive(let directive) = document.definitions[9] else {
            Issue.record("a directive definition")
            return
        }
        #expect(directive.isRepeatable)
        #expect(directive.locations.map(\.value) == ["FIELD_DEFINITION", "OBJECT"])
    }

    @Test func mistakesSayWhereAndWhat() {
        #expect(Self.failure("") == "1:1 Syntax Error: Unexpected <EOF>.")
        #expect(Self.failure("{") == "1:2 Syntax Error: Expected Name, found <EOF>.")
        #expect(Self.failure("{ }") == "1:3 Syntax Error: Expected Name, found \"}\".")
        #expect(Self.failure("query { a(b: $c, d) }") == "1:19 Syntax Error: Expected \":\", found \")\".")
        #expect(Self.failure("notAnOperation { a }") == "1:1 Syntax Error: Unexpected Name \"notAnOperation\".")
        #expect(Self.failure("fragment on on T { a }") == "1:10 Syntax Error: Unexpected Name \"on\".")
        #expect(Self.failure("fragment F T { a }") == "1:12 Syntax Error: Expected \"on\", found Name \"T\".")
        #expect(Self.failure("query ($a: Int = $b) { a }").hasPrefix("1:18 Syntax Error: Unexpected variable here"))
        #expect(Self.failure("\"described\" { a }") == "1:13 Syntax Error: Unexpected \"{\".")
        #expect(Self.failure("\"described\" extend type T @a") == "1:13 Syntax Error: Unexpected Name \"extend\".")
        #expect(Self.failure("extend type T") == "1:14 Syntax Error: Unexpected <EOF>.")
        #expect(
            Self.failure("enum E { true }")
                == "1:10 Syntax Error: Name \"true\" is reserved and cannot be used for an enum value.")
        #expect(Self.failure("directive @d on NOWHERE").hasPrefix("1:17 Syntax Error: Unexpected Name \"NOWHERE\""))
        #expect(Self.failure("schema { query: Q, other: O }").hasPrefix("1:20 Syntax Error: Expected \"query\""))
        #expect(Self.failure("type T { f: [Int }") == "1:18 Syntax Error: Expected \"]\", found \"}\".")
        #expect(Self.failure("{ a } b") == "1:7 Syntax Error: Unexpected Name \"b\".")
    }

    /// A document nested `depth` levels deep by `open` and `close`, around `core`.
    static func nested(_ depth: Int, _ open: String, _ core: String, _ close: String) -> String {
        String(repeating: open, count: depth) + core + String(repeating: close, count: depth)
    }

    @Test func nestingIsBoundedAndTheBoundFitsTheSmallestStack() async throws {
        let limit = GraphQLParser.maximumDepth
        // Selection sets, list values, object values and list types, at the limit and past it.
        let documents: [(Int) -> String] = [
            { "query " + Self.nested($0, "{ a ", "", "}") },
            { "{ a(b: " + Self.nested($0 - 1, "[", "1", "]") + ") }" },
            { "{ a(b: " + Self.nested($0 - 1, "{c: ", "1", "}") + ") }" },
            { "query ($v: " + Self.nested($0, "[", "Int", "]") + ") { a }" },
        ]
        for document in documents {
            let (atLimit, pastLimit) = (document(limit), document(limit + 1))
            let outcomes = try await onThread {
                (Self.failure(atLimit), Self.failure(pastLimit))
            }
            #expect(outcomes.0 == "no error")
            #expect(outcomes.1.contains("The document nests deeper than \(limit) levels"))
        }
        // Far past it: refused at the limit, never read further.
        let hostile = try await onThread { Self.failure(String(repeating: "{ a ", count: 100_000)) }
        #expect(hostile.contains("nests deeper"))
    }
}
