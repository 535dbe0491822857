// A minimal MQTT 3.1.1 publisher for the browser tests: signs in as a gateway (client id and
// user = SN, password = registration key), publishes one QoS 1 message, waits for the PUBACK
// (with the embedded broker that means "stored") and disconnects. Enough to raise a device
// event the way a real gateway does (docs/device-protocol.md, "Event").
import net from 'node:net';

function remainingLength(n) {
  const bytes = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

const str = (s) => {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b]);
};

const packet = (first, body) =>
  Buffer.concat([Buffer.from([first]), remainingLength(body.length), body]);

/**
 * Publishes `payload` (an object, sent as JSON) on `topic` as gateway `sn` with `key`. A
 * CONNACK of 3 (server unavailable: the broker was still letting go of this gateway's previous
 * connection) is tried again after a second, up to five times, as a real gateway reconnects.
 */
export async function publishAsGateway(message) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await publishOnce(message);
    } catch (e) {
      if (e.code !== UNAVAILABLE || attempt === 5) throw e;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

const UNAVAILABLE = 3;

function publishOnce({ host, port, sn, key, topic, payload }) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`MQTT: no answer from ${host}:${port}`));
    }, 15_000);
    const fail = (e) => {
      clearTimeout(timer);
      socket.destroy();
      reject(e);
    };
    let buffered = Buffer.alloc(0);
    let connected = false;
    socket.on('error', fail);
    socket.on('connect', () => {
      const variable = Buffer.concat([str('MQTT'), Buffer.from([4, 0xc2, 0, 30])]);
      socket.write(packet(0x10, Buffer.concat([variable, str(sn), str(sn), str(key)])));
    });
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const type = buffered[0] >> 4;
        const len = buffered[1];
        if (buffered.length < 2 + len) return;
        const body = buffered.subarray(2, 2 + len);
        buffered = buffered.subarray(2 + len);
        if (type === 2 && !connected) {
          if (body[1] !== 0) {
            return fail(
              Object.assign(new Error(`MQTT: connection refused (${body[1]})`), { code: body[1] }),
            );
          }
          connected = true;
          const publish = Buffer.concat([
            str(topic),
            Buffer.from([0, 1]),
            Buffer.from(JSON.stringify(payload), 'utf8'),
          ]);
          socket.write(packet(0x32, publish));
        } else if (type === 4) {
          clearTimeout(timer);
          socket.end(Buffer.from([0xe0, 0]));
          resolve();
        }
      }
    });
    socket.on('close', () => {
      if (!connected) fail(new Error('MQTT: closed before CONNACK'));
    });
  });
}
