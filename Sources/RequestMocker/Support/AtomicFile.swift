import Foundation

/// Writes a file so that it is always either its old or its new content: to a temporary file
/// beside it, then renamed over it.
///
/// The temporary file is named `.request-mocker-HASH-PID-RANDOM.tmp`, HASH standing for the
/// file's name (a name of its own, short enough for any file name the package writes), so one
/// left behind by a process that was killed mid-write is recognisable; each write removes such
/// leftovers of the same file whose process no longer exists.
package enum AtomicFile {
    /// - Parameter flushing: whether the new content is flushed to disk before it replaces the old
    ///   (so a power cut, too, leaves one or the other); without it, a killed process still does,
    ///   at a fraction of the cost of writes that come often (`serve --state`, after each change).
    package static func write(_ data: Data, to url: URL, flushing: Bool = true) throws {
        let folder = url.deletingLastPathComponent()
        let prefix = ".request-mocker-" + shortHash(url.lastPathComponent) + "-"
        removeLeftovers(startingWith: prefix, in: folder)
        let temporary = folder.appendingPathComponent(
            prefix + "\(FileSystem.currentProcess)-\(UUID().uuidString.prefix(8)).tmp")
        do {
            // Created, written and flushed with the system's calls: FileManager's `createFile`
            // goes through a temporary file of its own, which a kill in the middle leaves behind.
            try FileSystem.writeNew(data, to: temporary.path, flushing: flushing)
            try FileSystem.rename(temporary.path, to: url.path)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Eight hex digits of the name's FNV-1a hash.
    static func shortHash(_ name: String) -> String {
        let hash = name.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Removes `PREFIX<pid>-….tmp` files whose process is gone.
    private static func removeLeftovers(startingWith prefix: String, in folder: URL) {
        guard let names = try? FileSystem.names(in: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let pid = name.dropFirst(prefix.count).prefix { $0 != "-" }
            guard let pid = Int32(pid), !FileSystem.processExists(pid) else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }
}
