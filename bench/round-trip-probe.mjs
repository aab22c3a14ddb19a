// One POST to a reference provider timed from a process of its own, as the service calls it: a round
// trip between two processes. (Timed in the bench's process, which also runs the reference, it would
// skip one process's waking: 0.25 against 0.55 ms on this machine.) Asked over IPC: { url, body }.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
process.on('message', ({ url, body }) => {
  const started = performance.now();
  const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
    response.resume();
    response.on('end', () => process.send({ ms: performance.now() - started, status: response.statusCode }));
  });
  request.on('error', (error) => process.send({ error: error.message }));
  request.end(body);
});
process.on('disconnect', () => agent.destroy());
