import net from 'node:net';

/**
 * The part of a client's address one party controls, as rate limits and refusal counts key it: an
 * IPv4 address whole (/32), an IPv6 address by its /64 (one subscriber is handed a whole /64, so
 * counting whole IPv6 addresses would give each of them 2^64 fresh counts). An IPv4 address
 * written as IPv6 (`::ffff:203.0.113.7`, `::203.0.113.7`) is the IPv4 address.
 */
export function addressPrefix(address: string): string {
  if (net.isIPv4(address)) return address;
  if (!net.isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  const embedsIpv4 =
    groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0 || groups[5] === 0xffff);
  if (embedsIpv4 && (groups[6]! !== 0 || groups[7]! > 1)) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::`, an IPv4 tail and a zone allowed). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}
