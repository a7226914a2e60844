/// A response body: bytes in memory, or a file read as it is sent, so the server can stream a
/// large file in constant memory.
package enum ResponseBody: Sendable {
    case bytes(Data)
    /// A file of `length` bytes (its size when the response was resolved).
    case file(URL, length: Int)

    package var count: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let length): length
        }
    }

    /// The whole body in memory.
    ///
    /// - Throws: ``RequestMockerError/fileNotReadable(path:reason:)`` when the file can't be read.
    package func data() throws(RequestMockerError) -> Data {
        switch self {
        case .bytes(let data):
            return data
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .fileNotReadable(path: url.path, reason: (error as NSError).localizedDescription)
            }
        }
    }
}
