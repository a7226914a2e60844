"""graphql-core (the Python port of graphql-js) as the reference the GraphQL tests compare with.

    python3 graphql_core.py print < schema.graphql        # the schema as graphql-core prints it
    python3 graphql_core.py introspect < schema.graphql   # its introspection result, as JSON
    python3 graphql_core.py introspection-query            # the introspection query graphql-core sends
    python3 graphql_core.py reexecute SCHEMA < cases.json # for each [operation, variables, data]: graphql-core's
                                                          # answer when every field reads its value from data
    python3 graphql_core.py run SCHEMA < query.graphql    # graphql-core's result of the query, as JSON
    python3 graphql_core.py verdicts < cases.json         # for each SDL text: [accepted, "line:column" or null]
    python3 graphql_core.py validate SCHEMA < cases.json  # for each operation: the "line:column" of each error
    python3 graphql_core.py variables SCHEMA < cases.json # for each [operation, variables]: the coerced values as
                                                          # JSON (in the definitions' order), or the number of errors
"""
import json
import sys

from graphql import (
    GraphQLError,
    build_ast_schema,
    build_schema,
    get_introspection_query,
    graphql_sync,
    parse,
    print_schema,
    validate,
    validate_schema,
)
from graphql.validation.validate import validate_sdl


def verdict(sdl):
    try:
        document = parse(sdl)
    except GraphQLError as error:
        location = error.locations[0] if error.locations else None
        return [False, f"{location.line}:{location.column}" if location else None]
    errors = validate_sdl(document)
    if not errors:
        try:
            errors = validate_schema(build_ast_schema(document, assume_valid_sdl=True))
        except (TypeError, GraphQLError):
            # What graphql-core can't even build (an argument of an output type) it refuses so.
            return [False, None]
    if errors:
        location = errors[0].locations[0] if errors[0].locations else None
        return [False, f"{location.line}:{location.column}" if location else None]
    return [True, None]


def introspection_query():
    return get_introspection_query(descriptions=True, specified_by_url=True, directive_is_repeatable=True,
                                   schema_description=True, input_value_deprecation=True, input_object_one_of=True)


command = sys.argv[1]
text = sys.stdin.read()
if command == "print":
    print(print_schema(build_schema(text)), end="")
elif command == "introspect":
    schema = build_schema(text)
    result = graphql_sync(schema, introspection_query())
    if result.errors:
        raise SystemExit(str(result.errors))
    print(json.dumps({"data": result.data}, indent=1))
elif command == "validate":
    schema = build_schema(open(sys.argv[2]).read())
    results = []
    for operation in json.loads(text):
        try:
            errors = validate(schema, parse(operation))
        except GraphQLError as error:
            errors = [error]
        results.append([[f"{l.line}:{l.column}" for l in (e.locations or [])] for e in errors])
    print(json.dumps(results))
elif command == "variables":
    from graphql.execution.values import get_variable_values
    schema = build_schema(open(sys.argv[2]).read())
    results = []
    for operation, variables in json.loads(text):
        definition = parse(operation).definitions[0]
        coerced = get_variable_values(schema, definition.variable_definitions, variables)
        if isinstance(coerced, list):
            results.append({"errors": len(coerced)})
        else:
            ordered = {d.variable.name.value: coerced[d.variable.name.value]
                       for d in definition.variable_definitions if d.variable.name.value in coerced}
            results.append({"values": json.dumps(ordered)})
    print(json.dumps(results))
elif command == "introspection-query":
    print(introspection_query(), end="")
elif command == "reexecute":
    schema = build_schema(open(sys.argv[2]).read())

    def read(source, info, **arguments):
        # The value our answer has at this field's response key.
        return source.get(info.path.key) if isinstance(source, dict) else None

    def concrete(value, info, abstract):
        return value.get("__typename")

    results = []
    for operation, variables, data in json.loads(text):
        result = graphql_sync(schema, operation, root_value=data, variable_values=variables,
                              field_resolver=read, type_resolver=concrete)
        results.append({"data": result.data, "errors": [e.message for e in result.errors or []]})
    print(json.dumps(results))
elif command == "run":
    result = graphql_sync(build_schema(open(sys.argv[2]).read()), text)
    print(json.dumps({"data": result.data, "errors": [e.message for e in result.errors or []]}))
elif command == "verdicts":
    print(json.dumps([verdict(sdl) for sdl in json.loads(text)]))
else:
    raise SystemExit(f"unknown command {command}")
