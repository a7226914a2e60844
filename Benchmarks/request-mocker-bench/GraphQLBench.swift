import Foundation
import RequestMocker
import RequestMockerGraphQL
import RequestMockerOpenAPI

// `--graphql-only` (also run, in a process of its own, at the end of the full table): reading a
// large schema and answering an operation, each against graphql-core (Python) in the same run,
// and a GraphQL answer through URLSession against an OpenAPI contract's generated answer.

/// A schema of about 550 types and 370 KB of SDL, the size of GitHub's public one (which isn't
/// kept beside the package): object types with descriptions, arguments, lists and references
/// to each other, enums, input objects and an interface.
func syntheticGraphQLSchema(objects: Int = 500) -> String {
    var sdl = "\"\"\"The root of every query.\"\"\"\ntype Query {\n  node(id: ID!): Node\n"
    for index in 0..<objects {
        sdl += "  thing\(index)(id: ID!, first: Int = 10, filter: Filter\(index % 20)): Thing\(index)\n"
    }
    sdl += "}\n\ninterface Node { id: ID! }\n\n"
    for index in 0..<objects {
        let next = (index + 1) % objects
        sdl += """
            \"\"\"Thing number \(index), with a description long enough to be like a real one's.\"\"\"
            type Thing\(index) implements Node {
              id: ID!
              "The name shown to people."
              name: String!
              count: Int
              ratio: Float
              enabled: Boolean!
              kind: Kind\(index % 30)
              createdAt: String
              tags(first: Int = 5): [String!]!
              next: Thing\(next)
              related(first: Int, after: String): [Thing\(next)!]!
              owner: Thing\((index + 7) % objects) @deprecated(reason: "Use next.")
              "When it last changed, as an ISO 8601 date and time."
              updatedAt: String
              "Where it can be seen on the web."
              url(absolute: Boolean = true): String!
              "How many people follow it."
              followerCount(since: String, until: String): Int!
              "What people wrote about it, newest first."
              comments(first: Int = 10, after: String, orderBy: Kind\(index % 30)): [String!]!
            }


            """
    }
    for index in 0..<30 { sdl += "enum Kind\(index) { FIRST SECOND THIRD FOURTH }\n" }
    for index in 0..<20 { sdl += "input Filter\(index) { text: String, limit: Int = 10, kinds: [Kind\(index)!] }\n" }
    return sdl
}

/// The schema and operation of the answering rows: 41 fields once the fragments are spread.
let benchGraphQLSchema = """
    type Query { viewer: User! }
    type User {
      id: ID!, login: String!, name: String, email: String, bio: String, company: String, location: String,
      createdAt: String!, avatarUrl: String!, followers: Int!
      repositories(first: Int): [Repository!]!
    }
    type Repository {
      id: ID!, name: String!, description: String, stars: Int!, forks: Int!, language: String,
      createdAt: String!, updatedAt: String!, isPrivate: Boolean!, url: String!
      owner: User!
      issues(first: Int): [Issue!]!
    }
    type Issue { id: ID!, number: Int!, title: String!, state: String!, author: String, comments: Int!, url: String! }
    """

let benchGraphQLOperation = """
    query Bench($first: Int = 5) {
      viewer {
        ...UserFields
        repositories(first: $first) { ...RepoFields owner { ...UserFields } issues(first: 3) { ...IssueFields } }
      }
    }
    fragment UserFields on User { id login name email bio company location createdAt avatarUrl followers }
    fragment RepoFields on Repository { id name description stars forks language createdAt updatedAt isPrivate url }
    fragment IssueFields on Issue { id number title state author comments url }
    """

/// What graphql-core measures, in Python: `build_schema` of a file, best of 5 (in ms); or
/// `graphql_sync` (parse, validate, execute against resolvers that make a value per type) of
/// an operation, best of 5 rounds of 200 (in µs per operation). `nil` without Python or
/// graphql-core.
func graphQLCoreTime(_ command: String, schema: URL, operation: String = "") -> Double? {
    let script = #"""
        import sys, time
        from graphql import build_schema, graphql_sync, get_named_type, is_list_type, is_non_null_type
        text = open(sys.argv[2]).read()
        if sys.argv[1] == "build":
            times = []
            for _ in range(5):
                start = time.perf_counter()
                build_schema(text)
                times.append(time.perf_counter() - start)
            print(min(times) * 1000)
        else:
            schema = build_schema(text)
            values = {"ID": "id-1", "String": "text", "Int": 7, "Float": 0.5, "Boolean": True}
            def resolve(source, info, **arguments):
                kind = info.return_type
                if is_non_null_type(kind):
                    kind = kind.of_type
                if is_list_type(kind):
                    return [{} for _ in range(arguments.get("first") or 2)]
                return values.get(get_named_type(kind).name, {})
            rounds = []
            for _ in range(5):
                start = time.perf_counter()
                for _ in range(200):
                    result = graphql_sync(schema, sys.argv[3], field_resolver=resolve)
                    assert not result.errors, result.errors
                rounds.append((time.perf_counter() - start) / 200)
            print(min(rounds) * 1e6)
        """#
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, command, schema.path, operation]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// `--profile graphql --requests N`: the 41-field operation parsed, validated and answered N
/// times, for a profiler; then the process ends.
func profileGraphQLIfAsked() throws {
    guard let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count,
        CommandLine.arguments[index + 1] == "graphql"
    else { return }
    try profileGraphQLAnswers(option("--requests", default: 2_000))
    exit(0)
}

/// The 41-field operation parsed, validated and answered `count` times.
func profileGraphQLAnswers(_ count: Int) throws {
    let schema = try GraphQLSchema(sdl: benchGraphQLSchema)
    for _ in 0..<count {
        let prepared = try GraphQLPreparedOperation(query: benchGraphQLOperation, in: schema)
        precondition(!prepared.answer(in: schema).result.serialized().isEmpty)
    }
}

func printGraphQLRows() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-graphql-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clock = ContinuousClock()
    let github = sharedContracts.deletingLastPathComponent().appendingPathComponent("graphql/github.graphql")
    if !FileManager.default.fileExists(atPath: github.path) {
        print("GitHub's schema: skipped (\(github.path) is not there); a schema of its size instead:")
    }
    let sdl =
        FileManager.default.fileExists(atPath: github.path)
        ? try String(contentsOf: github, encoding: .utf8) : syntheticGraphQLSchema()
    let schemaFile = folder.appendingPathComponent("schema.graphql")
    try Data(sdl.utf8).write(to: schemaFile)
    var reads: [Duration] = []
    var typeCount = 0
    for _ in 0..<5 {
        let start = clock.now
        let schema = try GraphQLSchema(sdl: sdl)
        reads.append(clock.now - start)
        typeCount = schema.typeNames.count
    }
    let read = seconds(reads.min() ?? .zero) * 1000
    if let theirs = graphQLCoreTime("build", schema: schemaFile) {
        print(
            String(
                format: "read a schema of %d types (%.0f KB of SDL): %.1f ms, %.3f× graphql-core's build_schema "
                    + "(%.0f ms) %@", typeCount, Double(sdl.utf8.count) / 1000, read, read / theirs, theirs,
                read / theirs <= 0.1 ? "ok (budget ≤ 0.1×)" : "OVER BUDGET (≤ 0.1×)"))
    } else {
        print(
            String(format: "read a schema of %d types: %.1f ms (graphql-core missing: no comparison)", typeCount, read))
    }

    // Parse, validate and answer the 41-field operation, against graphql-core's graphql_sync.
    let benchSchema = try GraphQLSchema(sdl: benchGraphQLSchema)
    let benchFile = folder.appendingPathComponent("bench.graphql")
    try Data(benchGraphQLSchema.utf8).write(to: benchFile)
    var rounds: [Duration] = []
    var bytes = 0
    for _ in 0..<5 {
        let start = clock.now
        for _ in 0..<200 {
            let prepared = try GraphQLPreparedOperation(query: benchGraphQLOperation, in: benchSchema)
            bytes = prepared.answer(in: benchSchema).result.serialized().count
        }
        rounds.append((clock.now - start) / 200)
    }
    let ours = seconds(rounds.min() ?? .zero) * 1e6
    if let theirs = graphQLCoreTime("execute", schema: benchFile, operation: benchGraphQLOperation) {
        print(
            String(
                format: "parse, validate and answer a 41-field operation with fragments (%d bytes): %.0f µs, "
                    + "%.1f× faster than graphql-core's graphql_sync with resolvers (%.0f µs) %@", bytes, ours,
                theirs / ours, theirs, theirs / ours >= 10 ? "ok (budget ≥ 10×)" : "UNDER BUDGET (≥ 10×)"))
    } else {
        print(String(format: "answer a 41-field operation: %.0f µs (graphql-core missing: no comparison)", ours))
    }
    try await printGraphQLSessionRow(folder: folder)
}

/// Through URLSession: the GraphQL answer against an OpenAPI contract's generated answer of
/// about the same size, the median of 7 interleaved rounds of 500 requests each. Budget ≤ 1.5×.
func printGraphQLSessionRow(folder: URL) async throws {
    let graphQL = MockRegistry()
    graphQL.journalCapacity = 100
    try graphQL.register(try GraphQLSchema(sdl: benchGraphQLSchema), at: "https://bench.test/graphql")
    var post = URLRequest(url: URL(string: "https://bench.test/graphql")!)
    post.httpMethod = "POST"
    post.setValue("application/json", forHTTPHeaderField: "Content-Type")
    let body: JSONValue = ["query": .string(benchGraphQLOperation)]
    post.httpBody = try body.serialized()
    // The contract's answer: a user with 5 repositories, each with its owner and 3 issues, as the
    // operation's answer has them.
    let user =
        #"{"type": "object", "required": ["id", "login", "name", "email", "bio", "company", "location", "#
        + #""createdAt", "avatarUrl", "followers"], "properties": {"id": {"type": "string"}, "#
        + #""login": {"type": "string"}, "#
        + #""name": {"type": "string"}, "email": {"type": "string", "format": "email"}, "bio": {"type": "string"}, "#
        + #""company": {"type": "string"}, "location": {"type": "string"}, "createdAt": {"type": "string", "#
        + #""format": "date-time"}, "avatarUrl": {"type": "string", "format": "uri"}, "#
        + #""followers": {"type": "integer"}}}"#
    let issue =
        #"{"type": "object", "required": ["id", "number", "title", "state", "author", "comments", "url"], "#
        + #""properties": {"id": {"type": "string"}, "number": {"type": "integer"}, "title": {"type": "string"}, "#
        + #""state": {"type": "string"}, "author": {"type": "string"}, "comments": {"type": "integer"}, "#
        + #""url": {"type": "string", "format": "uri"}}}"#
    let repository =
        #"{"type": "object", "required": ["id", "name", "description", "stars", "forks", "language", "#
        + #""createdAt", "updatedAt", "isPrivate", "url", "owner", "issues"], "properties": {"#
        + #""id": {"type": "string"}, "#
        + #""name": {"type": "string"}, "description": {"type": "string"}, "stars": {"type": "integer"}, "#
        + #""forks": {"type": "integer"}, "language": {"type": "string"}, "createdAt": {"type": "string", "#
        + #""format": "date-time"}, "updatedAt": {"type": "string", "format": "date-time"}, "#
        + #""isPrivate": {"type": "boolean"}, "url": {"type": "string", "format": "uri"}, "owner": \#(user), "#
        + #""issues": {"type": "array", "minItems": 3, "maxItems": 3, "items": \#(issue)}}}"#
    let viewer =
        #"{"allOf": [\#(user), {"type": "object", "required": ["repositories"], "properties": {"#
        + #""repositories": {"type": "array", "minItems": 5, "maxItems": 5, "items": \#(repository)}}}]}"#
    let contractText =
        #"{"openapi": "3.1.0", "info": {"title": "Bench", "version": "1"}, "paths": {"/viewer": {"#
        + #""get": {"operationId": "viewer", "responses": {"200": {"description": "The viewer", "content": {"#
        + #""application/json": {"schema": \#(viewer)}}}}}}}}"#
    let contractFile = folder.appendingPathComponent("bench.json")
    try Data(contractText.utf8).write(to: contractFile)
    let openAPI = MockRegistry()
    openAPI.journalCapacity = 100
    openAPI.register(try OpenAPIContract(contentsOf: contractFile))
    let get = URLRequest(url: URL(string: "https://bench.test/viewer")!)
    let sessions = [graphQL.makeSession(), openAPI.makeSession()]
    let requests = [post, get]
    let clock = ContinuousClock()
    var latencies: [[Duration]] = [[], []]
    var sizes = [0, 0]
    for _ in 0..<7 {
        for index in 0..<2 {
            for _ in 0..<500 {
                let start = clock.now
                let (data, response) = try await sessions[index].data(for: requests[index])
                latencies[index].append(clock.now - start)
                precondition(
                    (response as? HTTPURLResponse)?.statusCode == 200, "a benchmark request was not answered 200")
                sizes[index] = data.count
            }
        }
    }
    for session in sessions { session.invalidateAndCancel() }
    func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
    let (ours, contract) = (median(latencies[0]), median(latencies[1]))
    let ratio = seconds(ours) / seconds(contract)
    print(
        String(
            format: "a GraphQL answer (%d bytes) through URLSession vs an OpenAPI contract's generated answer (%d "
                + "bytes): %.2f× (%.0f µs vs %.0f µs) %@", sizes[0], sizes[1], ratio, seconds(ours) * 1e6,
            seconds(contract) * 1e6, ratio <= 1.5 ? "ok (budget ≤ 1.5×)" : "OVER BUDGET (≤ 1.5×)"))
}
