/// The rules about the directives a document uses.
enum DirectiveRules {
    static func knownDirectives(_ context: inout ValidationContext) {
        // In document order: an operation's variables' directives before its own, as graphql-js
        // visits them.
        let lists = context.directiveLists.sorted {
            ($0.directives.first?.offset ?? 0) < ($1.directives.first?.offset ?? 0)
        }
        for (directives, location, _) in lists {
            for directive in directives {
                let name = directive.name.value
                guard let known = context.schema.directives[name] else {
                    context.report(
                        "Unknown directive \"@\(name)\"."
                            + didYouMean(suggestions(for: name, among: context.schema.directiveNames), prefix: "@"),
                        at: [directive.offset])
                    continue
                }
                if !known.locations.contains(location) {
                    context.report("Directive \"@\(name)\" may not be used on \(location).", at: [directive.offset])
                }
            }
        }
    }

    /// A directive that isn't repeatable is used once at a place.
    static func uniqueDirectivesPerLocation(_ context: inout ValidationContext) {
        for (directives, _, _) in context.directiveLists where directives.count > 1 {
            var first: [String: Int] = [:]
            for directive in directives {
                let name = directive.name.value
                guard let known = context.schema.directives[name], !known.isRepeatable else { continue }
                if let earlier = first[name] {
                    context.report(
                        "The directive \"@\(name)\" can only be used once at this location.",
                        at: [earlier, directive.offset])
                } else {
                    first[name] = directive.offset
                }
            }
        }
    }
}
