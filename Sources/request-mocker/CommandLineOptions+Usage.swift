extension CommandLineOptions {
    static let usage = """
        USAGE: request-mocker serve [FOLDER...] [--cassette FILE.har] [--stubs FILE.json]
                                   [--openapi FILE [--base-path PATH] [--validate strict|warn|off]
                                   [--dynamic [--seed N]] [--stateful [--data FILE] [--state FILE]]]
                                   [--graphql SCHEMA [--graphql-path PATH] [--graphql-mocks FILE]]
                                   [--upstream URL [--upstream-first]
                                                   [--record [--record-mode once|new|all]]]
                                   [--admin [--admin-token TOKEN]]
                                   [--host ADDRESS] [--port PORT]
               request-mocker name METHOD URL [-d BODY] [-H 'Name: value']... [--wildcards]
                                  [--header-in-name NAME]... [--create FOLDER]
               request-mocker convert IN OUT [--host URL]
               request-mocker check --openapi FILE [FOLDER...] [--stubs FILE] [--cassette FILE]
                                    [--base-path PATH] [--format text|json|sarif] [--coverage]
               request-mocker check --graphql SCHEMA [FOLDER...] [--stubs FILE] [--cassette FILE]
                                    [--format text|json|sarif] [--coverage]
               request-mocker check --stubs FILE [--format text|json|sarif]
               request-mocker draft [FOLDER...] [--cassette FILE]... [--base-path PATH]
                                    [--openapi EXISTING] -o FILE

        Serves mock responses over HTTP/1.1, printing one line per request: what answered it,
        or, when nothing did, the file names it looked for.

        ARGUMENTS:
          FOLDER...            Mock-data folders of .http and .json files named as in
                               MockDataNaming.md, layered: the first that has a file for a
                               request answers it. Without FOLDER or another source, the
                               Examples/MockData folder of the current directory.

        OPTIONS:
          --cassette FILE.har  Also answer from a HAR cassette (after FOLDER, when both are
                               given). Requests match on method, path and query, so a cassette
                               recorded against another host still answers; each recording
                               answers once, and the last one keeps answering after that.
                               The file is written only with --record.
          --stubs FILE.json    Stubs (filters written as JSON or YAML; see stubs.schema.json), tried
                               before the folders. Reloaded when the file changes; a broken
                               edit is reported and the last good stubs stay.
          --openapi FILE       Answer from an OpenAPI 3.0/3.1/3.2 contract (JSON or YAML) what the stubs,
                               FOLDERs and cassette don't: each request is checked against its
                               operation, then answered with the declared example (Prefer:
                               code=404, example=NAME or ?__code=404&__example=NAME pick one) or
                               a body generated from the schema. Reloaded when the file changes.
          --base-path PATH     Serve the operations under PATH instead of the path of the
                               contract's first server URL.
          --validate MODE      strict (default): a request the contract doesn't allow gets 401,
                               415 or 422; warn: answered anyway, with RequestMocker-Violations;
                               off: not checked.
          --dynamic            Generate bodies from a seed (--seed N, default 0): each request
                               its own, the same in every run.
          --stateful           The contract's collections remember, in memory: a create is listed
                               and read back, an edit seen, a delete gone; they start from the
                               contract's examples. The resources found are printed at start.
          --data FILE          Start the resources (and go back to them on POST /__admin/reset)
                               from FILE, JSON or YAML, instead of the examples: {"/pets": [{...}],
                               "/users/1/settings": {...}}, keyed by the contract's paths with
                               parent ids filled in. Each item is checked against the contract.
          --state FILE         Save the resources to FILE after each change, before answering it
                               (atomically), and start from FILE when it exists: the state
                               survives a restart.
          --graphql SCHEMA     Answer GraphQL at --graphql-path from a schema: SDL (.graphql,
                               .graphqls) or an introspection result (schema.json). Each
                               operation is validated, then answered with values generated from
                               the schema (the same in every run; an object fetched by id again
                               has the same fields), POST or GET, Apollo's persisted queries,
                               subscriptions over WebSocket (graphql-transport-ws). The answer
                               names what made it: RequestMocker-GraphQL: HeroName generated.
                               Reloaded, with the mocks, when either file changes.
          --graphql-path PATH  Where the schema answers (default /graphql).
          --graphql-mocks FILE Values the answers take, JSON or YAML, checked against the
                               schema at start: {"scalars": {"DateTime": "…"}, "types": {"Human":
                               {"name": "Luke"}}, "operations": {"HeroName": {"data": {…}}},
                               "subscriptions": {"ReviewAdded": [{"data": {…}}]}}. An
                               operation's answer is trimmed to what each request selects and
                               completed where it selects more.
          --admin              The dashboard at /__admin/ (each request live, its details, the
                               nearest misses, "mock this", stubs off and on, scenarios) and
                               the admin API under it: add and remove stubs, read the requests
                               (GET /__admin/requests). Off by default.
          --admin-token TOKEN  The bearer token admin calls must carry (also read from
                               REQUEST_MOCKER_ADMIN_TOKEN); needed when --host isn't loopback.
          --upstream URL       Forward every request nothing else answers to this server:
                               URL gives the scheme, host, port and base path, to which the
                               request's path and query are appended. Method, headers and body
                               go on with Host rewritten; the answer is relayed as it arrives.
                               An upstream that can't be reached or fails gives 502 and why.
          --upstream-first     With --openapi: every request goes to --upstream first (only
                               stubs answer before it) and each exchange is checked against
                               the contract: each new finding is printed, all are at GET
                               /__admin/drift. What the upstream answers 404 or 501, or can't
                               answer, the FOLDERs, cassette or contract answer instead.
          --record             Write each forwarded exchange, secrets redacted: into the first
                               FOLDER as a .http file under its mock-data name (created if
                               missing), or into --cassette when given (saved after each one).
                               A later run without --upstream answers the same requests.
          --record-mode MODE   new (default): what was recorded answers, the rest is forwarded
                               and recorded; all: nothing answers from the recording, every
                               request is forwarded and every exchange recorded, repeats
                               included (a cassette starts over), as a capture for draft;
                               once: record only into a cassette or folder that is new.
          --host ADDRESS       The address to listen on (default: 127.0.0.1). Use 0.0.0.0 or ::
                               only to be reachable from other machines.
          --port PORT          The port (default: 8080); 0 picks any free port.
          -h, --help           Show this help.
          --version            Show the version.

        NAME prints the mock-data file names a request looks for, in lookup order (hashes
        included, which no one can type by hand):
          -d BODY              The request body; -d @FILE reads it from a file. Without a
                               Content-Type header it is sent as a form, as curl sends it.
          -H 'Name: value'     A request header (repeatable).
          --wildcards          Also the wildcard names (as `serve` looks for them).
          --header-in-name N   A header whose value is part of the names (repeatable).
          --create FOLDER      Write a skeleton .http file under the first name in FOLDER.

        CONVERT turns recorded traffic into another format, with the default redaction:
          a YAHTTPVCR cassette (JSON or property list) or a HAR file into OUT.har, or into
          OUT, a mock-data folder of .http files under their mock-data names (created if
          missing); a mock-data folder into OUT.har, each file name read back into a request
          (a `-` read as `/`) to the host of --host URL (default http://localhost). What
          can't be converted (a transport error into a folder, a wildcard or hashed name into
          HAR) is listed and left out.

        CHECK keeps mocks true to a contract: each file of the FOLDERs, each stub with a fixed
          response and each cassette recording is matched to an operation, and its status,
          Content-Type, JSON body and required headers are checked against what it declares
          (a recording's request too: credentials, parameters, body); the contract's own
          examples are checked too. One line per kind of finding, as compilers print them, with
          how often it was seen; what the contract doesn't document (an operation, a query
          parameter, a body's member) is a warning. --format json or sarif (SARIF 2.1.0) writes
          the report for tools; --coverage adds the operations and statuses reached, n of m, and
          those never seen. Exit status 1 when there is an error, else 0.
          With --graphql SCHEMA, each recorded GraphQL exchange (POST or GET, Apollo's persisted
          queries followed) has its operation validated against the schema, and its answer's
          data checked against the operation's selection: a wrong type, a null where non-null,
          a field nobody selected, a missing one; each GraphQL stub's answer is checked by its
          fields' types. --coverage gives the root fields reached.
          With --stubs FILE, with a contract or alone, the stubs' scenarios are checked too: a
          warning for each stub whose requiredState no stub moves its scenario to, or only from
          states no request reaches from Started (a misspelt state, most often).

        DRAFT writes an OpenAPI 3.1 contract (FILE.yaml or FILE.json) from recorded traffic: the
          FOLDERs and each --cassette (HAR or YAHTTPVCR, repeatable), under --base-path PATH
          when given (traffic outside it is left out). Ids in paths become parameters, query
          parameters and headers are typed, credentials become security schemes (never their
          values), bodies become schemas with a redacted example. The same recordings give the
          same bytes; serve and check read the draft as they read any contract. With --openapi
          EXISTING, that contract is kept as it is (its version and dialect too) and gains only
          what the traffic shows it lacks, each addition printed: operations, statuses, media
          types, properties, widened types.

        Unmatched requests get 404 with the reason as the body. Stop with Ctrl-C.
        Exit status: 0 after Ctrl-C (and after name, convert and draft), 64 for bad arguments, 65
        for an invalid cassette, stubs file, contract or mock-data folder (or nothing to draft),
        66 for a FOLDER, cassette, stubs file, contract, -d @FILE or convert's IN that isn't
        there or can't be read, 69 when the address can't be bound, 73 when --create, --record,
        convert or draft can't write.
        `--` ends the options: what follows are FOLDERs, even when they start with a dash.
        """
}
