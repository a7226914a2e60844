import Foundation

/// The options of `check`, `convert` and `name`.
extension CommandLineOptions {
    static func parseConvert(_ arguments: ArraySlice<String>) throws(UsageError) -> ConvertOptions {
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

    static func parseCheck(_ arguments: ArraySlice<String>) throws(UsageError) -> CheckOptions {
        var options = CheckOptions()
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--coverage":
                options.coverage = true
            case "--openapi", "--graphql", "--stubs", "--cassette", "--base-path", "--format":
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(
                        description: "\(argument) needs a value, for example "
                            + (argument == "--format" ? "--format json" : example(for: argument)))
                }
                switch argument {
                case "--openapi": options.openapi = value
                case "--graphql": options.graphql = value
                case "--stubs": options.stubs = value
                case "--cassette": options.cassette = value
                case "--format":
                    guard ["text", "json", "sarif"].contains(value) else {
                        throw UsageError(
                            description: "--format \(value.debugDescription) is not a format; use text, json or sarif")
                    }
                    options.format = value
                default: options.basePath = try basePath(value)
                }
            case "--":
                options.folders += rest
                rest = []
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError(
                        description: "unknown option \(argument); check takes --openapi, --graphql, --stubs, "
                            + "--cassette, --base-path, --format and --coverage")
                }
                options.folders.append(argument)
            }
        }
        switch (options.openapi, options.graphql) {
        case (nil, nil) where options.stubs != nil:
            guard options.folders.isEmpty, options.cassette == nil, options.basePath == nil, !options.coverage else {
                throw UsageError(
                    description: "without a contract, check reads only a stubs file's scenarios "
                        + "(`request-mocker check --stubs stubs.json`); folders, a cassette, --base-path and "
                        + "--coverage need --openapi FILE or --graphql SCHEMA")
            }
            return options
        case (nil, nil):
            throw UsageError(
                description: "check needs the contract: `request-mocker check --openapi openapi.json Mocks`, or "
                    + "`request-mocker check --graphql schema.graphqls --cassette session.har`; or a stubs file "
                    + "whose scenarios it checks: `request-mocker check --stubs stubs.json`")
        case (_?, _?):
            throw UsageError(
                description: "check takes one contract at a time: --openapi FILE or --graphql SCHEMA; run it twice")
        case (nil, _?) where options.basePath != nil:
            throw UsageError(description: "--base-path goes with --openapi FILE; a GraphQL schema has no paths")
        default:
            return options
        }
    }

    static func parseDraft(_ arguments: ArraySlice<String>) throws(UsageError) -> DraftOptions {
        var options = DraftOptions()
        var output: String?
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--cassette", "--base-path", "--openapi", "-o", "--output":
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(
                        description: "\(argument) needs a value, for example "
                            + (argument == "-o" || argument == "--output" ? "-o openapi.yaml" : example(for: argument)))
                }
                switch argument {
                case "--cassette": options.cassettes.append(value)
                case "--openapi": options.openapi = value
                case "--base-path": options.basePath = try basePath(value)
                default:
                    let type = URL(fileURLWithPath: value).pathExtension.lowercased()
                    guard ["yaml", "yml", "json"].contains(type) else {
                        throw UsageError(
                            description: "-o \(value.debugDescription): the draft is written as YAML or JSON by the "
                                + "extension; name it something.yaml or something.json")
                    }
                    output = value
                }
            case "--":
                options.folders += rest
                rest = []
            default:
                guard !argument.hasPrefix("-") else {
                    throw UsageError(
                        description:
                            "unknown option \(argument); draft takes FOLDERs, --cassette, --base-path, --openapi and -o"
                    )
                }
                options.folders.append(argument)
            }
        }
        guard let output else {
            throw UsageError(
                description: "draft needs where to write: `request-mocker draft --cassette traffic.har -o openapi.yaml`"
            )
        }
        guard !options.folders.isEmpty || !options.cassettes.isEmpty else {
            throw UsageError(
                description: "draft needs recordings: mock-data FOLDERs or --cassette FILE (HAR or YAHTTPVCR), "
                    + "for example `request-mocker draft --cassette traffic.har -o openapi.yaml`")
        }
        options.output = output
        return options
    }

    static func parseName(_ arguments: ArraySlice<String>) throws(UsageError) -> NameOptions {
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

}
