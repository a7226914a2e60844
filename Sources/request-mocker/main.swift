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
    RequestLog.shared.flush()
    FileHandle.standardError.write(Data("request-mocker: \(message)\n".utf8))
    exit(status)
}

/// Writes one line to standard output at once (unbuffered), so a pipe or a log file shows each
/// line as it happens: through ``RequestLog``'s queue, after the request lines waiting there, so
/// every line keeps its place.
func printLine(_ line: String) {
    RequestLog.shared.append(line)
    RequestLog.shared.flush()
}

/// Writes `bytes` to standard output with `write(2)` itself: `FileHandle.write(_:)` cost the
/// server several microseconds a request, and traps on a write error. An output that can't take
/// more now (a non-blocking one) is waited for; one that fails (a full disk) loses the bytes and
/// the server goes on. (A reader that closed the pipe ends the process with `SIGPIPE`, as for any
/// command.)
func writeAll(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return write(STDOUT_FILENO, base + offset, buffer.count - offset)
        }
        if written > 0 {
            offset += written
        } else if written < 0, errno == EINTR {
            continue
        } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
            var output = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
            _ = poll(&output, 1, 1_000)
        } else {
            return
        }
    }
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
case .check(let check):
    CheckCommand.run(check)
case .draft(let draft):
    DraftCommand.run(draft)
}
