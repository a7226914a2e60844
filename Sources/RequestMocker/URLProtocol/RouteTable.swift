/// Gives every registry a `URLProtocol` class of its own, so a session's requests reach the
/// registry the session was made for.
///
/// On Linux nothing attached to a session reaches its URL protocol: `httpAdditionalHeaders`
/// and `URLProtocol.setProperty` are dropped, and task-locals are gone by `startLoading`. The
/// class is the one thing a configuration carries to the protocol. Swift can't create classes
/// at run time, but it can instantiate a generic class with a new type argument, so each
/// registry's slot number is spelled in types (`RoutedMockURLProtocol<Bit1<Bit0<Bit1<End>>>>` is
/// slot 5) and the class reads its number back from its type. Slots are never reused, so a
/// session that outlives its registry can't reach a newer one.
///
/// Swift registers generic `NSObject` subclasses with the Objective-C runtime as well, so the
/// same should hold on Apple platforms; that is not something this Linux machine can run, which
/// is why the whole trick stays in this one file.
///
/// A configuration made by ``URLSessionConfiguration/mocking(_:basedOn:)`` (and so
/// ``MockRegistry/makeSession(configuration:delegate:delegateQueue:)``) gets the slot of its
/// registry, `timeoutIntervalForRequest` and cookie settings (``CookieJar``), which a URL
/// protocol can't otherwise see: one slot per registry, timeout and cookie storage alive at
/// once (a slot whose storage is gone serves the next), so making sessions one after another
/// doesn't add slots.
enum RouteTable {
    private struct Slots: Sendable {
        var lastSlot = 0
        var destinations: [Int: Slot] = [:]
    }

    /// A class, so that looking one up for every request copies a reference rather than its
    /// weak references (each copy of a weak reference goes through its side table).
    ///
    /// @unchecked Sendable: `cookies` changes only under the slots' lock.
    private final class Slot: @unchecked Sendable {
        weak var registry: MockRegistry?
        let sessionTimeout: TimeInterval?
        /// The cookie settings of the configuration the slot serves now, its storage held
        /// weakly: a configuration (and every session made from it) holds its storage, so once
        /// the storage is gone no session uses the slot, and the next configuration with the
        /// same settings may take it over.
        var cookies: WeakCookieJar?

        init(registry: MockRegistry, sessionTimeout: TimeInterval?, cookies: WeakCookieJar?) {
            self.registry = registry
            self.sessionTimeout = sessionTimeout
            self.cookies = cookies
        }
    }

    /// Where a slot's requests go, and the `timeoutIntervalForRequest` and cookie settings of
    /// the session configurations it was made for, if any.
    struct Destination: Sendable {
        let registry: MockRegistry?
        let sessionTimeout: TimeInterval?
        var cookies: CookieJar? = nil
    }

    /// A ``CookieJar`` whose storage is held weakly.
    struct WeakCookieJar: @unchecked Sendable {
        // @unchecked Sendable: as `CookieJar`; the weak reference is read under the slots' lock.
        weak var storage: HTTPCookieStorage?
        let accepts: Bool
        let sends: Bool

        init(_ jar: CookieJar) {
            storage = jar.storage
            accepts = jar.accepts
            sends = jar.sends
        }

        var jar: CookieJar? {
            storage.map { CookieJar(storage: $0, accepts: accepts, sends: sends) }
        }
    }

    private static let slots = LockedState(Slots())

    /// A registry's protocol class, and the slot it reads its registry from (`nil` for
    /// ``MockURLProtocol`` itself, which serves ``MockRegistry/shared``).
    struct Route: Sendable {
        let slot: Int?
        let protocolClass: MockURLProtocol.Type

        static let shared = Route(slot: nil, protocolClass: MockURLProtocol.self)
    }

    /// A new slot and its protocol class, routed to `registry`, for sessions whose
    /// configuration has `sessionTimeout` when there is one.
    static func assign(
        _ registry: MockRegistry, sessionTimeout: TimeInterval? = nil, cookies: CookieJar? = nil
    ) -> Route {
        let slot = slots.withLock { slots in
            slots.lastSlot += 1
            slots.destinations[slots.lastSlot] = Slot(
                registry: registry, sessionTimeout: sessionTimeout, cookies: cookies.map(WeakCookieJar.init))
            return slots.lastSlot
        }
        var type: any RouteSlot.Type = SlotEnd.self
        for bit in stride(from: Int.bitWidth - slot.leadingZeroBitCount - 1, through: 0, by: -1) {
            type = appending(slot >> bit & 1 == 1, to: type)
        }
        return Route(slot: slot, protocolClass: protocolClass(for: type))
    }

    static func destination(forSlot slot: Int) -> Destination {
        slots.withLock { slots in
            guard let found = slots.destinations[slot] else { return Destination(registry: nil, sessionTimeout: nil) }
            return Destination(
                registry: found.registry, sessionTimeout: found.sessionTimeout, cookies: found.cookies?.jar)
        }
    }

    /// Points `route` at `jar`'s storage when the route serves that storage already or its
    /// storage is gone; `false` when another live storage holds it.
    static func take(_ route: Route, for jar: CookieJar) -> Bool {
        guard let slot = route.slot else { return false }
        return slots.withLock { slots in
            guard let found = slots.destinations[slot], let current = found.cookies else { return false }
            if let storage = current.storage { return storage === jar.storage }
            found.cookies = WeakCookieJar(jar)
            return true
        }
    }

    static func release(_ route: Route) {
        guard let slot = route.slot else { return }
        slots.withLock { _ = $0.destinations.removeValue(forKey: slot) }
    }

    private static func appending<Rest: RouteSlot>(_ bit: Bool, to _: Rest.Type) -> any RouteSlot.Type {
        bit ? SlotBit1<Rest>.self : SlotBit0<Rest>.self
    }

    private static func protocolClass<Slot: RouteSlot>(for _: Slot.Type) -> MockURLProtocol.Type {
        RoutedMockURLProtocol<Slot>.self
    }
}

/// A slot number spelled as a type, least significant bit outermost; see
/// ``RouteTable``.
protocol RouteSlot {
    static var number: Int { get }
}

enum SlotEnd: RouteSlot {
    static var number: Int { 0 }
}

enum SlotBit0<Rest: RouteSlot>: RouteSlot {
    static var number: Int { Rest.number << 1 }
}

enum SlotBit1<Rest: RouteSlot>: RouteSlot {
    static var number: Int { Rest.number << 1 | 1 }
}

/// The protocol class of one registry's slot.
final class RoutedMockURLProtocol<Slot: RouteSlot>: MockURLProtocol {
    override class var destination: RouteTable.Destination {
        RouteTable.destination(forSlot: Slot.number)
    }

    override class var routesToShared: Bool { false }
}
