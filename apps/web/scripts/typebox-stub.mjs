// What the console's bundle gets for `typebox` (vite.config.ts): every `Type.*` builder answers an
// empty object. The contract declares its request and answer schemas with TypeBox beside the
// constants and types the console uses; the console validates nothing with them (the server
// does), so the ~14 KB (brotli) of TypeBox and the schemas built at start-up are left out of the
// browser (issue #27). The unit tests (vitest.config.ts) keep the real TypeBox: they check the
// console's test data against the schemas (src/test/contract-check.ts).
const build = () => ({});
export const Type = new Proxy({}, { get: () => build });
export default Type;
