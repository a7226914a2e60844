import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// graphql-js's own tests of the validation rules (as vektah/gqlparser exported them to YAML,
/// kept under `Fixtures/graphql-js-validation` with their license): each case's query is checked
/// by the one rule it names, against the schema it names, and must give exactly the errors
/// graphql-js gives, messages and locations.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLJSValidationTests {
    static let folder = Bundle.module.url(
        forResource: "graphql-js-validation", withExtension: nil, subdirectory: "Fixtures")

    /// The rules by the names the cases give them.
    static let rules: [String: @Sendable (inout ValidationContext) -> Void] = [
        "ExecutableDefinitions": DocumentRules.executableDefinitions,
        "UniqueOperationNames": DocumentRules.uniqueOperationNames,
        "LoneAnonymousOperation": DocumentRules.loneAnonymousOperation,
        "SingleFieldSubscriptions": FragmentRules.singleFieldSubscriptions,
        "KnownTypeNames": TypeRules.knownTypeNames,
        "FragmentsOnCompositeTypes": TypeRules.fragmentsOnCompositeTypes,
        "VariablesAreInputTypes": TypeRules.variablesAreInputTypes,
        "ScalarLeafs": FieldRules.scalarLeafs,
        "FieldsOnCorrectType": FieldRules.fieldsOnCorrectType,
        "UniqueFragmentNames": DocumentRules.uniqueFragmentNames,
        "KnownFragmentNames": DocumentRules.knownFragmentNames,
        "NoUnusedFragments": DocumentRules.noUnusedFragments,
        "PossibleFragmentSpreads": FragmentRules.possibleFragmentSpreads,
        "NoFragmentCycles": DocumentRules.noFragmentCycles,
        "UniqueVariableNames": DocumentRules.uniqueVariableNames,
        "NoUndefinedVariables": VariableRules.noUndefinedVariables,
        "NoUnusedVariables": VariableRules.noUnusedVariables,
        "KnownDirectives": DirectiveRules.knownDirectives,
        "UniqueDirectivesPerLocation": DirectiveRules.uniqueDirectivesPerLocation,
        "KnownArgumentNames": FieldRules.knownArgumentNames,
        "UniqueArgumentNames": DocumentRules.uniqueArgumentNames,
        "ValuesOfCorrectType": ValueRules.valuesOfCorrectType,
        "ProvidedRequiredArguments": FieldRules.providedRequiredArguments,
        "VariablesInAllowedPosition": VariableRules.variablesInAllowedPosition,
        "OverlappingFieldsCanBeMerged": OverlappingFieldsRule.check,
        "UniqueInputFieldNames": DocumentRules.uniqueInputFieldNames,
    ]

    /// Cases whose expectations the export changed from graphql-js's, by rule and name, with
    /// why: each must still differ (a deviation that starts agreeing is reported, so the list
    /// can't go stale).
    static let deviations: [String: String] = [
        "OverlappingFieldsCanBeMerged/reports deep conflict after nested fragments":
            "gqlparser's export adds types T and Type to schema 0, so these fields' parents are two object types, "
            + "whose fields may differ; graphql-js's schema has neither",
        "OverlappingFieldsCanBeMerged/finds invalid cases even with field named after fragment":
            "as above: the fragment is on Type, which the export added",
        "UniqueDirectivesPerLocation/duplicate custom non-repeatable directives in one location":
            "the export dedented the query but kept the columns of graphql-js's indented one",
        "ValuesOfCorrectType/Invalid input object value/reports error for custom scalar that returns undefined":
            "graphql-js's test gives the scalar a parseLiteral function that refuses everything; a schema read "
            + "from SDL has no such function, and a custom scalar takes any literal",
    ]

    /// One case: its name, rule, schema (an index into `schemas.yml`), query, and errors as
    /// `message (line:column, …)`.
    struct Case {
        var name: String
        var rule: String
        /// An index into `schemas.yml`, or a schema of the case's own.
        var schema: Int
        var ownSchema: String?
        var query: String
        var errors: [String]
    }

    static func read(_ file: URL) throws -> DocumentNode {
        try YAMLReader.parse([UInt8](try Data(contentsOf: file)))
    }

    static func cases(in file: URL) throws -> [Case] {
        guard case .array(let entries) = try read(file).value else { return [] }
        return entries.compactMap { entry in
            guard case .string(let name)? = entry["name"]?.value, case .string(let rule)? = entry["rule"]?.value,
                case .string(let query)? = entry["query"]?.value
            else { return nil }
            let schema = if case .int(let index)? = entry["schema"]?.value { index } else { -1 }
            let ownSchema = if case .string(let sdl)? = entry["schema"]?.value { sdl } else { String?.none }
            var errors: [String] = []
            if case .array(let expected)? = entry["errors"]?.value {
                for error in expected {
                    guard case .string(let message)? = error["message"]?.value else { continue }
                    var places: [String] = []
                    if case .array(let locations)? = error["locations"]?.value {
                        for location in locations {
                            if case .int(let line)? = location["line"]?.value,
                                case .int(let column)? = location["column"]?.value
                            {
                                places.append("\(line):\(column)")
                            }
                        }
                    }
                    errors.append("\(message) (\(places.joined(separator: ", ")))")
                }
            }
            return Case(name: name, rule: rule, schema: schema, ownSchema: ownSchema, query: query, errors: errors)
        }
    }

    /// Whether our error says what graphql-js's does: the same places and message, or its message
    /// followed by what to do (`…non composite type "Boolean": a fragment is on an object, …`),
    /// which ours add where graphql-js's say only what is wrong.
    static func agree(_ expected: String, _ got: String) -> Bool {
        guard expected != got else { return true }
        guard let open = expected.range(of: " (", options: .backwards),
            let ours = got.range(of: " (", options: .backwards),
            expected[open.lowerBound...] == got[ours.lowerBound...], expected[..<open.lowerBound].hasSuffix(".")
        else { return false }
        return got[..<ours.lowerBound].hasPrefix(expected[..<open.lowerBound].dropLast() + ": ")
    }

    @Test func eachRuleGivesGraphQLJSsErrorsOnGraphQLJSsCases() throws {
        let folder = try #require(Self.folder)
        guard case .array(let texts) = try Self.read(folder.appendingPathComponent("schemas.yml")).value else {
            Issue.record("schemas.yml isn't a list")
            return
        }
        var schemas: [Int: GraphQLSchema] = [:]
        var failures: [String] = []
        var (checked, deviating, byRule) = (0, 0, [String: Int]())
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".spec.yml")
        }
        for file in files.sorted() {
            for test in try Self.cases(in: folder.appendingPathComponent(file)) {
                guard let rule = Self.rules[test.rule] else {
                    failures.append("\(file): \(test.name): no rule \(test.rule)")
                    continue
                }
                let schema: GraphQLSchema
                do {
                    if let own = test.ownSchema {
                        schema = try GraphQLSchema(sdl: own)
                    } else if let read = schemas[test.schema] {
                        schema = read
                    } else if texts.indices.contains(test.schema), case .string(let sdl) = texts[test.schema].value {
                        schema = try GraphQLSchema(sdl: sdl)
                        schemas[test.schema] = schema
                    } else {
                        failures.append("\(test.rule): \(test.name): no schema \(test.schema)")
                        continue
                    }
                } catch {
                    failures.append("\(test.rule): \(test.name): the schema isn't read: \(error)")
                    continue
                }
                let document: GraphQLDocument
                do {
                    document = try GraphQLParser.parse(GraphQLSource(test.query))
                } catch {
                    failures.append("\(test.rule): \(test.name): doesn't parse: \(error.message)")
                    continue
                }
                var context = ValidationContext(document: document, schema: schema)
                rule(&context)
                let errors = context.errors.map { error in
                    "\(error.message) (\(error.locations.map { "\($0.line):\($0.column)" }.joined(separator: ", ")))"
                }
                checked += 1
                byRule[test.rule, default: 0] += 1
                let agrees = errors.count == test.errors.count && zip(test.errors, errors).allSatisfy(Self.agree)
                if Self.deviations["\(test.rule)/\(test.name)"] != nil {
                    deviating += 1
                    if agrees { failures.append("\(test.rule): \(test.name): a deviation that now agrees") }
                } else if !agrees {
                    failures.append("\(test.rule): \(test.name):\n  expected \(test.errors)\n  got      \(errors)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(checked) cases:\n\(failures.joined(separator: "\n"))")
        #expect(byRule.count == 26)
        #expect(checked == 394)
        #expect(deviating == Self.deviations.count)
    }
}
