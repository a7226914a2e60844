import Foundation

/// What a ``MockDataFolder`` remembers between requests: its listing, and the responses of the
/// files it read, each with the status of the file it came from.
struct FolderCache: Sendable {
    /// The folder's status when it was listed; `nil` until it is.
    var folder: FileSystem.Status?
    var names: Set<String> = []
    var files: [String: CachedFile] = [:]
    /// The bytes of body the cached responses hold.
    var bodyBytes = 0

    struct CachedFile: Sendable {
        let status: FileSystem.Status
        /// The file as the folder names it (not resolved), for the journal and the log.
        let url: URL
        let response: MockResponse
        let bodyBytes: Int
    }
}

extension MockDataFolder {
    /// Files up to this size are read whole and kept; larger ones are streamed.
    package static let cachedFileLimit = 256 * 1024
    /// The most body bytes a folder keeps in memory; past it, the kept files are forgotten.
    static let cacheBudget = 32 * 1024 * 1024

    /// The names of the files that may answer (`.http` and `.json`), listed again whenever the
    /// folder's status changes. A failed listing is never kept.
    func currentNames() throws(RequestMockerError) -> Set<String> {
        let status: FileSystem.Status
        let entries: [String]
        do {
            status = try FileSystem.status(of: root)
            if let names = cache.withLock({ $0.folder == status ? $0.names : nil }) { return names }
            entries = try FileSystem.names(in: root)
        } catch {
            throw .mockDataUnavailable(path: root, reason: error.reason)
        }
        let names = Set(entries.filter { $0.hasSuffix(".http") || $0.hasSuffix(".json") })
        // A folder that just changed may change again within the same modification time.
        guard !status.isRecentlyModified else { return names }
        cache.withLock { cache in
            cache.folder = status
            cache.names = names
            // Files no longer listed go; the others stay as long as their status holds.
            for (name, file) in cache.files where !names.contains(name) {
                cache.files[name] = nil
                cache.bodyBytes -= file.bodyBytes
            }
        }
        return names
    }

    /// Makes the next request list the folder again (after a recording wrote a file into it).
    func forgetListing() {
        cache.withLock { $0.folder = nil }
    }

    /// What is known of the file `name` without reading it: its response, from memory while the
    /// file is unchanged, or its status, for ``read(_:status:)``.
    enum Lookup {
        case cached(FolderCache.CachedFile)
        case unread(FileSystem.Status)
    }

    /// Looks the file `name` up: one status, and the cache.
    func lookUp(_ name: String) throws(RequestMockerError) -> Lookup {
        let path = root + "/" + name
        let status: FileSystem.Status
        do {
            status = try FileSystem.status(of: path)
        } catch {
            throw Self.failure(error, path: path)
        }
        if let cached = cache.withLock({ $0.files[name] }), cached.status == status {
            return .cached(cached)
        }
        return .unread(status)
    }

    /// Reads the file `name`, whose status was just taken, and keeps it in memory.
    func read(_ name: String, status: FileSystem.Status) throws(RequestMockerError) -> FolderCache.CachedFile {
        let path = root + "/" + name
        guard status.isRegularFile else { throw .fileNotReadable(path: path, reason: "it is not a regular file") }
        let file = try read(path, expecting: status)
        // A file that just changed may change again within the same modification time.
        guard !status.isRecentlyModified else { return file }
        cache.withLock { cache in
            if cache.bodyBytes + file.bodyBytes > Self.cacheBudget {
                cache.files = [:]
                cache.bodyBytes = 0
            }
            cache.bodyBytes += file.bodyBytes - (cache.files[name]?.bodyBytes ?? 0)
            cache.files[name] = file
        }
        return file
    }

    /// Reads the file at `path` (whose status was just taken), checking that it resolves inside
    /// the folder and is the file that status describes.
    private func read(
        _ path: String, expecting status: FileSystem.Status
    ) throws(RequestMockerError)
        -> FolderCache.CachedFile
    {
        // Small files are read whole (and kept); of larger ones only the head, to stream the rest.
        let isWhole = status.size <= Self.cachedFileLimit
        let resolved: String
        let prefix: (data: Data, status: FileSystem.Status)
        do {
            resolved = try FileSystem.resolvedPath(path)
            guard resolved.hasPrefix(root + "/") else {
                throw RequestMockerError.invalidMockDataFile(
                    path: path, reason: "it links to a file outside the folder; mock-data files must be inside it")
            }
            prefix = try FileSystem.read(
                resolved, upTo: isWhole ? status.size : HTTPResponseFile.maximumHeadSize)
        } catch let error as FileSystem.Failure {
            throw Self.failure(error, path: path)
        } catch let error as RequestMockerError {
            throw error
        } catch {
            throw .fileNotReadable(path: path, reason: "\(error)")
        }
        // A file replaced between the two looks: the next request reads it afresh.
        guard prefix.status == status else {
            throw .mockDataUnavailable(path: path, reason: "it changed while being read")
        }
        let file = URL(fileURLWithPath: resolved)
        let named = URL(fileURLWithPath: path)
        if path.hasSuffix(".json") {
            guard isWhole else {
                let body = FileSlice(url: file, length: status.size)
                let response = MockResponse(content: .slice(body, defaultContentType: MockResponse.jsonContentType))
                return FolderCache.CachedFile(status: status, url: named, response: response, bodyBytes: 0)
            }
            do {
                _ = try JSONValue(parsing: prefix.data)
            } catch {
                throw .invalidMockDataFile(path: path, reason: error.description)
            }
            let response = MockResponse.data(prefix.data, headers: [.contentType: MockResponse.jsonContentType])
            return FolderCache.CachedFile(status: status, url: named, response: response, bodyBytes: prefix.data.count)
        }
        let head: HTTPResponseFile.Head
        do {
            head = try HTTPResponseFile.head(of: prefix.data, isWholeFile: isWhole)
        } catch {
            throw .invalidMockDataFile(path: path, reason: error.description)
        }
        // The body is served as it is in the file, not chunked: these would describe it wrongly.
        let headers = head.headers.removing(HTTPHeaders.Name.framing)
        let response: MockResponse
        if isWhole {
            let body = prefix.data.subdata(in: (prefix.data.startIndex + head.bodyOffset)..<prefix.data.endIndex)
            response = MockResponse.data(body, status: head.status, headers: headers)
        } else {
            let body = FileSlice(url: file, offset: head.bodyOffset, length: status.size - head.bodyOffset)
            response = MockResponse(
                content: .slice(body, defaultContentType: nil), status: head.status, headers: headers)
        }
        return FolderCache.CachedFile(
            status: status, url: named, response: response.withHTTPVersion(head.httpVersion),
            bodyBytes: isWhole ? status.size : 0)
    }

    /// A file that is gone or unreadable is a mistake in the mocks; running out of descriptors
    /// passes.
    private static func failure(_ error: FileSystem.Failure, path: String) -> RequestMockerError {
        error.isDescriptorExhaustion
            ? .mockDataUnavailable(path: path, reason: error.reason)
            : .fileNotReadable(path: path, reason: error.reason)
    }
}
