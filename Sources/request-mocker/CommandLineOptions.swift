import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer

/// The parsed command line of `request-mocker`.
struct CommandLineOptions: Equatable {
    enum Command: Equatable {
        case help
        case version
        case serve(ServeOptions)
        case name(NameOptions)
        case convert(ConvertOptions)
        case check(CheckOptions)
        case draft(DraftOptions)
    }

    /// `request-mocker draft [FOLDER...] [--cassette FILE]... [--base-path PATH] [--openapi EXISTING]
    /// -o FILE`.
    struct DraftOptions: Equatable {
        var folders: [String] = []
        var cassettes: [String] = []
        var basePath: String?
        /// `--openapi EXISTING`: the contract kept as it is, with what the traffic shows it lacks.
        var openapi: String?
        var output = ""
    }

    /// `request-mocker check --openapi FILE [FOLDER...] [--stubs FILE] [--cassette FILE]`.
    struct CheckOptions: Equatable {
        /// The contract: `--openapi FILE` or `--graphql SCHEMA`, exactly one.
        var openapi: String?
        var graphql: String?
        var folders: [String] = []
        var stubs: String?
        var cassette: String?
        var basePath: String?
        /// `--format text|json|sarif`: compiler-style lines, or the report as JSON or SARIF 2.1.0.
        var format = "text"
        /// `--coverage`: the operations and statuses (a schema's root fields) reached, and
        /// those never seen (text).
        var coverage = false
    }

    /// `request-mocker convert IN OUT [--host URL]`.
    struct ConvertOptions: Equatable {
        var input = ""
        var output = ""
        /// Where the requests of a mock-data folder are sent to, in the HAR it becomes.
        var host: URL?
    }

    struct ServeOptions: Equatable {
        /// Mock-data folders, in lookup order: the first that has a file answers.
        var folders: [String] = []
        var cassette: String?
        /// `--upstream URL`: where requests nothing else answers go.
        var upstream: URL?
        /// `--upstream-first`: every request goes to the upstream before the mocks, its exchange
        /// checked against `--openapi`; the mocks answer what the upstream lacks.
        var upstreamFirst = false
        /// `--record`: write what comes back from the upstream.
        var record = false
        /// `--record-mode once|new|all`: when `--record` records, and whether what it recorded
        /// answers (`new`, the default: what nothing answers is forwarded and recorded).
        var recordMode: RecordingMode?
        /// `--stubs FILE.json`: stubs tried before the folders, reloaded when the file changes.
        var stubs: String?
        /// `--admin`: the admin API under `/__admin/`.
        var admin = false
        /// `--admin-token TOKEN`: the bearer token admin calls must carry.
        var adminToken: String?
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        /// `--openapi FILE`: a contract answering what the sources before it don't.
        var openapi: String?
        var basePath: String?
        var validation = OpenAPIContract.Validation.strict
        var dynamic = false
        /// `--stateful`: the contract's collections remember what requests do.
        var stateful = false
        /// `--data FILE`: what the resources hold at start and after a reset, instead of the
        /// contract's examples.
        var data: String?
        /// `--state FILE`: where the resources are saved after each change, and loaded from at start.
        var state: String?
        var seed: UInt64?
        /// `--graphql SCHEMA`: a GraphQL schema answering at `graphqlPath`.
        var graphql: String?
        /// `--graphql-path PATH`: where the schema answers (`/graphql`).
        var graphqlPath = "/graphql"
        /// `--graphql-mocks FILE`: values the schema's answers take.
        var graphqlMocks: String?

        /// Whether any source was named; without one, the example folder is served.
        var namesASource: Bool {
            !folders.isEmpty || cassette != nil || upstream != nil || stubs != nil || admin || openapi != nil
                || graphql != nil
        }
    }

    /// `--record-mode`: the library's record modes, on the command line.
    enum RecordingMode: String, Equatable {
        /// Record only into a cassette or folder that is new (missing or empty); else only play back.
        case once
        /// Play back what was recorded, forward and record what wasn't (the default).
        case new
        /// Play nothing back: forward every request and record every exchange, repeats included
        /// (a cassette starts over; a folder's files are rewritten).
        case all
    }

    /// `request-mocker name METHOD URL …`: the request whose mock-data file names are printed.
    struct NameOptions: Equatable {
        var method = ""
        var url = ""
        /// `-d`: the body, or `@FILE` to read it from a file (as curl has it).
        var body: String?
        /// `-H 'Name: value'`, in order.
        var headers: [String] = []
        var wildcards = false
        /// `--header-in-name NAME`: headers whose values are part of the names.
        var headersInName: [String] = []
        /// `--create FOLDER`: write a skeleton `.http` file there under the first name.
        var createIn: String?
    }

    /// A mistake on the command line: one line that says what to type instead.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(UsageError) -> CommandLineOptions {
        guard let first = arguments.first else {
            throw UsageError(
                description: "missing command; try `request-mocker serve Examples/MockData` or `request-mocker --help`")
        }
        switch first {
        case "-h", "--help", "help": return CommandLineOptions(command: .help)
        case "--version": return CommandLineOptions(command: .version)
        case "serve": break
        case "name": return CommandLineOptions(command: .name(try parseName(arguments.dropFirst())))
        case "check":
            let rest = arguments.dropFirst()
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return CommandLineOptions(command: .help) }
            return CommandLineOptions(command: .check(try parseCheck(rest)))
        case "draft":
            let rest = arguments.dropFirst()
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return CommandLineOptions(command: .help) }
            return CommandLineOptions(command: .draft(try parseDraft(rest)))
        case "convert":
            let rest = arguments.dropFirst()
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return CommandLineOptions(command: .help) }
            return CommandLineOptions(command: .convert(try parseConvert(rest)))
        default:
            throw UsageError(
                description:
                    "unknown command \(first.debugDescription); the commands are `serve`, `check`, `draft`, `name` "
                    + "and `convert` (see `request-mocker --help`)")
        }
        var options = ServeOptions()
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                return CommandLineOptions(command: .help)
            case "--version":
                return CommandLineOptions(command: .version)
            case "--":
                options.folders += rest
                rest = []
            case "--record":
                options.record = true
            case "--upstream-first":
                options.upstreamFirst = true
            case "--admin":
                options.admin = true
            case "--dynamic":
                options.dynamic = true
            case "--stateful":
                options.stateful = true
            case _ where valueOptions.contains(argument):
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(description: "\(argument) needs a value, for example \(example(for: argument))")
                }
                try apply(argument, value, to: &options)
            default:
                if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                    let name = String(argument[..<equals])
                    let value = String(argument[argument.index(after: equals)...])
                    guard valueOptions.contains(name) else {
                        throw UsageError(description: "unknown option \(name); \(serveOptions)")
                    }
                    try apply(name, value, to: &options)
                } else if argument.hasPrefix("-") {
                    throw UsageError(description: "unknown option \(argument); \(serveOptions)")
                } else {
                    options.folders.append(argument)
                }
            }
        }
        if options.record {
            guard options.upstream != nil else {
                throw UsageError(
                    description: "--record records what the upstream answers, so it needs --upstream URL, "
                        + "for example --upstream http://localhost:3000 --record")
            }
            guard !options.folders.isEmpty || options.cassette != nil else {
                throw UsageError(
                    description:
                        "--record needs somewhere to record into: a FOLDER (the first one) or --cassette FILE.har")
            }
        } else if options.recordMode != nil {
            throw UsageError(description: "--record-mode goes with --record, whose recording it decides")
        }
        if options.upstreamFirst, options.upstream == nil || options.openapi == nil {
            throw UsageError(
                description: "--upstream-first sends every request to the upstream and checks it against a contract, "
                    + "so it needs --upstream URL and --openapi FILE, for example "
                    + "--openapi api.yaml --upstream http://localhost:3000 --upstream-first")
        }
        if options.openapi == nil,
            let alone = [
                ("--base-path", options.basePath != nil), ("--validate", options.validation != .strict),
                ("--dynamic", options.dynamic), ("--seed", options.seed != nil), ("--stateful", options.stateful),
            ].first(where: \.1)
        {
            throw UsageError(description: "\(alone.0) goes with --openapi FILE, which serves a contract")
        }
        if options.graphql == nil,
            let alone = [
                ("--graphql-path", options.graphqlPath != "/graphql"), ("--graphql-mocks", options.graphqlMocks != nil),
            ]
            .first(where: \.1)
        {
            throw UsageError(description: "\(alone.0) goes with --graphql SCHEMA, which serves a GraphQL schema")
        }
        if !options.stateful,
            let alone = [("--data", options.data), ("--state", options.state)].first(where: { $0.1 != nil })
        {
            throw UsageError(description: "\(alone.0) goes with --stateful, whose resources it fills")
        }
        if options.seed != nil, !options.dynamic {
            throw UsageError(description: "--seed goes with --dynamic, which draws generated bodies from it")
        }
        if options.adminToken == nil, options.admin,
            let token = environment["REQUEST_MOCKER_ADMIN_TOKEN"], !token.isEmpty
        {
            options.adminToken = token
        }
        if options.adminToken != nil, !options.admin {
            throw UsageError(description: "--admin-token goes with --admin, which turns the admin API on")
        }
        if options.admin, options.adminToken == nil, !MockServer.isLoopback(options.host) {
            throw UsageError(
                description: "--admin on \(options.host), which other machines can reach, needs --admin-token TOKEN "
                    + "(or REQUEST_MOCKER_ADMIN_TOKEN); or serve on 127.0.0.1")
        }
        return CommandLineOptions(command: .serve(options))
    }

    private static let serveOptions =
        "the options are --cassette, --stubs, --openapi, --base-path, --validate, --dynamic, --seed, --stateful, "
        + "--data, --state, --graphql, --graphql-path, --graphql-mocks, --upstream, --upstream-first, "
        + "--record, --record-mode, --admin, --admin-token, --host and --port"

    /// The options of `serve` that take a value.
    private static let valueOptions: Set<String> = [
        "--cassette", "--host", "--port", "--upstream", "--stubs", "--admin-token", "--openapi", "--base-path",
        "--validate", "--seed", "--data", "--state", "--record-mode", "--graphql", "--graphql-path", "--graphql-mocks",
    ]

    private static func apply(_ name: String, _ value: String, to options: inout ServeOptions) throws(UsageError) {
        switch name {
        case "--cassette":
            options.cassette = value
        case "--stubs":
            options.stubs = value
        case "--openapi":
            options.openapi = value
        case "--graphql":
            options.graphql = value
        case "--graphql-path":
            guard value.hasPrefix("/") else {
                throw UsageError(
                    description: "--graphql-path \(value.debugDescription) must start with /, such as /graphql")
            }
            options.graphqlPath = value
        case "--graphql-mocks":
            options.graphqlMocks = value
        case "--data":
            options.data = value
        case "--state":
            options.state = value
        case "--base-path":
            options.basePath = try basePath(value)
        case "--record-mode":
            guard let mode = RecordingMode(rawValue: value) else {
                throw UsageError(
                    description: "--record-mode \(value.debugDescription) is not a mode; use once, new or all")
            }
            options.recordMode = mode
        case "--validate":
            guard let mode = OpenAPIContract.Validation(rawValue: value) else {
                throw UsageError(
                    description: "--validate \(value.debugDescription) is not a mode; use strict, warn or off")
            }
            options.validation = mode
        case "--seed":
            guard let seed = UInt64(value) else {
                throw UsageError(description: "--seed \(value) is not a seed; give a whole number from 0")
            }
            options.seed = seed
        case "--admin-token":
            guard !value.isEmpty else { throw UsageError(description: "--admin-token needs a token") }
            options.adminToken = value
        case "--upstream":
            guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host?.isEmpty == false
            else {
                throw UsageError(
                    description: "--upstream \(value.debugDescription) is not an http or https URL; "
                        + "give one with a host, for example --upstream http://localhost:3000/api")
            }
            guard url.query == nil, url.fragment == nil else {
                throw UsageError(
                    description: "--upstream \(value.debugDescription) has a query or fragment, which requests "
                        + "can't be appended to; give the scheme, host, port and base path only")
            }
            options.upstream = url
        case "--host":
            guard !value.isEmpty else {
                throw UsageError(description: "--host needs an address, for example --host 127.0.0.1")
            }
            options.host = value
        default:
            guard let port = UInt16(value) else {
                throw UsageError(description: "--port \(value) is not a port; give a number from 0 to 65535")
            }
            options.port = port
        }
    }

    /// A `--base-path` value, checked: it starts with `/`.
    static func basePath(_ value: String) throws(UsageError) -> String {
        guard value.hasPrefix("/") else {
            throw UsageError(description: "--base-path \(value.debugDescription) must start with /, such as /v2")
        }
        return value
    }

    static func example(for option: String) -> String {
        switch option {
        case "--cassette": "--cassette Tests/Cassettes/api.har"
        case "--upstream": "--upstream http://localhost:3000/api"
        case "--stubs": "--stubs stubs.json"
        case "--openapi": "--openapi openapi.json"
        case "--graphql": "--graphql schema.graphqls"
        case "--graphql-path": "--graphql-path /graphql"
        case "--graphql-mocks": "--graphql-mocks mocks.yaml"
        case "--base-path": "--base-path /v2"
        case "--validate": "--validate warn"
        case "--seed": "--seed 7"
        case "--data": "--data pets.json"
        case "--state": "--state state.json"
        case "--record-mode": "--record-mode all"
        case "--admin-token": "--admin-token s3cret"
        case "--host": "--host 127.0.0.1"
        default: "--port 8080"
        }
    }

    var command: Command
}
