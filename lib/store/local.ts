/**
 * What a store on this machine (DynamoDB Local, the local queue) is reached with: DynamoDB Local keys its data
 * by access key and region, so every client of it — the SDK's (client.ts), the signed requests of
 * catalogue-read.ts, the tools' — uses these fixed fake credentials. Apart from client.ts so that a function
 * that reads the store without the SDK bundles none of it.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'eu-west-1';
/** The bulk files' bucket of `npm start` (infra/local/objects.ts, a stand-in of S3) and its port, as deckctl finds it. */
export const LOCAL_BUCKET = 'deck-library-bulk';
export const LOCAL_S3_PORT = 8001;
