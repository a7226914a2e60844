import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("PathPattern", .timeLimit(.minutes(3)), .hangGuard)
struct PathPatternTests {
    // The wildcard examples of ANSRequestMocker's README, exactly as written there.
    @Test(
        "ANS wildcard examples",
        arguments: [
            ("*", "/anything/at/all", true),
            ("*", "/", true),
            ("/some/path/*", "/some/path/resource", true),
            ("/some/path/*", "/some/path/to/resource", false),
            ("/*/path", "/some/path", true),
            ("/*/path", "/some/path/to/resouce", false),
            ("/*/path/*", "/some/path/resouce", true),
            ("/*/path/*", "/some/path", false),
        ])
    func ansWildcards(pattern: String, path: String, matches: Bool) {
        #expect((PathPattern(pattern).match(path) != nil) == matches)
    }

    @Test("ANS variable examples capture per request", arguments: ["<userId>", "{userId}", "${userId}"])
    func ansVariables(spelling: String) throws {
        let single = PathPattern("/user/\(spelling)")
        #expect(single.match("/user/12345")?.dictionary == ["userId": "12345"])

        let operation = spelling.replacingOccurrences(of: "userId", with: "operation")
        let double = PathPattern("/user/\(spelling)/\(operation)")
        #expect(double.match("/user/12345/delete")?.dictionary == ["userId": "12345", "operation": "delete"])
        #expect(double.match("/user/12345") == nil)
    }

    /// ANSRequestMocker's README says `/user/{userId}/delete` matches `/user/12345` with
    /// `userId = 12345`. Its code never did (3 segments against 2), and neither do we.
    @Test("the ANS README's /user/{userId}/delete example is a documentation bug")
    func ansDocumentationBug() {
        let pattern = PathPattern("/user/{userId}/delete")
        #expect(pattern.match("/user/12345") == nil)
        #expect(pattern.match("/user/12345/delete")?.dictionary == ["userId": "12345"])
    }

    @Test("** matches zero or more segments")
    func anyDepth() {
        let pattern = PathPattern("/files/**/<name>")
        #expect(pattern.match("/files/a.txt")?["name"] == "a.txt")
        #expect(pattern.match("/files/x/y/z/a.txt")?["name"] == "a.txt")
        #expect(pattern.match("/other/a.txt") == nil)
        #expect(PathPattern("**").match("/") != nil)
        #expect(PathPattern("/api/**").match("/api") != nil)
        #expect(PathPattern("/api/**").match("/api/v1/users") != nil)
        #expect(PathPattern("/api/**").match("/apiv1") == nil)
    }

    @Test("several ** take as few segments as they can, and captures come from that match")
    func severalAnyDepths() {
        let pattern = PathPattern("/a/**/<id>/**/z")
        #expect(pattern.match("/a/b/c/d/z")?.dictionary == ["id": "b"])
        #expect(pattern.match("/a/z/z")?.dictionary == ["id": "z"])
        #expect(pattern.match("/a/z") == nil)
        #expect(PathPattern("/**/<x>/<y>").match("/1/2/3/4")?.dictionary == ["x": "3", "y": "4"])
        #expect(PathPattern("/**/b/**/d").match("/b/b/d/d") != nil)
        #expect(PathPattern("/**/b/**/e").match("/b/b/d/d") == nil)
    }

    @Test("** against a long path is matched without backtracking blow-up or recursion")
    func anyDepthsAgainstALongPath() async throws {
        let long = "/" + Array(repeating: "s", count: 1_000).joined(separator: "/")
        // Before: 19 s for this one match (each ** tried every split of the path).
        let miss = try await withDeadline(60) { PathPattern("/**/**/**/x").match(long) }
        #expect(miss == nil)
        let hit = try await withDeadline(60) { PathPattern("/**/**/**/s").match(long) }
        #expect(hit != nil)
        // Before: accepted, then a match overflowed the stack.
        let stars = "/" + Array(repeating: "**", count: 40_000).joined(separator: "/")
        #expect(throws: PathPatternError.self) { try PathPattern(validating: stars) }
        #expect(PathPattern(stars).match("/x") == nil)
        let widest = "/" + Array(repeating: "**", count: PathPattern.maximumSegments).joined(separator: "/") + "/x"
        let error = #expect(throws: PathPatternError.self) { try PathPattern(validating: widest) }
        #expect(error?.reason == "the pattern has more than 256 segments; use ** for any depth")
        #expect(error?.column == 1 + 3 * PathPattern.maximumSegments + 1)
        #expect(try PathPattern(validating: String(widest.dropLast(2))).match(long) != nil)
    }

    @Test("leading and trailing slashes are ignored; an empty path is /")
    func slashes() {
        #expect(PathPattern("user/x").match("/user/x") != nil)
        #expect(PathPattern("/user/x/").match("/user/x") != nil)
        #expect(PathPattern("/user/x").match("/user/x/") != nil)
        #expect(PathPattern("/").match("") != nil)
        #expect(PathPattern("").match("/") != nil)
        #expect(PathPattern("/a/*").match("/a/") == nil)
    }

    @Test("literals are case-sensitive; segments are percent-decoded after splitting")
    func decoding() {
        #expect(PathPattern("/A").match("/a") == nil)
        #expect(PathPattern("/files/a b").match("/files/a%20b") != nil)
        #expect(PathPattern("/files/a%20b").match("/files/a%20b") != nil)
        // An encoded slash stays inside its segment.
        #expect(PathPattern("/files/<name>").match("/files/a%2Fb")?["name"] == "a/b")
        #expect(PathPattern("/files/<name>").match("/files/a/b") == nil)
    }

    @Test(
        "invalid patterns quote the pattern and the column",
        arguments: [
            ("/users/<id", 8, "unbalanced \"<\""),
            ("/users/<>", 9, "empty variable name"),
            ("/users/{id}/{id}", 13, "appears twice"),
            ("/users/id-<x>", 11, "a variable must be a whole segment"),
            ("/users/<id>x", 12, "text after \">\""),
            ("/users/${id", 9, "unbalanced \"{\""),
            ("/users/a*b", 9, "must be a whole segment"),
            ("/users/<i d>", 10, "in variable name"),
        ])
    func invalid(pattern: String, column: Int, reason: String) {
        #expect(throws: PathPatternError.self) { try PathPattern(validating: pattern) }
        let error = PathPattern(pattern).error
        #expect(error?.column == column)
        #expect(error?.reason.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("invalid path pattern \"\(pattern)\" at column \(column): ") == true)
        #expect(PathPattern(pattern).match("/users/1") == nil)
    }

    @Test("variable names are listed in order")
    func variableNames() throws {
        #expect(try PathPattern(validating: "/a/<x>/*/{y}/${z}").variableNames == ["x", "y", "z"])
    }
}
