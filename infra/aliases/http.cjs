// node:http as its CommonJS exports (infra/bundling.ts aliases `http` and `node:http` here). An ESM import of
// node:http builds a module namespace by reading every export, which runs its lazy getters and loads
// undici (about 15 ms of a cold start on Node 24); getBuiltinModule hands over the exports untouched.
module.exports = process.getBuiltinModule('node:http');
