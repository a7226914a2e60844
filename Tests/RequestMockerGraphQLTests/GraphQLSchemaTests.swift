import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLSchemaTests {
    static let starWars = #"""
        "The Star Wars schema, as the specification's examples use it."
        schema { query: Root mutation: Changes }

        type Root {
          hero(episode: Episode): Character
          human(id: ID!): Human
          search(text: String!): [SearchResult!]!
        }
        type Changes { like(id: ID!): Character }

        enum Episode { NEWHOPE EMPIRE JEDI @deprecated(reason: "Use RETURN.") RETURN }

        interface Node { id: ID! }
        interface Character implements Node {
          id: ID!
          name: String
          friends(first: Int = 2): [Character]
        }
        type Human implements Node & Character {
          id: ID!
          name: String
          friends(first: Int = 2, after: String): [Character]
          height(unit: Unit = METER): Float @deprecated
        }
        type Droid implements Character & Node {
          id: ID!
          name: String
          friends(first: Int = 2): [Human!]
          primaryFunction: String
        }
        union SearchResult = Human | Droid
        enum Unit { METER FOOT }
        scalar DateTime @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")
        input ReviewInput @oneOf { stars: Int, commentary: String }
        directive @cached(seconds: Int!) repeatable on FIELD_DEFINITION | OBJECT
        extend type Droid @cached(seconds: 1) @cached(seconds: 2)
        """#

    static func problems(_ sdl: String) -> [String] {
        do {
            _ = try GraphQLSchema(sdl: GraphQLSource(sdl, name: "schema.graphql"))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func theStarWarsSchemaIsReadWhole() throws {
        let schema = try GraphQLSchema(sdl: Self.starWars)
        #expect(schema.description == "The Star Wars schema, as the specification's examples use it.")
        #expect(schema.queryType == "Root")
        #expect(schema.mutationType == "Changes")
        #expect(schema.subscriptionType == nil)
        #expect(
            schema.typeNames == [
                "Root", "ID", "String", "Changes", "Episode", "Node", "Character", "Int", "Human", "Float", "Droid",
                "SearchResult", "Unit", "DateTime", "ReviewInput", "Boolean", "__Schema", "__Type", "__TypeKind",
                "__Field",
                "__InputValue", "__EnumValue", "__Directive", "__DirectiveLocation",
            ])
        #expect(schema.possibleTypes["Character"] == ["Human", "Droid"])
        #expect(schema.possibleTypes["Node"] == ["Human", "Droid"])
        #expect(schema.possibleTypes["SearchResult"] == ["Human", "Droid"])
        #expect(schema.implementingInterfaces["Node"] == ["Character"])
        #expect(schema.types["Episode"]?.enumValue("JEDI")?.deprecationReason == "Use RETURN.")
        #expect(schema.types["Human"]?.field("height")?.deprecationReason == "No longer supported")
        #expect(schema.types["DateTime"]?.specifiedByURL == "https://scalars.graphql.org/andimarek/date-time")
        #expect(schema.types["ReviewInput"]?.isOneOf == true)
        #expect(schema.directiveNames == ["cached", "include", "skip", "deprecated", "specifiedBy", "oneOf"])
        #expect(schema.directives["cached"]?.isRepeatable == true)
        #expect(schema.types["Droid"]?.directives.count == 2)
        #expect(schema.isSubtype(.named("Human"), of: .named("Character")))
        #expect(schema.isSubtype(.nonNull(.list(.named("Human"))), of: .list(.named("Node"))))
        #expect(!schema.isSubtype(.named("Character"), of: .named("Human")))
    }

    @Test func rootTypesAreFoundByTheirDefaultNames() throws {
        let schema = try GraphQLSchema(
            sdl: "type Query { a: Int } type Subscription { b: Int } type Mutation { c: Int }")
        #expect(schema.queryType == "Query")
        #expect(schema.mutationType == "Mutation")
        #expect(schema.subscriptionType == "Subscription")
        // graphql-js's order (introspection lists types in it): each type followed by the built-in
        // scalars it is the first to use, then those the directives use (String and Boolean always).
        #expect(
            schema.typeNames.filter { !$0.hasPrefix("__") } == [
                "Query", "Int", "Subscription", "Mutation", "Boolean", "String",
            ])
    }

    @Test func extensionsAddToWhatTheyExtend() throws {
        let schema = try GraphQLSchema(
            sdl: """
                type Query { a: Int }
                extend type Query implements Named { name: String }
                interface Named { name: String }
                extend schema { mutation: Query }
                schema { query: Query }
                enum E { A }
                extend enum E { B }
                extend type Query { e: E }
                """)
        #expect(schema.types["Query"]?.fields.map(\.name) == ["a", "name", "e"])
        #expect(schema.types["Query"]?.interfaces == ["Named"])
        #expect(schema.types["E"]?.enumValues.map(\.name) == ["A", "B"])
        #expect(schema.mutationType == "Query")
    }

    @Test func eachRuleOfTheTypeSystemSaysWhereAndWhatToDo() {
        #expect(
            Self.problems("type Query { a: Foo }") == [
                "schema.graphql:1:17: Unknown type \"Foo\" (the type of Query.a): define it, or correct the name."
            ])
        #expect(
            Self.problems("type Query { a: Strin }") == [
                "schema.graphql:1:17: Unknown type \"Strin\" (the type of "
                    + "Query.a): define it, or correct the name. Did you mean \"String\"?"
            ])
        #expect(
            Self.problems("type Query { a: Int }\ntype Query { b: Int }") == [
                "schema.graphql:2:6: There can be only one type named \"Query\": rename or remove one."
            ])
        #expect(
            Self.problems("type Foo { a: Int }") == [
                "schema.graphql:1:1: Query root type must be provided: define "
                    + "`type Query { … }`, or name the query root in `schema { query: "
                    + "… }`."
            ])
        #expect(
            Self.problems("schema { query: In } input In { a: Int }") == [
                "schema.graphql:1:17: Query root type must be Object type, it cannot be In: name an object type."
            ])
        #expect(
            Self.problems("type Query { a(i: Query): In } input In { q: Query }") == [
                "schema.graphql:1:19: The type of Query.a(i:) must be Input "
                    + "Type but got: Query: an argument or input field takes a scalar, "
                    + "an enum or an input object.",
                "schema.graphql:1:27: The type of Query.a must be Output Type "
                    + "but got: In: a field answers a scalar, an object, an interface, "
                    + "a union or an enum, never an input object.",
                "schema.graphql:1:46: The type of In.q must be Input Type "
                    + "but got: Query: an argument or input field takes a scalar, "
                    + "an enum or an input object.",
            ])
        #expect(
            Self.problems("type Query implements I { b: Int } interface I { a: [Int] }") == [
                "schema.graphql:1:1: Interface field I.a expected but Query does not provide it: add the field."
            ])
        #expect(
            Self.problems("type Query implements I { a: [String] } interface I { a: [Int] }") == [
                "schema.graphql:1:27: Interface field I.a expects type [Int] "
                    + "but Query.a is type [String]: answer [Int] or a subtype of "
                    + "it."
            ])
        #expect(
            Self.problems("type Query implements I { a(x: Int!): Int } interface I { a: Int }") == [
                "schema.graphql:1:29: Argument \"Query.a(x:)\" must not be "
                    + "required type \"Int!\" if not provided by the Interface field "
                    + "\"I.a\": make it nullable or give it a default."
            ])
        #expect(
            Self.problems(
                "type Query implements J { a: Int } interface I { a: Int } interface J implements I { a: Int }") == [
                    "schema.graphql:1:1: Type Query must implement I because "
                        + "it is implemented by J: add it to `implements`."
                ])
        #expect(
            Self.problems("type Query { u: U } union U = Query | I interface I { a: Int }") == [
                "schema.graphql:1:21: Union type U can only include Object "
                    + "types, it cannot include I: list object types only."
            ])
        #expect(
            Self.problems("type Query { a(i: A): Int } input A { b: B! } input B { a: A! c: Int }") == [
                "schema.graphql:1:29: Cannot reference Input Object \"A\" "
                    + "within itself through a series of non-null fields: \"b.a\"; "
                    + "make one of them nullable or a list."
            ])
        #expect(
            Self.problems("type Query { a(i: O): Int } input O @oneOf { a: Int! b: Int = 1 }") == [
                "schema.graphql:1:46: OneOf input field O.a must be nullable: "
                    + "remove the `!` (@oneOf asks for one field).",
                "schema.graphql:1:54: OneOf input field O.b cannot have a "
                    + "default value: remove it (@oneOf asks for one field).",
            ])
        #expect(
            Self.problems("type Query { __a: Int, b(x: Int! @deprecated): Int }") == [
                "schema.graphql:1:14: Name \"__a\" must not begin with \"__\", "
                    + "which is reserved by GraphQL introspection: rename the field "
                    + "\"__a\".",
                "schema.graphql:1:26: Required argument Query.b(x:) cannot "
                    + "be deprecated: make it nullable or give it a default first.",
            ])
        #expect(
            Self.problems("type Query { a: Int @deprecated @deprecated @unknown @skip(if: true) }") == [
                "schema.graphql:1:33: The directive \"@deprecated\" can only "
                    + "be used once at this location (on Query.a): remove one, or "
                    + "define it `repeatable`.",
                "schema.graphql:1:45: Unknown directive \"@unknown\" (on Query.a): "
                    + "define it with `directive @unknown on FIELD_DEFINITION`, "
                    + "or correct the name.",
                "schema.graphql:1:54: Directive \"@skip\" may not be used "
                    + "on FIELD_DEFINITION (on Query.a): it is allowed on FIELD, "
                    + "FRAGMENT_SPREAD, INLINE_FRAGMENT.",
            ])
        #expect(
            Self.problems("type Query { a: Int } extend type Nope @x extend union Query = Query") == [
                "schema.graphql:1:35: Cannot extend type \"Nope\" because "
                    + "it is not defined: define it, or correct the name.",
                "schema.graphql:1:56: Cannot extend non-union type \"Query\": "
                    + "it is defined as type; extend it with `extend type Query`.",
            ])
        #expect(
            Self.problems("type Query { a: Int, a: String } enum E { A A } directive @d on FIELD directive @d on FIELD")
                == [
                    "schema.graphql:1:22: Field \"Query.a\" can only be defined once: remove one.",
                    "schema.graphql:1:45: Enum value \"E.A\" can only be defined once: remove one.",
                    "schema.graphql:1:82: There can be only one directive named \"@d\": rename or remove one.",
                ])
        #expect(
            Self.problems("type Query { a: Int } scalar S @specifiedBy") == [
                "schema.graphql:1:32: Directive \"@specifiedBy\" argument "
                    + "\"url\" of type \"String!\" is required, but it was not provided: "
                    + "add `url: …`."
            ])
    }

    @Test func theSDLWePrintReadsBackAsTheSameSchema() throws {
        let schema = try GraphQLSchema(sdl: Self.starWars)
        let printed = schema.sdl
        #expect(try GraphQLSchema(sdl: printed).sdl == printed)
        #expect(
            printed.hasPrefix(
                "\"\"\"\nThe Star Wars schema, as the specification's examples "
                    + "use it.\n\"\"\"\nschema {\n  query: Root\n"
            ))
        #expect(printed.contains("directive @cached(seconds: Int!) repeatable on FIELD_DEFINITION | OBJECT"))
        #expect(printed.contains("type Droid implements Character & Node @cached(seconds: 1) @cached(seconds: 2) {"))
        #expect(printed.contains("  JEDI @deprecated(reason: \"Use RETURN.\")\n"))
        #expect(printed.contains("  height(unit: Unit = METER): Float @deprecated\n"))
        #expect(
            printed.contains("scalar DateTime @specifiedBy(url: \"https://scalars.graphql.org/andimarek/date-time\")"))
        #expect(printed.contains("input ReviewInput @oneOf {\n  stars: Int\n  commentary: String\n}"))
        #expect(!printed.contains("scalar String"))
        // Descriptions a block string would change are written as strings.
        let described = try GraphQLSchema(
            sdl: #"""
                type Query {
                  "  leading" a: Int
                  """
                  two
                    lines, "quoted" and \"""escaped\"""
                  """
                  b(
                    "\ttab" x: String = "a\"b"
                  ): Int
                }
                """#)
        #expect(described.types["Query"]?.field("b")?.description == "two\n  lines, \"quoted\" and \"\"\"escaped\"\"\"")
        let again = try GraphQLSchema(sdl: described.sdl)
        #expect(again.types["Query"]?.field("a")?.description == "  leading")
        #expect(again.types["Query"]?.field("b")?.description == described.types["Query"]?.field("b")?.description)
        #expect(again.types["Query"]?.field("b")?.argument("x")?.description == "\ttab")
        #expect(again.sdl == described.sdl)
    }

    static func introspectionProblems(_ json: String) -> [String] {
        do {
            _ = try GraphQLSchema(introspection: GraphQLSource(json, name: "schema.json"))
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    /// `schema.json:line:column` of the first `needle` in `text`, plus `shift` bytes.
    static func place(of needle: String, in text: String, shift: Int = 0) -> String {
        guard let range = text.range(of: needle) else { return "nowhere" }
        let offset = text.utf8.distance(from: text.startIndex, to: range.lowerBound) + shift
        return "schema.json:\(GraphQLSource(text).location(of: offset))"
    }

    @Test func anIntrospectionMistakeSaysWhereInTheJSON() {
        #expect(
            Self.introspectionProblems("{\"data\": ") == [
                "schema.json:1:10: The introspection result isn't JSON: unexpected end of the file; expected a value."
            ])
        #expect(
            Self.introspectionProblems(#"{"data": {"user": 1}}"#) == [
                "schema.json:1:1: This JSON isn't an introspection result: "
                    + "it has neither `data.__schema` nor `__schema`; save what "
                    + "the introspection query answers, or give the schema's SDL."
            ])
        let schema = #"""
            {"__schema": {"queryType": {"name": "Query"}, "types": [
              {"kind": "OBJECT", "name": "Query", "fields": [
                {"name": "a", "args": [], "type": {"kind": "NON_NULL", "ofType": {"kind": "LIST", "ofType": null}}},
                {"name": "b", "args": [{"name": "x", "type": {"kind": "SCALAR", "name": "Int"}, "defaultValue": "{"}],
                 "type": {"kind": "SCALAR", "name": "Int"}}]},
              {"kind": "THING", "name": "Odd"}
            ]}}
            """#
        #expect(
            Self.introspectionProblems(schema) == [
                Self.place(of: "null}}}", in: schema)
                    + ": A type reference ends without a named type: give `name`, or `ofType` under NON_NULL and LIST.",
                Self.place(of: "\"{\"}", in: schema)
                    + ": The default value of \"x\" isn't a GraphQL value: Syntax "
                    + "Error: Expected Name, found <EOF>. It reads: {",
                Self.place(of: "\"THING\"", in: schema)
                    + ": The type \"Odd\" has no kind a named type has: it is "
                    + "THING; a type's kind is one of ENUM, INPUT_OBJECT, INTERFACE, "
                    + "OBJECT, SCALAR, UNION.",
            ])
        let missing =
            #"{"__schema": {"queryType": {"name": "Query"}, "types": [{"kind": "#
            + #""OBJECT", "name": "Query", "fields": [{"name": "b", "args": "#
            + #"[], "type": {"kind": "OBJECT", "name": "Missing"}}]}]}}"#
        #expect(
            Self.introspectionProblems(missing) == [
                Self.place(of: "{\"kind\": \"OBJECT\", \"name\": \"Missing\"", in: missing)
                    + ": Unknown type \"Missing\" (the type of Query.b): define it, or correct the name."
            ])
    }

    @Test func aSyntaxErrorIsAProblemToo() {
        #expect(Self.problems("type Query {") == ["schema.graphql:1:13: Syntax Error: Expected Name, found <EOF>."])
    }
}
