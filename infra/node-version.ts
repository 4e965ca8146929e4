/**
 * The one Node.js major of the project: Lambda's runtime, the bundles' esbuild target, the local
 * runtime and the tests (package.json's `node` dev dependency puts that Node in node_modules/.bin,
 * where every npm script finds it). Data only: the local runtime and CI read it without loading CDK.
 */
export const NODE_MAJOR = 24;

/** The major of the Node running this process. */
export const runningMajor = (version: string = process.versions.node): number => Number(version.split('.')[0]);
