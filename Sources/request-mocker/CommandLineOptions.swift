import Foundation
import RequestMocker
import RequestMockerServer

/// The parsed command line of `request-mocker`.
struct CommandLineOptions: Equatable {
    enum Command: Equatable {
        case help
        case version
        case serve(ServeOptions)
        case name(NameOptions)
        case convert(ConvertOptions)
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
        /// `--record`: write what comes back from the upstream.
        var record = false
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
        var seed: UInt64?

        /// Whether any source was named; without one, the example folder is served.
        var namesASource: Bool {
            !folders.isEmpty || cassette != nil || upstream != nil || stubs != nil || admin || openapi != nil
        }
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

    static let usage = """
        USAGE: request-mocker serve [FOLDER...] [--cassette FILE.har] [--stubs FILE.json]
                                   [--openapi FILE [--base-path PATH] [--validate strict|warn|off]
                                   [--dynamic [--seed N]]]
                                   [--upstream URL [--record]] [--admin [--admin-token TOKEN]]
                                   [--host ADDRESS] [--port PORT]
               request-mocker name METHOD URL [-d BODY] [-H 'Name: value']... [--wildcards]
                                  [--header-in-name NAME]... [--create FOLDER]
               request-mocker convert IN OUT [--host URL]

        Serves mock responses over HTTP/1.1, printing one line per request: what answered it,
        or, when nothing did, the file names it looked for.

        ARGUMENTS:
          FOLDER...            Mock-data folders of .http and .json files named as in
                               MockDataNaming.md, layered: the first that has a file for a
                               request answers it. Without FOLDER or another source, the
                               Examples/MockData folder of the current directory.

        OPTIONS:
          --cassette FILE.har  Also answer from a HAR cassette (after FOLDER, when both are
                               given). Requests match on method, path and query, so a cassette
                               recorded against another host still answers; each recording
                               answers once, and the last one keeps answering after that.
                               The file is written only with --record.
          --stubs FILE.json    Stubs (filters written as JSON; see stubs.schema.json), tried
                               before the folders. Reloaded when the file changes; a broken
                               edit is reported and the last good stubs stay.
          --openapi FILE       Answer from an OpenAPI 3.0/3.1 contract (JSON) what the stubs,
                               FOLDERs and cassette don't: each request is checked against its
                               operation, then answered with the declared example (Prefer:
                               code=404, example=NAME or ?__code=404&__example=NAME pick one) or
                               a body generated from the schema. Reloaded when the file changes.
          --base-path PATH     Serve the operations under PATH instead of the path of the
                               contract's first server URL.
          --validate MODE      strict (default): a request the contract doesn't allow gets 401,
                               415 or 422; warn: answered anyway, with RequestMocker-Violations;
                               off: not checked.
          --dynamic            Generate bodies from a seed (--seed N, default 0): each request
                               its own, the same in every run.
          --admin              The admin API under /__admin/: add and remove stubs, read the
                               requests (GET /__admin/requests). Off by default.
          --admin-token TOKEN  The bearer token admin calls must carry (also read from
                               REQUEST_MOCKER_ADMIN_TOKEN); needed when --host isn't loopback.
          --upstream URL       Forward every request nothing else answers to this server:
                               URL gives the scheme, host, port and base path, to which the
                               request's path and query are appended. Method, headers and body
                               go on with Host rewritten; the answer is relayed as it arrives.
                               An upstream that can't be reached or fails gives 502 and why.
          --record             Write each forwarded exchange, secrets redacted: into the first
                               FOLDER as a .http file under its mock-data name (created if
                               missing), or into --cassette when given (saved after each one).
                               A later run without --upstream answers the same requests.
          --host ADDRESS       The address to listen on (default: 127.0.0.1). Use 0.0.0.0 or ::
                               only to be reachable from other machines.
          --port PORT          The port (default: 8080); 0 picks any free port.
          -h, --help           Show this help.
          --version            Show the version.

        NAME prints the mock-data file names a request looks for, in lookup order (hashes
        included, which no one can type by hand):
          -d BODY              The request body; -d @FILE reads it from a file. Without a
                               Content-Type header it is sent as a form, as curl sends it.
          -H 'Name: value'     A request header (repeatable).
          --wildcards          Also the wildcard names (as `serve` looks for them).
          --header-in-name N   A header whose value is part of the names (repeatable).
          --create FOLDER      Write a skeleton .http file under the first name in FOLDER.

        CONVERT turns recorded traffic into another format, with the default redaction:
          a YAHTTPVCR cassette (JSON or property list) or a HAR file into OUT.har, or into
          OUT, a mock-data folder of .http files under their mock-data names (created if
          missing); a mock-data folder into OUT.har, each file name read back into a request
          (a `-` read as `/`) to the host of --host URL (default http://localhost). What
          can't be converted (a transport error into a folder, a wildcard or hashed name into
          HAR) is listed and left out.

        Unmatched requests get 404 with the reason as the body. Stop with Ctrl-C.
        Exit status: 0 after Ctrl-C (and after name and convert), 64 for bad arguments, 65 for
        an invalid cassette, stubs file, contract or mock-data folder, 66 for a FOLDER, cassette,
        stubs file, contract, -d @FILE or convert's IN that isn't there or can't be read, 69 when the address
        can't be bound, 73 when --create, --record or convert can't write.
        `--` ends the options: what follows are FOLDERs, even when they start with a dash.
        """

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
        case "convert":
            let rest = arguments.dropFirst()
            if rest.contains(where: { $0 == "-h" || $0 == "--help" }) { return CommandLineOptions(command: .help) }
            return CommandLineOptions(command: .convert(try parseConvert(rest)))
        default:
            throw UsageError(
                description:
                    "unknown command \(first.debugDescription); the commands are `serve`, `name` and `convert` "
                    + "(see `request-mocker --help`)")
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
            case "--admin":
                options.admin = true
            case "--dynamic":
                options.dynamic = true
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
        }
        if options.openapi == nil,
            let alone = [
                ("--base-path", options.basePath != nil), ("--validate", options.validation != .strict),
                ("--dynamic", options.dynamic), ("--seed", options.seed != nil),
            ].first(where: \.1)
        {
            throw UsageError(description: "\(alone.0) goes with --openapi FILE, which serves a contract")
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

    private static func parseConvert(_ arguments: ArraySlice<String>) throws(UsageError) -> ConvertOptions {
        var options = ConvertOptions()
        var positional: [String] = []
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--host":
                guard let value = rest.popFirst(), let url = URL(string: value),
                    ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
                else {
                    throw UsageError(description: "--host needs a URL, for example --host https://api.example.com")
                }
                options.host = url
            case "--":
                positional += rest
                rest = []
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError(description: "unknown option \(argument); convert takes --host URL")
                }
                positional.append(argument)
            }
        }
        guard positional.count == 2 else {
            throw UsageError(
                description: "convert takes IN and OUT, for example "
                    + "`request-mocker convert Cassettes/login.json login.har`")
        }
        options.input = positional[0]
        options.output = positional[1]
        return options
    }

    private static func parseName(_ arguments: ArraySlice<String>) throws(UsageError) -> NameOptions {
        var options = NameOptions()
        var positional: [String] = []
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "-d", "--data", "-H", "--header", "--header-in-name", "--create":
                guard let value = rest.popFirst() else {
                    throw UsageError(
                        description: "\(argument) needs a value, for example \(nameExample(for: argument))")
                }
                switch argument {
                case "-d", "--data": options.body = value
                case "-H", "--header":
                    guard value.contains(":") else {
                        throw UsageError(
                            description: "-H \(value.debugDescription) is not a header; write -H 'Name: value'")
                    }
                    options.headers.append(value)
                case "--header-in-name": options.headersInName.append(value)
                default: options.createIn = value
                }
            case "--wildcards":
                options.wildcards = true
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError(
                        description: "unknown option \(argument) for name; the options are -d, -H, --wildcards, "
                            + "--header-in-name and --create")
                }
                positional.append(argument)
            }
        }
        guard positional.count == 2 else {
            throw UsageError(
                description:
                    "name needs METHOD and URL, for example: request-mocker name GET 'https://api.test/users?page=2'")
        }
        options.method = positional[0].uppercased()
        options.url = positional[1]
        return options
    }

    private static func nameExample(for option: String) -> String {
        switch option {
        case "-d", "--data": #"-d '{"name": "Ada"}'"#
        case "-H", "--header": "-H 'Content-Type: application/json'"
        case "--header-in-name": "--header-in-name Authorization"
        default: "--create Examples/MockData"
        }
    }

    private static let serveOptions =
        "the options are --cassette, --stubs, --openapi, --base-path, --validate, --dynamic, --seed, --upstream, "
        + "--record, --admin, --admin-token, --host and --port"

    /// The options of `serve` that take a value.
    private static let valueOptions: Set<String> = [
        "--cassette", "--host", "--port", "--upstream", "--stubs", "--admin-token", "--openapi", "--base-path",
        "--validate", "--seed",
    ]

    private static func apply(_ name: String, _ value: String, to options: inout ServeOptions) throws(UsageError) {
        switch name {
        case "--cassette":
            options.cassette = value
        case "--stubs":
            options.stubs = value
        case "--openapi":
            options.openapi = value
        case "--base-path":
            guard value.hasPrefix("/") else {
                throw UsageError(description: "--base-path \(value.debugDescription) must start with /, such as /v2")
            }
            options.basePath = value
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

    private static func example(for option: String) -> String {
        switch option {
        case "--cassette": "--cassette Tests/Cassettes/api.har"
        case "--upstream": "--upstream http://localhost:3000/api"
        case "--stubs": "--stubs stubs.json"
        case "--openapi": "--openapi openapi.json"
        case "--base-path": "--base-path /v2"
        case "--validate": "--validate warn"
        case "--seed": "--seed 7"
        case "--admin-token": "--admin-token s3cret"
        case "--host": "--host 127.0.0.1"
        default: "--port 8080"
        }
    }

    var command: Command
}
