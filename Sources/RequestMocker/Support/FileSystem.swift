import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few file-system calls the mock-data folder makes on every request, below Foundation:
/// `FileManager` builds a dictionary of attributes per call and reports a missing descriptor
/// no differently from a missing file, and both matter here. Everything spelled differently on
/// Linux and Apple platforms is in this file.
package enum FileSystem {
    /// What `stat(2)` says of a file: enough to tell whether it is still the one read before
    /// (two statuses are equal when identity, size, modification and status-change time all
    /// are). The change time moves on every write and on every setting of the modification time,
    /// so a tool that writes a file and then puts its old modification time back still changes
    /// the status.
    package struct Status: Hashable, Sendable {
        let device: UInt64
        let inode: UInt64
        let size: Int
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int
        let changedSeconds: Int
        let changedNanoseconds: Int
        let isDirectory: Bool
        let isRegularFile: Bool

        /// Whether the file changed within the last second (or claims a time to come), by the later
        /// of its modification and change times (a tool may set an old modification time). Within
        /// that window a change can keep the same modification time, since file systems advance
        /// it in ticks of up to a few milliseconds, so what was read then may not be the file's
        /// final content.
        var isRecentlyModified: Bool {
            let modified = Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9
            let changed = Double(changedSeconds) + Double(changedNanoseconds) / 1e9
            return Date().timeIntervalSince1970 - max(modified, changed) < 1
        }

        fileprivate init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
            size = Int(info.st_size)
            #if canImport(Glibc)
                modifiedSeconds = Int(info.st_mtim.tv_sec)
                modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
                changedSeconds = Int(info.st_ctim.tv_sec)
                changedNanoseconds = Int(info.st_ctim.tv_nsec)
            #else
                modifiedSeconds = Int(info.st_mtimespec.tv_sec)
                modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
                changedSeconds = Int(info.st_ctimespec.tv_sec)
                changedNanoseconds = Int(info.st_ctimespec.tv_nsec)
            #endif
            isDirectory = info.st_mode & S_IFMT == S_IFDIR
            isRegularFile = info.st_mode & S_IFMT == S_IFREG
        }
    }

    /// Why a call failed, in the system's own words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        let code: Int32
        let reason: String

        /// The process, or the whole system, has no file descriptor left: a condition that
        /// passes, unlike a missing or unreadable file.
        var isDescriptorExhaustion: Bool { code == EMFILE || code == ENFILE }

        fileprivate init(code: Int32) {
            self.code = code
            reason = String(cString: strerror(code))
        }

        package var description: String { reason }
    }

    /// `stat(2)`, following links.
    static func status(of path: String) throws(Failure) -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(code: errno) }
        return Status(info)
    }

    /// The path with every link and `.`/`..` resolved (`realpath(3)`).
    static func resolvedPath(_ path: String) throws(Failure) -> String {
        guard let resolved = realpath(path, nil) else { throw Failure(code: errno) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The names in a folder, `.` and `..` left out.
    static func names(in folder: String) throws(Failure) -> [String] {
        guard let directory = opendir(folder) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Up to `count` bytes from the start of a file, and the status of the file that was read
    /// (taken from the open descriptor, so it describes exactly those bytes).
    package static func read(_ path: String, upTo count: Int) throws(Failure) -> (data: Data, status: Status) {
        // Not inherited by processes started meanwhile; and a FIFO put in the file's place
        // can't block the open (`fstat` below then finds it isn't the file looked at).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Failure(code: errno) }
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let result = data.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, count - filled)
            }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw Failure(code: errno) }
            if result == 0 { break }
            filled += result
        }
        data.count = filled
        return (data, Status(info))
    }

    /// `rename(2)`: replaces `destination` in one step, so a reader sees the old file or the new
    /// one, never a part.
    static func rename(_ source: String, to destination: String) throws(Failure) {
        guard systemRename(source, destination) == 0 else { throw Failure(code: errno) }
    }

    /// Creates the file at `path`, which must not exist (`O_EXCL`), writes `data` into it and,
    /// when `flushing`, flushes it to disk (`fsync`). Not `FileManager.createFile`: on Linux it writes through a
    /// temporary file of its own (`.dat.nosync<pid>.<random>`, renamed into place), which a
    /// process killed meanwhile leaves behind under a name nobody removes.
    static func writeNew(_ data: Data, to path: String, flushing: Bool = true) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(code: errno) }
        defer { close(descriptor) }
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, data.count - written)
            }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Failure(code: result < 0 ? errno : EIO) }
            written += result
        }
        guard !flushing || fsync(descriptor) == 0 else { throw Failure(code: errno) }
    }

    /// Whether a process with this identifier exists (`kill(pid, 0)`; a process of another user
    /// counts as existing).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    static var currentProcess: Int32 { getpid() }

    private static func systemRename(_ source: String, _ destination: String) -> Int32 {
        #if canImport(Glibc)
            Glibc.rename(source, destination)
        #else
            Darwin.rename(source, destination)
        #endif
    }

    private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, buffer, count)
        #else
            Darwin.write(descriptor, buffer, count)
        #endif
    }

    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.read(descriptor, buffer, count)
        #else
            Darwin.read(descriptor, buffer, count)
        #endif
    }
}
