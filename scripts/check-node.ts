/**
 * CI's guard: prints the Node that runs the npm scripts and fails loudly unless it is the project's
 * Node major (infra/node-version.ts), i.e. unless `npm ci` installed the `node` dev dependency.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NODE_MAJOR, runningMajor } from '../infra/node-version.ts';

// The project's Node, as npm ci left it: with its install script blocked (npm 12, a package.json whose allowScripts
// does not approve `node`) the link dangles and every npm script would run on whatever Node the PATH has.
const own = 'node_modules/.bin/node';
if (!existsSync(own)) {
  console.error(
    `FAIL: ${own} is missing or dangles: the node package's install script did not run (npm 12 runs it only when package.json's allowScripts approves "node")`,
  );
  process.exit(1);
}
const ownVersion = execFileSync(own, ['--version'], { encoding: 'utf8' }).trim();
if (runningMajor(ownVersion.slice(1)) !== NODE_MAJOR) {
  console.error(`FAIL: ${own} is ${ownVersion}, not Node ${NODE_MAJOR} as in Lambda`);
  process.exit(1);
}

console.log(`npm scripts run on node ${process.version} (${process.execPath}); the project's Node is ${NODE_MAJOR}`);
if (runningMajor() !== NODE_MAJOR) {
  console.error(`FAIL: the tests would run on Node ${process.version}, not Node ${NODE_MAJOR} as in Lambda; run npm ci first`);
  process.exit(1);
}
