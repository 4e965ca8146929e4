// node:https as its CommonJS exports (see http.cjs).
module.exports = process.getBuiltinModule('node:https');
