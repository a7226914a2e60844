import Foundation
import RequestMocker
import RequestMockerServer

/// `request-mocker`: serves a mock-data folder and/or a cassette over HTTP, and names mock-data
/// files. See `--help`.

/// sysexits.h's codes, which shells and CI scripts know.
enum ExitCode {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let unavailable: Int32 = 69
    static let cantCreate: Int32 = 73
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("request-mocker: \(message)\n".utf8))
    exit(status)
}

/// Writes one line to standard output at once (unbuffered), so a pipe or a log file shows each
/// request as it happens.
func printLine(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail(error.description, status: ExitCode.usage)
}

switch options.command {
case .help:
    printLine(CommandLineOptions.usage)
    exit(0)
case .version:
    printLine("request-mocker \(RequestMockerVersion.current)")
    exit(0)
case .name(let name):
    NameCommand.run(name)
case .serve(let serve):
    let registry = MockRegistry(unmatchedPolicy: .fail)
    // Each request is printed; the journal only needs to hold the recent ones.
    registry.journalCapacity = 1_000
    var sources: [String] = []
    let folderPaths = serve.folders.isEmpty && serve.cassette == nil ? ["Examples/MockData"] : serve.folders
    // Layered in order: the first folder that has a file for a request answers it.
    for folderPath in folderPaths {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folderPath, isDirectory: &isFolder), isFolder.boolValue else {
            let hint =
                serve.folders.isEmpty
                ? " (the default when no FOLDER is given; run from the package root, or name a folder)" : ""
            fail("no folder at \(folderPath)\(hint)", status: ExitCode.usage)
        }
        do {
            registry.register(try MockDataFolder(URL(fileURLWithPath: folderPath), allowsWildcards: true))
        } catch {
            fail("\(error)", status: ExitCode.dataError)
        }
        sources.append(folderPath)
    }
    if let cassettePath = serve.cassette {
        guard FileManager.default.fileExists(atPath: cassettePath) else {
            fail("no cassette at \(cassettePath)", status: ExitCode.usage)
        }
        do {
            let cassette = try Cassette(
                contentsOf: URL(fileURLWithPath: cassettePath), record: .none,
                matchers: CassetteMatcher.ignoringHost, repeatsLastResponse: true
            )
            registry.register(cassette)
        } catch {
            fail("\(error)", status: ExitCode.dataError)
        }
        sources.append(cassettePath)
    }
    let server = MockServer(registry: registry, configuration: .init(host: serve.host, port: serve.port)) { served in
        printLine(served.description)
    }
    let url: URL
    do {
        url = try server.start()
    } catch {
        fail("\(error)", status: ExitCode.unavailable)
    }
    printLine("Serving \(sources.joined(separator: " and ")) at \(url) (Ctrl-C to stop)")

    // Ctrl-C and `kill` stop the server cleanly: connections close, then the process exits.
    var signalSources: [any DispatchSourceSignal] = []
    for signalNumber in [SIGINT, SIGTERM] {
        signal(signalNumber, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
        source.setEventHandler {
            server.stop()
            printLine("Stopped.")
            exit(0)
        }
        source.resume()
        signalSources.append(source)
    }
    dispatchMain()
}
