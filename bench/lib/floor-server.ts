import http from 'node:http';

/**
 * The least any HTTP API can add to a query on this machine: a node:http server with no framework,
 * session, validation or service, answering every request with `answer()` as JSON. Timed with the
 * bench's own client against the same direct calls as the real API, its ratio is the floor of the
 * loopback round trip (request and answer written, parsed and read back in this process), which
 * the real API's figure includes too.
 */
export async function startFloorServer(answer: () => Promise<unknown>): Promise<{
  baseUrl: string;
  close(): Promise<void>;
}> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      answer().then(
        (body) => {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify(body));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ message: String(error) }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('The floor server has no TCP address');
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
