import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

@Suite(.timeLimit(.minutes(1)), .hangGuard) struct GraphQLLexerTests {
    /// Every token of `text`, up to the end.
    static func tokens(_ text: String) throws -> [GraphQLToken] {
        var lexer = GraphQLLexer(Array(text.utf8))
        var tokens: [GraphQLToken] = []
        while true {
            let token = try lexer.next()
            if token.kind == .end { return tokens }
            tokens.append(token)
        }
    }

    /// The message and the place of the error lexing `text` gives.
    static func failure(_ text: String) -> String {
        do {
            _ = try tokens(text)
            return "no error"
        } catch let error as GraphQLSyntaxError {
            return "\(GraphQLSource(text).location(of: error.offset)) \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func punctuatorsNamesAndNumbers() throws {
        let tokens = try Self.tokens(
            "{ hero(id: -12, r: 1.5e3, f: 0.25, g: 0, h: -0.0E-2) @x ... on $a [ ] ! = | & : }")
        #expect(
            tokens.map(\.kind) == [
                .braceLeft, .name, .parenLeft, .name, .colon, .int, .name, .colon, .float, .name, .colon, .float,
                .name, .colon, .int, .name, .colon, .float, .parenRight, .at, .name, .spread, .name, .dollar, .name,
                .bracketLeft, .bracketRight, .bang, .equals, .pipe, .ampersand, .colon, .braceRight,
            ])
        #expect(
            tokens.filter { $0.kind == .int || $0.kind == .float }.map(\.value) == [
                "-12", "1.5e3", "0.25", "0", "-0.0E-2",
            ])
    }

    @Test func ignoredTokensAreSkipped() throws {
        let text = "\u{FEFF}# a comment, with commas\r\n,,\t query\r# another\n{ a }"
        #expect(try Self.tokens(text).map(\.value) == ["query", "", "a", ""])
        // CR LF, CR and LF each end one line.
        let source = GraphQLSource("a\r\nb\rc\nd")
        #expect(
            ["a", "b", "c", "d"].map { source.location(of: Array(source.bytes).firstIndex(of: $0.utf8.first!)!) } == [
                GraphQLLocation(line: 1, column: 1), GraphQLLocation(line: 2, column: 1),
                GraphQLLocation(line: 3, column: 1), GraphQLLocation(line: 4, column: 1),
            ])
    }

    @Test func columnsCountScalarsNotBytes() {
        #expect(Self.failure("\"é😀\" ?") == "1:6 Syntax Error: Unexpected character: \"?\".")
    }

    @Test func stringsReadTheirEscapes() throws {
        let text = #""quote \" slash \\ \/ \b\f\n\r\t é \u00E9 \u{1F600} \uD83D\uDE00 \u{0}""#
        #expect(try Self.tokens(text).map(\.value) == ["quote \" slash \\ / \u{8}\u{C}\n\r\t é é 😀 😀 \u{0}"])
        #expect(try Self.tokens(#""""#).map(\.value) == [""])
    }

    @Test func blockStringsAreDedentedAsTheSpecificationSays() throws {
        let text = "\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\""
        #expect(try Self.tokens(text).map(\.value) == ["Hello,\n  World!\n\nYours,\n  GraphQL."])
        // The first line keeps its indentation; blank lines at either end go; \""" is the only escape.
        #expect(
            try Self.tokens("\"\"\"  first\n   second \\\"\"\" \\n\n\n \"\"\"").map(\.value) == [
                "  first\nsecond \"\"\" \\n"
            ])
        #expect(try Self.tokens("\"\"\"\r\n\t\r\n\"\"\"").map(\.value) == [""])
        #expect(try Self.tokens("\"\"\"a\"b\"\"c\"\"\"").map(\.value) == ["a\"b\"\"c"])
    }

    @Test func mistakesSayWhereAndWhat() {
        #expect(Self.failure("{ a ? }") == "1:5 Syntax Error: Unexpected character: \"?\".")
        #expect(
            Self.failure("\n  ..") == "2:3 Syntax Error: Unexpected character: \".\" (a spread is three dots: \"...\")."
        )
        #expect(Self.failure("00") == "1:2 Syntax Error: Invalid number, unexpected digit after 0: \"0\".")
        #expect(Self.failure("1.") == "1:3 Syntax Error: Invalid number, expected digit but got: <EOF>.")
        #expect(Self.failure("1.2.3") == "1:4 Syntax Error: Invalid number, expected digit but got: \".\".")
        #expect(Self.failure("123abc") == "1:4 Syntax Error: Invalid number, expected digit but got: \"a\".")
        #expect(Self.failure("1e+") == "1:4 Syntax Error: Invalid number, expected digit but got: <EOF>.")
        #expect(Self.failure("-x") == "1:2 Syntax Error: Invalid number, expected digit but got: \"x\".")
        #expect(Self.failure("\"abc") == "1:5 Syntax Error: Unterminated string: close it with \" on the same line.")
        #expect(Self.failure("\"a\nb\"") == "1:3 Syntax Error: Unterminated string: close it with \" on the same line.")
        #expect(
            Self.failure("\"\"\"abc") == "1:7 Syntax Error: Unterminated string: close the block string with \"\"\".")
        #expect(Self.failure(#""\x""#).hasPrefix(#"1:2 Syntax Error: Invalid character escape sequence: "\x""#))
        #expect(Self.failure(#""\u12""#).hasPrefix(#"1:2 Syntax Error: Invalid Unicode escape sequence: "\u12""#))
        #expect(Self.failure(#""\uD83D""#).hasPrefix(#"1:2 Syntax Error: Invalid Unicode escape sequence"#))
        #expect(Self.failure(#""\uDE00""#).hasPrefix(#"1:2 Syntax Error: Invalid Unicode escape sequence"#))
        #expect(Self.failure(#""\u{110000}""#).hasPrefix(#"1:2 Syntax Error: Invalid Unicode escape sequence"#))
        #expect(Self.failure(#""\u{D800}""#).hasPrefix(#"1:2 Syntax Error: Invalid Unicode escape sequence"#))
        #expect(Self.failure("a\u{7}") == "1:2 Syntax Error: Unexpected character: U+0007.")
        #expect(Self.failure("a ü") == "1:3 Syntax Error: Unexpected character: \"ü\".")
    }

    @Test func bytesThatArentUTF8AreRefusedWhereTheyAre() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x23, 0xC3], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        ] {
            var lexer = GraphQLLexer(bytes)
            #expect(throws: GraphQLSyntaxError.self) {
                while try lexer.next().kind != .end {}
            }
        }
    }
}
