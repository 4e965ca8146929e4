/**
 * A local stand-in for the bulk files' S3 bucket (contract §12.2; `npm start`): an HTTP server that answers the
 * few calls of S3's REST API the export job and the listing make — path-style, as lib/store/objects.ts sends
 * them with S3_ENDPOINT set: CreateMultipartUpload (`POST /<bucket>/<key>?uploads`), UploadPart (`PUT
 * …?partNumber=&uploadId=`), CompleteMultipartUpload (`POST …?uploadId=`), AbortMultipartUpload (`DELETE
 * …?uploadId=`), and GetObject / HeadObject (`GET`, `HEAD`) with the object's Content-Type, Content-Encoding,
 * Cache-Control, Content-Length and ETag — written under a folder (DATA_DIR/objects with `npm start`), an
 * object a file and its headers beside it. So the job's calls are the ones it makes deployed, and a file's bytes
 * are what a download gets. The bucket's lifecycle rule is applied as objects are written: one older than its
 * days is deleted (S3 runs its rules once a day, some time after an object's age passes).
 * CompleteMultipartUpload's If-None-Match: * is kept (412 where the key exists; S3's 409 for two completing at once
 * is not: here they run one after another).
 * What it omits: signatures (any request is taken), other buckets' isolation beyond the path, ranges,
 * other conditional requests, listing, checksums, the 5 MiB least part size (it takes any), versioning, encryption.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize, sep } from 'node:path';

export interface LocalObjects {
  /** Where S3_ENDPOINT points: requests go to `${endpoint}/${bucket}/${key}`. */
  endpoint: string;
  stop(): Promise<void>;
}

const body = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** The file beside an object that keeps its headers: `%h…` is no percent-encoding, so no key's file name ends so. */
const HEADERS = '%headers.json';

/** Headers an object keeps from its CreateMultipartUpload. */
const KEPT = ['content-type', 'content-encoding', 'cache-control'] as const;

export async function startLocalObjects(folder: string, keptDays: number, port = 0): Promise<LocalObjects> {
  const objects = join(folder, 'objects');
  const uploads = join(folder, 'uploads');
  mkdirSync(objects, { recursive: true });
  mkdirSync(uploads, { recursive: true });
  /**
   * The file of a request's path (`/<bucket>/<key>`): the path percent-decoded as S3 decodes it (a malformed escape:
   * none, 400), its key kept literal as S3 keeps it — `..`, `.` and empty segments are names, never steps — each
   * segment a file or folder name of its own (percent-encoded, so that no name leaves the folder).
   */
  const inside = (root: string, path: string) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    const segments = decoded
      .replace(/^\//, '')
      .split('/')
      .map((part) => (part === '' ? '%' : encodeURIComponent(part).replace(/^\.{1,2}$/, (dots) => '%2E'.repeat(dots.length))));
    const file = normalize(join(root, ...segments));
    return file.startsWith(root + sep) ? file : undefined;
  };
  /** Deletes the objects older than the lifecycle rule's days. */
  const expire = (dir: string, now: number) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) expire(path, now);
      else if (!entry.name.endsWith(HEADERS) && now - statSync(path).mtimeMs > keptDays * 86_400_000) {
        rmSync(path, { force: true });
        rmSync(`${path}${HEADERS}`, { force: true });
      }
    }
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const file = inside(objects, url.pathname);
      const uploadId = url.searchParams.get('uploadId');
      const answer = (status: number, text = '', headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/xml', ...headers });
        res.end(text);
      };
      if (!file) return answer(400, '<Error><Code>InvalidURI</Code></Error>');
      if (req.method === 'POST' && url.searchParams.has('uploads')) {
        const id = randomUUID();
        mkdirSync(join(uploads, id));
        const headers = Object.fromEntries(KEPT.flatMap((h) => (req.headers[h] ? [[h, String(req.headers[h])]] : [])));
        writeFileSync(join(uploads, id, 'upload.json'), JSON.stringify({ file, headers }));
        return answer(200, `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      const upload = uploadId && /^[0-9a-f-]{36}$/.test(uploadId) ? join(uploads, uploadId) : undefined;
      if (uploadId && (!upload || !existsSync(upload))) return answer(404, '<Error><Code>NoSuchUpload</Code></Error>');
      if (req.method === 'PUT' && upload) {
        const part = Number(url.searchParams.get('partNumber'));
        if (!Number.isInteger(part) || part < 1 || part > 10_000) return answer(400, '<Error><Code>InvalidArgument</Code></Error>');
        const bytes = await body(req);
        writeFileSync(join(upload, String(part)), bytes);
        return answer(200, '', { etag: `"${createHash('md5').update(bytes).digest('hex')}"` });
      }
      if (req.method === 'POST' && upload) {
        const parts = [...(await body(req)).toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        if (
          parts.length === 0 ||
          parts.some((p, i) => i > 0 && p <= (parts[i - 1] as number)) ||
          parts.some((p) => !existsSync(join(upload, String(p))))
        )
          return answer(400, '<Error><Code>InvalidPart</Code></Error>');
        const { file: target, headers } = JSON.parse(readFileSync(join(upload, 'upload.json'), 'utf8')) as {
          file: string;
          headers: Record<string, string>;
        };
        // If-None-Match: * — only where no object has the key (S3: 412 PreconditionFailed, the upload kept).
        if (req.headers['if-none-match'] === '*' && existsSync(target))
          return answer(
            412,
            '<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-None-Match</Condition></Error>',
          );
        // The parts joined a part at a time (a file is never whole in memory here either).
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, '');
        const md5 = createHash('md5');
        for (const p of parts) {
          const bytes = readFileSync(join(upload, String(p)));
          md5.update(bytes);
          appendFileSync(target, bytes);
        }
        const etag = `"${md5.digest('hex')}-${parts.length}"`;
        writeFileSync(`${target}${HEADERS}`, JSON.stringify({ ...headers, etag }));
        rmSync(upload, { recursive: true, force: true });
        expire(objects, Date.now());
        return answer(200, `<CompleteMultipartUploadResult><ETag>${etag}</ETag></CompleteMultipartUploadResult>`);
      }
      if (req.method === 'DELETE' && upload) {
        rmSync(upload, { recursive: true, force: true });
        return answer(204);
      }
      if ((req.method === 'GET' || req.method === 'HEAD') && !uploadId) {
        if (!existsSync(file) || file.endsWith(HEADERS) || !statSync(file).isFile())
          return answer(404, '<Error><Code>NoSuchKey</Code></Error>');
        const headers = JSON.parse(readFileSync(`${file}${HEADERS}`, 'utf8')) as Record<string, string>;
        res.writeHead(200, { ...headers, 'content-length': String(statSync(file).size) });
        if (req.method === 'HEAD') return res.end();
        return void createReadStream(file).pipe(res);
      }
      return answer(405, '<Error><Code>MethodNotAllowed</Code></Error>');
    })().catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/xml' });
      res.end(`<Error><Code>InternalError</Code><Message>${e.message.replace(/[<&]/g, '')}</Message></Error>`);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      fail(e.code === 'EADDRINUSE' ? new Error(`port ${port} is taken (S3_PORT): stop what uses it, or set S3_PORT`) : e),
    );
    server.listen(port, '127.0.0.1', ok);
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
