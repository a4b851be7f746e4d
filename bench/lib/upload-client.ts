import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { pipeline } from 'node:stream/promises';

/**
 * A client that uploads files as multipart/form-data (field `file`, as the browser sends an import)
 * from its own process, as a browser would: sending 76 MB through `fetch` inside the server's process
 * put the client's work on the event loop being measured. The child stays up between uploads, so its
 * start is not timed; each upload is one line of JSON in and one out over its stdin and stdout.
 */

interface UploadCommand {
  url: string;
  cookie: string;
  filePath: string;
  type: string;
}

interface UploadAnswer {
  status: number;
  body: string;
}

async function upload(command: UploadCommand): Promise<UploadAnswer> {
  const boundary = `----bench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(command.filePath)}"\r\n` +
      `Content-Type: ${command.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { size } = await fs.promises.stat(command.filePath);
  return new Promise((resolve, reject) => {
    const request = http.request(
      command.url,
      {
        method: 'PUT',
        headers: {
          cookie: command.cookie,
          // A browser's upload names its site; the server refuses state changes from other sites.
          origin: new URL(command.url).origin,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + size + tail.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    request.on('error', reject);
    request.write(head);
    pipeline(fs.createReadStream(command.filePath, { highWaterMark: 1024 * 1024 }), request, { end: false })
      .then(() => request.end(tail))
      .catch(reject);
  });
}

function serve(): void {
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    upload(JSON.parse(line) as UploadCommand).then(
      (answer) => process.stdout.write(`${JSON.stringify(answer)}\n`),
      (error: unknown) => process.stdout.write(`${JSON.stringify({ status: 0, body: String(error) })}\n`),
    );
  });
}

export interface UploadClient {
  /** Uploads `filePath` with a PUT to `url`; resolves with the answer once the response has ended. */
  upload(command: UploadCommand): Promise<UploadAnswer>;
  close(): Promise<void>;
}

/** Starts the client process; one upload at a time. */
export function startUploadClient(): UploadClient {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answers = readline.createInterface({ input: child.stdout });
  return {
    upload(command) {
      return new Promise((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`The upload client exited (${String(code)})`));
        child.once('exit', onExit);
        answers.once('line', (line) => {
          child.off('exit', onExit);
          resolve(JSON.parse(line) as UploadAnswer);
        });
        child.stdin.write(`${JSON.stringify(command)}\n`);
      });
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

if (process.argv[1] === import.meta.filename) serve();
