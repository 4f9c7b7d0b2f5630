/**
 * PostgreSQL's settings for the embedded database (issue #27, docs/benchmarks.md). Its shared
 * buffers live in the WebAssembly memory and, once touched, stay resident: PGlite's default
 * (128 MB) is sized for a server of its own, while this process serves one organisation's console
 * and headsets beside it. 16 MB holds the hot pages of the console's reads; the rest is the
 * operating system's page cache, as on any PostgreSQL.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB'];
