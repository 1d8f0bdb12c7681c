// The generated fetch runtime (src/generated/client/client.gen.ts) names the DOM's BodyInit, which
// Node's own types (lib ES2022, no DOM) declare only inside undici-types.
type BodyInit = import('undici-types').BodyInit;
