// Feeds mutated inputs to RequestMocker's parsers and saves any input that crashes or stalls
// one. Each batch of inputs runs in a child process (this program with --child), so a crash
// names its input instead of ending the run.
//
//     swift run request-mocker-fuzz --smoke                                  # what .ci/run does
//     swift run -c release request-mocker-fuzz --count 1000000 --seed 7     # a long run
//     swift run request-mocker-fuzz --target json --replay FILE             # reproduce a finding
//
// Targets: json, pattern, http-file, har, yahttpvcr, script, request-head, websocket, openapi,
// schema-pattern, schema-validation, yaml, draft, form-body (or all).
// Findings go to .build/fuzz-findings (--findings DIR); the exit status is 1 when there are any.
import Foundation
import RequestMockerFuzzing

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("request-mocker-fuzz: \(message)\n".utf8))
    exit(2)
}

// MARK: Child: run a batch, writing each input's number before running it

if let index = CommandLine.arguments.firstIndex(of: "--child"), index + 3 < CommandLine.arguments.count {
    let arguments = CommandLine.arguments
    guard let target = FuzzTarget.named(arguments[index + 1]),
        let batch = FileManager.default.contents(atPath: arguments[index + 2]),
        let progress = FileHandle(forWritingAtPath: arguments[index + 3])
    else { fail("bad --child arguments") }
    let inputs = InputBatch.decode(batch)
    let start = Int(option("--from") ?? "0") ?? 0
    for number in start..<inputs.count {
        progress.write(Data("\(number)\n".utf8))
        target.run(inputs[number])
    }
    progress.write(Data("done\n".utf8))
    exit(0)
}

// MARK: Replay one input in this process

if let file = option("--replay") {
    guard let target = FuzzTarget.named(option("--target") ?? ""),
        let input = FileManager.default.contents(atPath: file)
    else { fail("--replay needs --target NAME and a readable FILE") }
    target.run(input)
    print("\(target.name): \(file) ran to the end")
    exit(0)
}

// MARK: Parent

let isSmoke = CommandLine.arguments.contains("--smoke")
let count = Int(option("--count") ?? "") ?? 2_000
let seed = UInt64(option("--seed") ?? "") ?? 1
let findings = URL(fileURLWithPath: option("--findings") ?? ".build/fuzz-findings")
let batchSize = 500
/// No progress for this long is a stall (debug builds parse the largest inputs in well under it).
let stallAfter: Duration = .seconds(10)
let targets: [FuzzTarget]
switch option("--target") ?? "all" {
case "all": targets = FuzzTarget.all
case let name:
    guard let target = FuzzTarget.named(name) else {
        fail("no target \(name); use one of \(FuzzTarget.all.map(\.name).joined(separator: ", ")) or all")
    }
    targets = [target]
}
let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("request-mocker-fuzz-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)

/// How one child run ended.
enum ChildEnd {
    case finished
    /// Crashed or stalled on input `number` (`nil`: before the first).
    case failed(number: Int?, reason: String)
}

/// Runs the batch from input `start` in a child process.
func runChild(_ target: FuzzTarget, batch: URL, from start: Int) throws -> ChildEnd {
    let progress = scratch.appendingPathComponent("progress")
    _ = FileManager.default.createFile(atPath: progress.path, contents: nil)
    let process = Process()
    process.executableURL = executable
    process.arguments = ["--child", target.name, batch.path, progress.path, "--from", String(start)]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    let clock = ContinuousClock()
    var lastChange = clock.now
    var lastSize = 0
    func lastLine() -> String {
        let text = String(decoding: FileManager.default.contents(atPath: progress.path) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").last.map(String.init) ?? ""
    }
    while ended.wait(timeout: .now() + .milliseconds(20)) == .timedOut {
        let size = (try? FileManager.default.attributesOfItem(atPath: progress.path)[.size] as? Int) ?? 0
        if size != lastSize {
            lastSize = size
            lastChange = clock.now
        } else if lastChange.duration(to: clock.now) > stallAfter {
            process.terminate()
            ended.wait()
            return .failed(number: Int(lastLine()), reason: "stalled for \(stallAfter)")
        }
    }
    if process.terminationReason == .exit, process.terminationStatus == 0, lastLine() == "done" { return .finished }
    let how =
        process.terminationReason == .uncaughtSignal
        ? "crashed (signal \(process.terminationStatus))" : "exited with status \(process.terminationStatus)"
    return .failed(number: Int(lastLine()), reason: how)
}

var found: [String] = []
for target in targets {
    let clock = ContinuousClock()
    let began = clock.now
    var mutator = Mutator(
        seed: seed &* 0x100_0000_01B3 &+ target.name.utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) },
        seeds: target.seeds, tokens: target.tokens)
    var done = 0
    while done < count {
        let inputs = (0..<min(batchSize, count - done)).map { _ in mutator.input() }
        let batch = scratch.appendingPathComponent("batch")
        try InputBatch.encode(inputs).write(to: batch)
        var start = 0
        while start < inputs.count {
            switch try runChild(target, batch: batch, from: start) {
            case .finished:
                start = inputs.count
            case .failed(let number, let reason):
                let culprit = number ?? start
                try FileManager.default.createDirectory(at: findings, withIntermediateDirectories: true)
                let hash = inputs[culprit].reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
                let file = findings.appendingPathComponent("\(target.name)-\(String(hash, radix: 16)).input")
                try inputs[culprit].write(to: file)
                found.append("\(target.name): input \(done + culprit) \(reason): \(file.path)")
                print("  \(found.last ?? "")")
                start = culprit + 1
            }
        }
        done += inputs.count
    }
    let seconds =
        Double(began.duration(to: clock.now).components.seconds)
        + Double(began.duration(to: clock.now).components.attoseconds) / 1e18
    print(String(format: "%@: %d inputs in %.1f s", target.name, count, seconds))
}
try? FileManager.default.removeItem(at: scratch)
if found.isEmpty {
    print(isSmoke ? "smoke run: no crash and no stall" : "no crash and no stall")
    exit(0)
}
print("\(found.count) finding\(found.count == 1 ? "" : "s"); reproduce one with --target NAME --replay FILE")
exit(1)
