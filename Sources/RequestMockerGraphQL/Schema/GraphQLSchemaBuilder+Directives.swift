/// The rules for directives used in a schema: each is defined, used where its definition allows,
/// once unless it is repeatable, with the arguments it defines and the ones it requires.
extension GraphQLSchemaBuilder {
    mutating func checkDirectiveUses() {
        var seen = Set<String>()
        for (use, location, owner) in directiveUses {
            let name = use.name.value
            guard let directive = directives[name] else {
                problem(
                    at: use.offset,
                    "Unknown directive \"@\(name)\" (on \(owner)): define it with `directive @\(name) on "
                        + "\(location)`, or correct the name."
                        + didYouMean(suggestions(for: name, among: directiveNames), prefix: "@"))
                continue
            }
            if !directive.locations.contains(location) {
                problem(
                    at: use.offset,
                    "Directive \"@\(name)\" may not be used on \(location) (on \(owner)): it is allowed on "
                        + directive.locations.joined(separator: ", ") + ".")
            }
            if !directive.isRepeatable, !seen.insert("\(owner)|\(location)|\(name)").inserted {
                problem(
                    at: use.offset,
                    "The directive \"@\(name)\" can only be used once at this location (on \(owner)): remove one, "
                        + "or define it `repeatable`.")
            }
            checkArguments(of: use, against: directive)
        }
    }

    private mutating func checkArguments(of use: GraphQLDirective, against directive: GraphQLDirectiveType) {
        var given = Set<String>()
        for argument in use.arguments {
            let name = argument.name.value
            if !given.insert(name).inserted {
                problem(at: argument.name.offset, "There can be only one argument named \"\(name)\": remove one.")
            }
            if directive.arguments.first(where: { $0.name == name }) == nil {
                problem(
                    at: argument.name.offset,
                    "Unknown argument \"\(name)\" on directive \"@\(directive.name)\": remove it."
                        + didYouMean(suggestions(for: name, among: directive.arguments.map(\.name))))
            }
        }
        for argument in directive.arguments where argument.type.isNonNull && argument.defaultValue == nil {
            if !given.contains(argument.name) {
                problem(
                    at: use.offset,
                    "Directive \"@\(directive.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is "
                        + "required, but it was not provided: add `\(argument.name): …`.")
            }
        }
    }
}
