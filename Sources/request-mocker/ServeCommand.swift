import Foundation
import RequestMocker
import RequestMockerGraphQL
import RequestMockerOpenAPI
import RequestMockerServer

/// `request-mocker serve`: answers from stubs, mock-data folders, a cassette and an OpenAPI
/// contract, forwards the rest to an upstream (recording it with `--record`), and prints one
/// line per request.
enum ServeCommand {
    static func run(_ options: CommandLineOptions.ServeOptions) -> Never {
        // First: the threads made from here on inherit the mask (see `StopSignals`).
        StopSignals.block()
        // Nothing unanswered goes to the network unless there is an upstream to send it to.
        let registry = MockRegistry(unmatchedPolicy: options.upstream == nil ? .fail : .passThrough)
        // Each request is printed; the journal only needs to hold the recent ones.
        registry.journalCapacity = 1_000
        var sources: [String] = []
        // Without a source of its own, the example folder (a contract alone needs no folder).
        let folderPaths = options.namesASource ? options.folders : ["Examples/MockData"]
        let mode = options.recordMode ?? .new
        // The folder recorded into, when there is no cassette: with `once`, only a new (missing
        // or empty) one records; with `all`, it doesn't answer, so every request is forwarded.
        var recordsIntoFolder = options.record && options.cassette == nil
        if recordsIntoFolder, mode == .once, let first = folderPaths.first,
            let names = try? FileManager.default.contentsOfDirectory(atPath: first),
            names.contains(where: { $0.hasSuffix(".http") || $0.hasSuffix(".json") })
        {
            recordsIntoFolder = false
        }
        // Layered in order: the first folder that has a file for a request answers it.
        for folderPath in folderPaths {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: folderPath, isDirectory: &isFolder)
            if !exists, options.record, options.cassette == nil, sources.isEmpty {
                // The folder recorded into is created for the recordings.
                do {
                    try FileManager.default.createDirectory(atPath: folderPath, withIntermediateDirectories: true)
                } catch {
                    fail("cannot create \(folderPath) to record into: \(error)", status: ExitCode.cantCreate)
                }
            } else if exists, !isFolder.boolValue {
                fail(Self.fileGivenAsFolder(folderPath), status: ExitCode.usage)
            } else if !isFolder.boolValue {
                let hint =
                    options.namesASource
                    ? "" : " (the default when no FOLDER is given; run from the package root, or name a folder)"
                fail("no folder at \(folderPath)\(hint)", status: ExitCode.noInput)
            }
            do {
                if !(recordsIntoFolder && mode == .all && sources.isEmpty) {
                    registry.register(try MockDataFolder(URL(fileURLWithPath: folderPath), allowsWildcards: true))
                }
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
            sources.append(folderPath)
        }
        var recordingCassette: Cassette?
        if let cassettePath = options.cassette {
            let recordsHere = options.record
            guard recordsHere || FileManager.default.fileExists(atPath: cassettePath) else {
                fail("no cassette at \(cassettePath)", status: ExitCode.noInput)
            }
            do {
                // Recordings answer once each, and the last one keeps answering after that.
                // Upstream first, every exchange reaches the upstream and each is recorded, none
                // played back before it: `new` appends them, `all` starts the cassette over, and
                // `once` records only into a new one (an old one only plays back, after the upstream).
                let upstreamFirst = (
                    appending: RecordMode(
                        name: "new_episodes", playsBack: false, recording: .always, replacesExisting: false),
                    once: RecordMode(name: "once", playsBack: false, recording: .whenNew, replacesExisting: false)
                )
                let recordMode: RecordMode =
                    switch (recordsHere, mode, options.upstreamFirst) {
                    case (false, _, _): .none
                    case (true, .once, true):
                        FileManager.default.fileExists(atPath: cassettePath) ? .once : upstreamFirst.once
                    case (true, .once, false): .once
                    case (true, .all, _): .all
                    case (true, .new, true): upstreamFirst.appending
                    case (true, .new, false): .newEpisodes
                    }
                let cassette = try Cassette(
                    contentsOf: URL(fileURLWithPath: cassettePath), record: recordMode,
                    playback: .momentary, matchers: CassetteMatcher.ignoringHost, redaction: .default, hosts: .all,
                    repeatsLastResponse: true, environment: [:]
                )
                registry.register(cassette)
                if recordsHere { recordingCassette = cassette }
                // A cassette that is only recorded into serves nothing yet: the banner says it
                // records, not that it serves.
                if !(recordsHere && cassette.isNew) { sources.append(cassettePath) }
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
        }
        // The contract answers what the stubs, folders and cassette don't; then the upstream.
        var contractSource: ContractSource?
        if let path = options.openapi {
            let contract = ContractWatcher.load(URL(fileURLWithPath: path))
            let source = ContractSource(
                contract: contract, validation: options.validation,
                generation: options.dynamic ? .dynamic(seed: options.seed ?? 0) : .static, basePath: options.basePath,
                remembering: options.stateful)
            registry.register(source)
            contractSource = source
            sources.append(path)
            for line in ContractWatcher.summary(of: contract, basePath: options.basePath) { printLine(line) }
            if let resources = source.resourceMap {
                printLine("Resources that remember (--stateful):")
                for line in resources.description.split(separator: "\n") { printLine("    " + line) }
                Self.fill(source, data: options.data, state: options.state)
            }
        }
        // The GraphQL schema answers its one path, beside the contract.
        var graphQL: (endpoint: GraphQLEndpoint, schema: URL, mocks: URL?)?
        if let path = options.graphql {
            let schemaURL = URL(fileURLWithPath: path)
            let mocksURL = options.graphqlMocks.map { URL(fileURLWithPath: $0) }
            let (schema, mocks) = GraphQLWatcher.load(schemaURL, mocks: mocksURL)
            let endpoint = GraphQLEndpoint(
                schema: schema, mocks: mocks, file: schemaURL, host: nil, path: options.graphqlPath)
            registry.register(endpoint)
            graphQL = (endpoint, schemaURL, mocksURL)
            sources.append(path)
            let summary = GraphQLWatcher.summary(
                of: schema, mocks: mocks, file: schemaURL, mocksFile: mocksURL, path: endpoint.path)
            for line in summary { printLine(line) }
        }
        var recordingFolder: MockDataFolder?
        if recordsIntoFolder, let first = folderPaths.first {
            // Last: it records only what nothing above answered (mode `all` plays nothing back;
            // the folder's files already answered through its first registration).
            do {
                let folder = try MockDataFolder(
                    URL(fileURLWithPath: first), allowsWildcards: false, headersInName: [], record: .all,
                    redaction: .default, hosts: .all, environment: [:])
                registry.register(folder)
                recordingFolder = folder
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
        }
        if options.upstreamFirst, let contractSource, let upstream = options.upstream {
            // In front of everything registered so far; the stubs go in front of it.
            let recorder =
                recordingCassette.map(UpstreamFirst.Recorder.cassette)
                ?? recordingFolder.map(UpstreamFirst.Recorder.folder)
            // Each kind of finding once, as its first exchange is checked (after the answer went
            // out, so after or before that request's own line).
            let source = UpstreamFirst(checkingAgainst: contractSource, recordingInto: recorder) { request, finding in
                let severity = finding.isError ? "error" : "warning"
                printLine("drift in \(request.method.rawValue) \(request.path): \(severity): \(finding.message)")
            }
            registry.register(source, at: .first)
            let checked =
                "upstream \(Redaction.hidingSecrets(upstream)) first "
                + "(checked against \(contractSource.contract.url.lastPathComponent))"
            sources.insert(checked, at: 0)
        }
        var configuration = MockServer.Configuration(host: options.host, port: options.port)
        configuration.upstream = options.upstream
        // A stub's pass-through, too, goes nowhere but the upstream.
        configuration.passesThroughToTheNetwork = false
        if options.admin {
            // "Mock this" on the dashboard writes into the first folder, as --record does.
            let folder = options.folders.first ?? (options.namesASource ? nil : folderPaths.first)
            configuration.admin = MockServer.Admin(
                token: options.adminToken, mockDataFolder: folder.map { URL(fileURLWithPath: $0) })
        }
        let server = MockServer(registry: registry, configuration: configuration) { [recordingCassette] served in
            RequestLog.shared.append(served.description)
            if let recordingCassette, case .recorded = served.journalEntry?.disposition {
                do {
                    try recordingCassette.save()
                } catch {
                    printLine("    \(error)")
                }
            }
        }
        // The stubs go in front of the folders (behind the admin API's), read before listening.
        var watcher: StubsFileWatcher?
        if let stubsPath = options.stubs {
            guard FileManager.default.fileExists(atPath: stubsPath) else {
                fail("no stubs file at \(stubsPath)", status: ExitCode.noInput)
            }
            let store = server.stubStore
            do {
                watcher = try StubsFileWatcher(
                    URL(fileURLWithPath: stubsPath), contract: { [contractSource] in contractSource?.contract },
                    graphQL: graphQL?.endpoint, apply: { store.replaceFileStubs(with: $0) })
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
            sources.insert(stubsPath, at: 0)
        }
        let url: URL
        do {
            url = try server.start()
        } catch {
            fail("\(error)", status: ExitCode.unavailable)
        }
        if let upstream = options.upstream, !options.upstreamFirst {
            sources.append("upstream \(Redaction.hidingSecrets(upstream))")
        }
        var line = sources.isEmpty ? "Listening at \(url)" : "Serving \(sources.joined(separator: " and ")) at \(url)"
        if options.record {
            let recording = recordingCassette.map { mode != .once || $0.isNew } ?? recordsIntoFolder
            line +=
                recording
                ? ", recording into \(options.cassette ?? folderPaths[0])"
                    + (mode == .all ? " (every exchange: nothing is played back)" : "")
                : ", not recording (--record-mode once, and \(options.cassette ?? folderPaths[0]) is not new)"
        }
        if options.admin { line += ", dashboard and admin API at \(url)/__admin/" }
        printLine(line + " (Ctrl-C to stop)")
        let contractWatcher = contractSource.map { ContractWatcher($0, basePath: options.basePath) }
        let graphQLWatcher = graphQL.map { GraphQLWatcher($0.endpoint, schema: $0.schema, mocks: $0.mocks) }
        // A signal sent meanwhile (a client may stop the server as soon as it is answered, before
        // the line that says it is serving) has waited, blocked.
        withExtendedLifetime((watcher, contractWatcher, graphQLWatcher)) { StopSignals.waitThenStop(server) }
    }

    /// What a file named where a FOLDER goes is told: which option takes it.
    static func fileGivenAsFolder(_ path: String) -> String {
        let which: String =
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "har": "a HAR cassette goes after --cassette: serve --cassette \(path)"
            case "json", "yml", "yaml":
                "a cassette goes after --cassette (serve --cassette \(path)), a stubs file after --stubs, "
                    + "a contract after --openapi"
            default: "a cassette goes after --cassette, a stubs file after --stubs, a contract after --openapi"
            }
        return "\(path) is a file, not a folder of mock data; \(which)"
    }

    /// Fills a remembering contract's resources from `--data` (the seed a reset puts back), then
    /// from `--state` when that file exists, and from then on saves them to `--state` after each
    /// change. A mistake in either file ends the command (exit 65) with the file, line and column;
    /// a `--data` file that isn't there, with exit 66.
    private static func fill(_ source: ContractSource, data: String?, state: String?) {
        func contents(of path: String) throws -> ResourceContents {
            let file = try ResourceMap.dataSource(at: URL(fileURLWithPath: path))
            return try source.resourceContents(of: file.root, from: .file(file))
        }
        if let data, !FileManager.default.fileExists(atPath: data) {
            fail("no data file at \(data)", status: ExitCode.noInput)
        }
        do {
            if let data {
                let seed = try contents(of: data)
                try source.seedResources(seed)
                printLine("    from \(data): \(seed.summary)")
            }
            if let state {
                if FileManager.default.fileExists(atPath: state) {
                    let saved = try contents(of: state)
                    try source.store.load(saved)
                    printLine("    from \(state) (--state): \(saved.summary)")
                }
                try source.store.save(to: URL(fileURLWithPath: state))
                printLine("    saved to \(state) after each change")
            }
        } catch {
            fail("\(error)", status: ExitCode.dataError)
        }
    }
}
