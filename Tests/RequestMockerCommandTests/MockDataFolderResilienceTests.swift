import Foundation
import RequestMockerTestSupport
import Testing

/// `request-mocker serve` of a folder keeps answering from the folder when a request arrives while
/// the process has no file descriptor left.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockDataFolderResilienceTests {
    /// `Fixtures/descriptor_limit_client.py`: starts the command under a descriptor limit, then
    /// holds idle connections open one more at a time, changing the folder before each request
    /// so that it is listed again, until a request finds no descriptor for the listing or the
    /// file. Then it lets every connection go and asks once more.
    static func script() throws -> URL {
        try #require(
            Bundle.module.url(forResource: "descriptor_limit_client", withExtension: "py", subdirectory: "Fixtures"))
    }

    struct Outcome: Decodable {
        let statuses: [String]
        let refusal: String
        let after: String
    }

    @Test func runningOutOfDescriptorsIs503AndIsNotRemembered() async throws {
        let folder = try TemporaryFolder()
        try folder.write("GET|-users.json", #"[{"id": 1}]"#)
        let result = try await ExternalProcess.python(
            file: try Self.script(), [Command.executable.path, folder.url.path, "64"], timeout: .seconds(120))
        #expect(result.status == 0, "\(result.error)")
        let outcome = try JSONDecoder().decode(Outcome.self, from: Data(result.output.utf8))
        #expect(outcome.statuses.count > 1, "the first request already found no descriptor")
        #expect(outcome.statuses.dropLast().allSatisfy { $0 == "200" }, "\(outcome.statuses)")
        #expect(outcome.statuses.last == "503", "\(outcome.statuses)")
        #expect(outcome.refusal.contains("could not be read just now: Too many open files"), "\(outcome.refusal)")
        #expect(outcome.after == "200", "a failed listing was remembered")
    }
}
