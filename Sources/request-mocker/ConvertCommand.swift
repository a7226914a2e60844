import Foundation
import RequestMocker

/// `request-mocker convert IN OUT`: a YAHTTPVCR cassette or a HAR file into HAR or a mock-data
/// folder, and a mock-data folder into HAR, with the default redaction.
enum ConvertCommand {
    static func run(_ options: CommandLineOptions.ConvertOptions) -> Never {
        let input = URL(fileURLWithPath: options.input)
        let output = URL(fileURLWithPath: options.output)
        let toHAR = output.pathExtension.lowercased() == "har"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder) else {
            fail("no file or folder at \(options.input)", status: ExitCode.noInput)
        }
        let interactions: [Interaction]
        var skipped: [String] = []
        let what: String
        if isFolder.boolValue {
            guard toHAR else {
                fail(
                    "\(options.input) is a mock-data folder, which converts into a HAR file: name OUT something.har",
                    status: ExitCode.usage)
            }
            do {
                (interactions, skipped) = try TrafficConversion.interactions(
                    ofMockDataFolder: input, base: options.host ?? URL(string: "http://localhost")!)
            } catch {
                fail("cannot read the folder \(options.input): \(error.localizedDescription)", status: ExitCode.noInput)
            }
            what = "mock-data folder"
        } else {
            let cassette: Cassette
            do {
                cassette = try Cassette(
                    contentsOf: input, record: .none, playback: .momentary, matchers: CassetteMatcher.default,
                    redaction: .default, hosts: .all, repeatsLastResponse: false, environment: [:])
            } catch RequestMockerError.cassetteNotReadable(let path, let reason) {
                fail("cannot read \(path): \(reason)", status: ExitCode.noInput)
            } catch {
                fail("\(error)", status: ExitCode.dataError)
            }
            interactions = cassette.interactions
            what = cassette.isYAHTTPVCR ? "YAHTTPVCR cassette" : "HAR file"
        }
        let count: Int
        do {
            if toHAR {
                try TrafficConversion.writeHAR(interactions, to: output, redaction: .default)
                count = interactions.count
            } else {
                let result = try TrafficConversion.writeMockData(interactions, into: output, redaction: .default)
                count = result.written.count
                skipped += result.skipped
            }
        } catch {
            fail("cannot write \(options.output): \(error.localizedDescription)", status: ExitCode.cantCreate)
        }
        printLine(
            "converted \(count) of \(count + skipped.count) from the \(what) \(options.input) into "
                + (toHAR ? "the HAR file " : "the mock-data folder ") + options.output)
        for reason in skipped { printLine("  left out \(reason)") }
        exit(0)
    }
}
