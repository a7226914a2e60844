import Foundation
import RequestMocker

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process started with `posix_spawnp`, not Foundation's `Process`: swift-corelibs-foundation
/// 6.3.1's `Process.run()` reads `/proc/self/fd` with a struct copy of each `dirent` that can run
/// past glibc's buffer onto an unmapped page (fixed upstream since), and it crashed the test run
/// that way twice in a day. Output goes to files, never pipes; the child starts with no signal
/// blocked and default signal handlers (Swift concurrency's threads block some, and a child
/// inherits the mask); its end is awaited on a thread of its own, never on Swift concurrency's.
///
/// No child outlives the test process: every one still running when the process exits is
/// stopped then (``ChildProcess/stopAll()``, run by `atexit`), and on Linux each is started with a
/// parent-death signal, so a test process that is killed takes its children with it.
package final class ChildProcess: Sendable {
    package let pid: pid_t
    private let ended: Task<Int32, Never>
    /// Set once the process has been waited for: its pid may then belong to another.
    private let reaped = LockedState(false)

    /// Starts `arguments[0]`, found on `PATH`, with standard input from `input` and output and
    /// errors into `output` and `errors` (`/dev/null` when `nil`), in `directory` when given.
    package init(
        _ arguments: [String], input: String? = nil, output: String? = nil, errors: String? = nil,
        directory: String? = nil
    ) async throws {
        // In another directory through the shell (`posix_spawn_file_actions_addchdir_np` isn't in
        // Swift's Glibc module): `sh -c 'cd "$0" && exec "$@"' DIRECTORY PROGRAM ARGUMENTS…`.
        // A program that isn't there fails here, not as the exit status of the wrapper.
        guard let program = Self.executable(named: arguments[0]) else {
            throw SpawnFailed(program: arguments[0], code: ENOENT)
        }
        let resolved = [program] + arguments.dropFirst()
        let command =
            ParentDeath.prefix
            + (directory.map { ["/bin/sh", "-c", #"cd "$0" && exec "$@""#, $0] + resolved } ?? resolved)
        let spawned = try await ParentDeath.onSpawningThread {
            try Self.spawn(command, program: arguments[0], input: input, output: output, errors: errors)
        }
        pid = spawned
        let reaped = reaped
        Self.live.withLock { _ = $0.insert(spawned) }
        ended = Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var status: Int32 = 0
                    while waitpid(spawned, &status, 0) < 0, errno == EINTR {}
                    reaped.withLock { $0 = true }
                    Self.live.withLock { _ = $0.remove(spawned) }
                    // As `Process.terminationStatus`: the exit code, or the signal that ended it.
                    let signal = status & 0x7F
                    continuation.resume(returning: signal == 0 ? (status >> 8) & 0xFF : signal)
                }
            }
        }
        Self.stopAllAtExit
    }

    /// `name` itself when it is a path, else the first executable of that name on `PATH`.
    package static func executable(named name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").lazy.map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func spawn(
        _ command: [String], program: String, input: String?, output: String?, errors: String?
    ) throws -> pid_t {
        // Darwin's spawn types are pointers its `_init` functions allocate, imported as
        // optionals; Glibc's are structs.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if let errors, errors == output {
            // One file for both, written through one description so neither overwrites the other.
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        // Only standard input, output and errors go to the child, as Foundation's `Process` has
        // it: a test's open sockets (a server's listener) must not live on in a client.
        for descriptor in openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, command[0], &actions, &attributes, argv, environ)
        guard status == 0 else { throw SpawnFailed(program: program, code: status) }
        return pid
    }

    /// This process's open descriptors, from `/proc/self/fd` (closing one that has meanwhile
    /// closed is harmless: the child skips it), or every one below the limit where there is no
    /// `/proc`.
    private static func openDescriptors() -> [Int32] {
        if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            return names.compactMap { Int32($0) }
        }
        return Array(0..<Int32(min(getdtablesize(), 4096)))
    }

    /// The exit status (or the signal that ended the process), once it has ended.
    ///
    /// A task cancelled while it waits (a test past its time limit) kills the process, so the
    /// wait always ends.
    package var exitStatus: Int32 {
        get async {
            await withTaskCancellationHandler {
                await ended.value
            } onCancel: {
                send(SIGKILL)
            }
        }
    }

    /// Whether the process has ended (and been waited for).
    package var hasEnded: Bool { reaped.withLock { $0 } }

    /// Sends `signal` (SIGTERM, SIGINT) unless the process has been waited for.
    package func send(_ signal: Int32) {
        reaped.withLock { isReaped in
            if !isReaped { kill(pid, signal) }
        }
    }

    /// Asks the process to end (SIGTERM), kills it if it is still running after `grace`, and
    /// waits until it has ended: a stop that can't hang on a process that ignores the request.
    package func stop(grace: Duration = .seconds(5)) async {
        send(SIGTERM)
        let killer = Task { [self] in
            guard (try? await Task.sleep(for: grace)) != nil else { return }
            send(SIGKILL)
        }
        _ = await exitStatus
        killer.cancel()
    }

    /// The children started and not yet waited for.
    private static let live = LockedState<Set<pid_t>>([])

    /// Registers ``stopAll()`` with `atexit` the first time a child starts.
    private static let stopAllAtExit: Void = { atexit { ChildProcess.stopAll() } }()

    /// Stops every child still running: SIGTERM, then SIGKILL for any still there after a
    /// second, waiting (at most a second each time) for their reaper threads to see them end.
    /// Runs when the test process exits, so shared servers don't outlive the run.
    package static func stopAll() {
        for signal in [SIGTERM, SIGKILL] {
            let running = live.withLock { $0 }
            guard !running.isEmpty else { return }
            for pid in running { kill(pid, signal) }
            for _ in 0..<100 where !live.withLock({ $0.isEmpty }) { usleep(10_000) }
        }
    }

    /// `posix_spawnp` failed.
    package struct SpawnFailed: Error, CustomStringConvertible {
        let program: String
        let code: Int32
        package var description: String { "could not start \(program): \(String(cString: strerror(code)))" }
    }
}
