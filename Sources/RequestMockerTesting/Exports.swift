// Tests that import this module get the core with it: one import in each test file.
@_exported import RequestMocker
