import Foundation
import RequestMocker
import RequestMockerServer

/// `request-mocker`: serves a mock-data folder and/or a cassette over HTTP, names mock-data
/// files, and converts recorded traffic between formats. See `--help`.

/// sysexits.h's codes, which shells and CI scripts know.
enum ExitCode {
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
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
case .convert(let convert):
    ConvertCommand.run(convert)
case .serve(let serve):
    ServeCommand.run(serve)
}
