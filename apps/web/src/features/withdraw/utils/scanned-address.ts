/**
 * The address in a scanned QR code. Wallets encode either the bare address or a payment URI
 * (BIP-21 "litecoin:ltc1...?amount=1", EIP-681 "ethereum:0xabc@1/transfer?address=0xdef"):
 * the scheme, the chain id, the function and the query are dropped, except an ERC-20
 * transfer's recipient (its `address` parameter), which is where the money goes.
 */
export function scannedAddress(raw: string): string {
  const text = raw.trim();
  const uri = /^[a-z][a-z0-9+.-]*:(?!\/\/)(.*)$/i.exec(text);
  if (!uri) return text;
  const [target = '', query = ''] = (uri[1] ?? '').split('?', 2);
  const recipient = /\/transfer$/.test(target) ? new URLSearchParams(query).get('address') : null;
  if (recipient) return recipient.trim();
  return (target.replace(/^pay-/, '').split(/[@/]/, 1)[0] ?? '').trim();
}
