/// A response body: bytes in memory, a file read as it is sent (so the server can send a large
/// file in constant memory), or bytes that arrive over time (a forwarded response's).
package enum ResponseBody: Sendable {
    case bytes(Data)
    /// Part of a file (the whole of it, or a `.http` file's body), read as it is sent.
    case file(FileSlice)
    /// Relayed as it arrives; its length is known only when the sender announced it.
    case stream(BodyStream)

    /// The length in bytes, when it is known before the body is sent.
    package var count: Int? {
        switch self {
        case .bytes(let data): data.count
        case .file(let slice): slice.length
        case .stream(let stream): stream.expectedLength
        }
    }

    /// The whole body in memory.
    ///
    /// - Throws: ``RequestMockerError/fileNotReadable(path:reason:)`` when the file can't be read,
    ///   ``RequestMockerError/bodyBrokeOff(reason:)`` when a stream fails.
    package func data() throws(RequestMockerError) -> Data {
        switch self {
        case .bytes(let data):
            return data
        case .stream(let stream):
            // Waits for the rest (blocking): only a transport that can't relay pieces asks.
            do {
                return try stream.collected()
            } catch {
                throw .bodyBrokeOff(reason: (error as? URLError)?.reason ?? "\(error)")
            }
        case .file(let slice):
            do {
                let handle = try slice.open()
                defer { try? handle.close() }
                let data = try handle.read(upToCount: slice.length) ?? Data()
                guard data.count == slice.length else {
                    throw FileSlice.Shortened(expected: slice.length, found: data.count)
                }
                return data
            } catch {
                throw .fileNotReadable(path: slice.url.path, reason: FileSlice.reason(error))
            }
        }
    }
}

/// `length` bytes of a file, from `offset`.
package struct FileSlice: Sendable, Hashable {
    package let url: URL
    package let offset: Int
    package let length: Int

    init(url: URL, offset: Int = 0, length: Int) {
        self.url = url
        self.offset = offset
        self.length = length
    }

    /// The file, open and positioned at the slice's first byte.
    package func open() throws -> FileHandle {
        let handle = try FileHandle(forReadingFrom: url)
        if offset > 0 {
            do {
                try handle.seek(toOffset: UInt64(offset))
            } catch {
                try? handle.close()
                throw error
            }
        }
        return handle
    }

    /// The file got shorter after its size was read.
    struct Shortened: Error, CustomStringConvertible {
        let expected: Int
        let found: Int

        var description: String { "it shrank while being read: \(found) of \(expected) bytes were there" }
    }

    /// What went wrong, in words for an error message.
    package static func reason(_ error: any Error) -> String {
        if let shortened = error as? Shortened { return shortened.description }
        return (error as NSError).localizedDescription
    }
}
