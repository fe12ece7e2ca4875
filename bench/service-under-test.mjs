// The service exactly as shipped: the package's own entry point, `bin/quayside.mjs serve`, run under
// a command line of its own. On a shared machine a `pkill -f quayside` meant for someone else's
// server stopped the measured services halfway through a run; this name keeps them out of reach of
// such patterns, and the harness still stops them by their process group id.
process.argv.splice(2, process.argv.length - 2, "serve");
await import("../bin/quayside.mjs");
