import Testing

/// The suites that keep heavy programs of their own running for minutes (schemathesis, Jupyter
/// Server and its kernel, a server killed in the middle of writes): nested here, they run one
/// suite at a time. Together on CI's loaded machine they starved each other, and the `kill -9`
/// test of `--state` ran past its 5 minutes.
@Suite(.serialized, .timeLimit(.minutes(5)), .hangGuard) enum OneHeavyProgramAtATime {}
