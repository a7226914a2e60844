import Foundation

/// A fresh folder under the temporary directory, removed when the value goes away.
package final class TemporaryFolder: Sendable {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("RequestMockerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    @discardableResult
    package func write(_ name: String, _ text: String) throws -> URL {
        try write(name, Data(text.utf8))
    }

    /// Writes `data` to `name` (a path under the folder; missing folders on the way are made).
    @discardableResult
    package func write(_ name: String, _ data: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
        return file
    }
}
