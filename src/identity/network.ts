import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network an address belongs to, as an account's owner can tell sessions apart by it: the
 * /24 of an IPv4 address, the /48 of an IPv6 one (a site's usual prefix). Never the address
 * itself, which would say more than the owner needs about where they were.
 */
export function addressNetwork(ip: string): string | null {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip)?.[1];
  const v4 = mapped ?? ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return null;
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  // '::' stands for as many zero groups as the address leaves out.
  const groups = ip.includes('::')
    ? [...front, ...Array(8 - front.length - back.length).fill('0'), ...back]
    : front;
  const prefix = groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/48`;
}
