import RequestMocker

extension SchemaGenerator {
    /// One `oneOf` or `anyOf` of a merged schema: its branches and the discriminator beside it.
    struct Group {
        let branches: [Schema]
        let discriminator: (property: String, mapping: [String: Schema], order: [String])?

        /// The branches in the order they are tried: the discriminator mapping's in its order,
        /// then the others, a branch that only allows `null` last.
        var preferredOrder: [Int] {
            var order: [Int] = []
            for name in discriminator?.order ?? [] {
                if let mapped = discriminator?.mapping[name], let index = branches.firstIndex(where: { $0 === mapped }),
                    !order.contains(index)
                {
                    order.append(index)
                }
            }
            let rest = branches.indices.filter { !order.contains($0) }
            let isNullOnly = { (index: Int) in self.branches[index].types == ["null"] }
            return order + rest.filter { !isNullOnly($0) } + rest.filter(isNullOnly)
        }
    }

    /// A schema with its `allOf` merged into one view: the types they share, every property,
    /// the tightest bounds. Its `oneOf`s and `anyOf`s are kept apart as groups, a branch of each
    /// to be chosen.
    struct Merged {
        /// The merged keywords, without `allOf`, `oneOf` or `anyOf`.
        let view: Schema
        private(set) var groups: [Group] = []
        /// The schemas merged, the given one first.
        private(set) var parts: [ObjectIdentifier] = []
        /// The examples of the merged schemas other than the given one, in order.
        private(set) var examples: [DocumentNode] = []
        /// What the merged schemas say the value must not be.
        private(set) var nots: [Schema] = []
        /// Why no value can satisfy every merged schema (their `const`s and `enum`s share no
        /// value), when none can.
        private(set) var conflict: String?

        /// How many schemas one `allOf` may merge.
        static let maximumParts = 64

        init(_ schema: Schema) throws(Failure) {
            // Nothing to merge (nearly every schema of a body): the schema is its own view, read
            // as it is, never changed (a merge's view is a schema of its own).
            if schema.allOf.isEmpty, schema.oneOf.isEmpty, schema.anyOf.isEmpty {
                view = schema
                parts = [ObjectIdentifier(schema)]
                if let not = schema.not { nots = [not] }
                if schema.enumNodes?.isEmpty == true {
                    conflict = "its enums share no value (the one at \(schema.pointer) among them)"
                } else if let constant = schema.constantNode, let options = schema.enumeration,
                    !options.contains(constant.jsonValue)
                {
                    conflict = "the const \(constant.jsonValue) at \(schema.pointer) is not in its enum"
                }
                return
            }
            view = Schema(source: schema.source, pointer: schema.pointer)
            view.acceptsNull = schema.acceptsNull
            var queue = [schema]
            var closed: [Set<String>] = []
            var next = 0
            while next < queue.count {
                let part = queue[next]
                next += 1
                let id = ObjectIdentifier(part)
                guard !parts.contains(id) else { continue }
                guard parts.count < Self.maximumParts else {
                    throw Failure(
                        pointer: schema.pointer,
                        reason: "schema too complex: its allOf merges more than \(Self.maximumParts) schemas")
                }
                parts.append(id)
                if part !== schema, let example = part.exampleNode { examples.append(example) }
                absorb(part)
                if let not = part.not { nots.append(not) }
                if !part.oneOf.isEmpty { groups.append(Group(branches: part.oneOf, discriminator: part.discriminator)) }
                if !part.anyOf.isEmpty { groups.append(Group(branches: part.anyOf, discriminator: part.discriminator)) }
                queue += part.allOf
                if case .forbidden = part.additionalProperties { closed.append(Set(part.properties.map(\.name))) }
            }
            // A part that allows no other properties keeps out what the others declare.
            for names in closed {
                view.properties.removeAll { !names.contains($0.name) }
                view.propertyIndex = view.propertyIndex.filter { names.contains($0.key) }
            }
        }

        /// Adds `part`'s keywords to the view: both must hold, so lists join and bounds tighten.
        private mutating func absorb(_ part: Schema) {
            view.types = Self.shared(view.types, part.types)
            absorbValues(of: part)
            view.format = view.format ?? part.format
            view.pattern = view.pattern ?? part.pattern
            for name in part.required where !view.required.contains(name) { view.required.append(name) }
            for (name, property) in part.properties {
                guard let existing = view.propertyIndex[name] else {
                    view.properties.append((name, property))
                    view.propertyIndex[name] = property
                    continue
                }
                guard existing !== property, let position = view.properties.firstIndex(where: { $0.name == name })
                else { continue }
                let both = Self.both(existing, property)
                view.properties[position].schema = both
                view.propertyIndex[name] = both
            }
            switch (view.additionalProperties, part.additionalProperties) {
            case (.forbidden, _), (_, .allowed): break
            case (_, .forbidden): view.additionalProperties = .forbidden
            case (.allowed, .schema(let extra)): view.additionalProperties = .schema(extra)
            case (.schema(let first), .schema(let second)):
                view.additionalProperties = .schema(Self.both(first, second))
            }
            view.minProperties = Self.larger(view.minProperties, part.minProperties)
            view.maxProperties = Self.smaller(view.maxProperties, part.maxProperties)
            if let items = part.items { view.items = view.items.map { Self.both($0, items) } ?? items }
            view.minItems = Self.larger(view.minItems, part.minItems)
            view.maxItems = Self.smaller(view.maxItems, part.maxItems)
            view.uniqueItems = view.uniqueItems || part.uniqueItems
            view.minLength = Self.larger(view.minLength, part.minLength)
            view.maxLength = Self.smaller(view.maxLength, part.maxLength)
            view.minimum = Self.larger(view.minimum, part.minimum)
            view.maximum = Self.smaller(view.maximum, part.maximum)
            view.exclusiveMinimum = Self.larger(view.exclusiveMinimum, part.exclusiveMinimum)
            view.exclusiveMaximum = Self.smaller(view.exclusiveMaximum, part.exclusiveMaximum)
            view.multipleOf = view.multipleOf ?? part.multipleOf
            view.readOnly = view.readOnly || part.readOnly
            view.writeOnly = view.writeOnly || part.writeOnly
        }

        /// `part`'s `enum` and `const` beside the view's: both hold, so the value is one they
        /// share (a property's `enum: [17]` beside an `allOf` of a wider enum keeps 17); when
        /// they share none, no value satisfies the merge.
        private mutating func absorbValues(of part: Schema) {
            if let options = part.enumNodes, let allowed = part.enumeration {
                if let constant = view.constantNode, !allowed.contains(constant.jsonValue) {
                    conflict = conflict ?? "its const \(constant.jsonValue) is not in the enum at \(part.pointer)"
                }
                let shared = view.enumNodes.map { $0.filter { allowed.contains($0.jsonValue) } } ?? options
                if shared.isEmpty {
                    conflict = conflict ?? "its enums share no value (the one at \(part.pointer) among them)"
                }
                view.enumNodes = shared
            }
            if let constant = part.constantNode {
                let value = constant.jsonValue
                if let written = view.constantNode, written.jsonValue != value {
                    conflict = conflict ?? "its consts differ (\(written.jsonValue) and \(value) at \(part.pointer))"
                } else if let options = view.enumNodes, !options.contains(where: { $0.jsonValue == value }) {
                    conflict = conflict ?? "the const \(value) at \(part.pointer) is not in its enum"
                }
                view.constantNode = view.constantNode ?? constant
            }
        }

        /// Whether `branch` may still hold beside the view: its own `const`, `enum` and types
        /// leave a value the view allows. A cheap test that spares generating branches that can't
        /// pass (a `oneOf` of seventeen `const`s beside an `enum` of one).
        func admits(_ branch: Schema) -> Bool {
            let allowed = view.constantNode.map { [$0.jsonValue] } ?? view.enumNodes?.map(\.jsonValue)
            if let allowed {
                if let constant = branch.constant, !allowed.contains(constant) { return false }
                if let options = branch.enumeration, !options.contains(where: allowed.contains) { return false }
            }
            if let types = view.types, let branchTypes = branch.types, Self.shared(types, branchTypes)?.isEmpty == true
            {
                return branch.acceptsNull && view.acceptsNull
            }
            return true
        }

        /// A schema that is both `first` and `second` (a property two parts declare).
        private static func both(_ first: Schema, _ second: Schema) -> Schema {
            guard first !== second else { return first }
            let both = Schema(source: first.source, pointer: first.pointer)
            both.allOf = [first, second]
            both.readOnly = first.readOnly || second.readOnly
            both.writeOnly = first.writeOnly || second.writeOnly
            return both
        }

        /// The types both allow (an integer is a number); `nil` is any type.
        private static func shared(_ first: Set<String>?, _ second: Set<String>?) -> Set<String>? {
            guard let first else { return second }
            guard let second else { return first }
            var shared = first.intersection(second)
            if first.contains("integer") && second.contains("number")
                || first.contains("number")
                    && second.contains("integer")
            {
                shared.insert("integer")
            }
            return shared
        }

        private static func larger<Bound: Comparable>(_ first: Bound?, _ second: Bound?) -> Bound? {
            guard let first, let second else { return first ?? second }
            return max(first, second)
        }

        private static func smaller<Bound: Comparable>(_ first: Bound?, _ second: Bound?) -> Bound? {
            guard let first, let second else { return first ?? second }
            return min(first, second)
        }
    }
}
