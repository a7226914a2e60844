/// Checks an operation document against a schema by the rules of the specification's
/// Validation section, each rule a function of its own over what one walk of the document
/// collects (`ValidationContext`), so every rule reads the same facts and none walks again.
///
/// ```swift
/// let errors = GraphQLValidator.validate(document, against: schema)
/// ```
package enum GraphQLValidator {
    /// Every error the document has, in the order of the rules, each rule's in document order.
    package static func validate(_ document: GraphQLDocument, against schema: GraphQLSchema) -> [GraphQLError] {
        var context = ValidationContext(document: document, schema: schema)
        for rule in rules { rule(&context) }
        return context.errors
    }

    /// The rules, in graphql-js's order (its `specifiedRules`), so the first error of a document
    /// that breaks several is the one graphql-js names first.
    static let rules: [@Sendable (inout ValidationContext) -> Void] = [
        DocumentRules.executableDefinitions,
        DocumentRules.uniqueOperationNames,
        DocumentRules.loneAnonymousOperation,
        FragmentRules.singleFieldSubscriptions,
        TypeRules.knownTypeNames,
        TypeRules.fragmentsOnCompositeTypes,
        TypeRules.variablesAreInputTypes,
        FieldRules.scalarLeafs,
        FieldRules.fieldsOnCorrectType,
        DocumentRules.uniqueFragmentNames,
        DocumentRules.knownFragmentNames,
        DocumentRules.noUnusedFragments,
        FragmentRules.possibleFragmentSpreads,
        DocumentRules.noFragmentCycles,
        DocumentRules.uniqueVariableNames,
        VariableRules.noUndefinedVariables,
        VariableRules.noUnusedVariables,
        DirectiveRules.knownDirectives,
        DirectiveRules.uniqueDirectivesPerLocation,
        FieldRules.knownArgumentNames,
        DocumentRules.uniqueArgumentNames,
        ValueRules.valuesOfCorrectType,
        FieldRules.providedRequiredArguments,
        VariableRules.variablesInAllowedPosition,
        OverlappingFieldsRule.check,
        DocumentRules.uniqueInputFieldNames,
    ]
}
