import dns2 from 'dns2';

// A real DNS server (dns2, UDP) on 127.0.0.1 in this process, for the SSO domain verification tests: the server
// resolves TXT records through it when SSO_DNS_SERVERS names it. A test publishes records with `txt`.

export interface TestDns {
  /** `host:port`, the value for SSO_DNS_SERVERS. */
  server: string;
  /** Publishes (adds) a TXT record at a name. */
  txt(name: string, value: string): void;
  /** How many questions the server answered. */
  readonly queries: number;
  close(): Promise<void>;
}

export async function startDns(): Promise<TestDns> {
  const records = new Map<string, string[]>();
  let queries = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      queries++;
      const response = dns2.Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? '';
      if (question?.type === dns2.Packet.TYPE.TXT) {
        for (const data of records.get(name) ?? []) {
          response.answers.push({ name, type: dns2.Packet.TYPE.TXT, class: dns2.Packet.CLASS.IN, ttl: 1, data } as never);
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (addresses as { udp?: { port: number } }).udp?.port;
  if (!port) throw new Error('the test DNS server did not listen');
  return {
    server: `127.0.0.1:${port}`,
    txt(name, value) {
      const key = name.toLowerCase();
      records.set(key, [...(records.get(key) ?? []), value]);
    },
    get queries() {
      return queries;
    },
    close: () => server.close(),
  };
}
