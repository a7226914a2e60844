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
/// ``MockRegistry/makeSession(configuration:delegate:delegateQueue:)``) gets a slot of its own
/// that also remembers the configuration, so its requests can be held to its
/// `timeoutIntervalForRequest`, which a URL protocol can't otherwise see.
enum RouteTable {
    private struct Slots: Sendable {
        var lastSlot = 0
        var destinations: [Int: Slot] = [:]
    }

    private struct Slot: Sendable {
        weak var registry: MockRegistry?
        let session: SessionConfiguration?
    }

    /// Where a slot's requests go, and the configuration of the sessions it was made for.
    struct Destination: Sendable {
        let registry: MockRegistry?
        let session: SessionConfiguration?
    }

    private static let slots = LockedState(Slots())

    /// A registry's protocol class, and the slot it reads its registry from (`nil` for
    /// ``MockURLProtocol`` itself, which serves ``MockRegistry/shared``).
    struct Route: Sendable {
        let slot: Int?
        let protocolClass: MockURLProtocol.Type

        static let shared = Route(slot: nil, protocolClass: MockURLProtocol.self)
    }

    /// A new slot and its protocol class, routed to `registry`, for the sessions of
    /// `configuration` when there is one.
    static func assign(_ registry: MockRegistry, for configuration: URLSessionConfiguration? = nil) -> Route {
        let session = configuration.map(SessionConfiguration.init)
        let slot = slots.withLock { slots in
            slots.lastSlot += 1
            slots.destinations[slots.lastSlot] = Slot(registry: registry, session: session)
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
            let found = slots.destinations[slot]
            return Destination(registry: found?.registry, session: found?.session)
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

/// The configuration a slot was made for, kept to read its `timeoutIntervalForRequest` when a
/// request starts.
///
/// `@unchecked Sendable`: `URLSessionConfiguration` isn't `Sendable` in FoundationNetworking.
/// This type only reads one `Double` from it, and a configuration is set up before the sessions
/// made from it send requests (changing it while they do is a race in the caller's code, as it
/// would be for `URLSession` itself).
final class SessionConfiguration: @unchecked Sendable {
    private let configuration: URLSessionConfiguration

    init(_ configuration: URLSessionConfiguration) {
        self.configuration = configuration
    }

    var timeoutIntervalForRequest: TimeInterval { configuration.timeoutIntervalForRequest }
}
