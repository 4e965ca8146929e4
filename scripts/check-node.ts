/**
 * CI's guard: prints the Node that runs the npm scripts and fails loudly unless it is the project's
 * Node major (infra/node-version.ts), i.e. unless `npm ci` installed the `node` dev dependency.
 */
import { NODE_MAJOR, runningMajor } from '../infra/node-version.ts';

console.log(`npm scripts run on node ${process.version} (${process.execPath}); the project's Node is ${NODE_MAJOR}`);
if (runningMajor() !== NODE_MAJOR) {
  console.error(`FAIL: the tests would run on Node ${process.version}, not Node ${NODE_MAJOR} as in Lambda; run npm ci first`);
  process.exit(1);
}
