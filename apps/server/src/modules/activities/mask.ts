/**
 * Names on the public ranking: never a full nickname or e-mail. A nickname keeps its first and
 * last two characters ("Alice1" -> "Al***e1"; short ones keep less); without a nickname the
 * e-mail keeps the first character of its local part and of its domain, and the top-level
 * domain ("alice@example.com" -> "a***@e***.com"). Characters are counted as code points, so an
 * emoji is never cut in half.
 */
export function maskNickname(nickname: string): string {
  const chars = Array.from(nickname.trim());
  if (chars.length >= 5) return `${chars.slice(0, 2).join('')}***${chars.slice(-2).join('')}`;
  if (chars.length >= 3) return `${chars[0]}***${chars.at(-1)}`;
  return `${chars[0] ?? ''}***`;
}

export function maskEmailFully(address: string): string {
  const at = address.lastIndexOf('@');
  const local = Array.from(at > 0 ? address.slice(0, at) : address);
  const domain = at > 0 ? address.slice(at + 1) : '';
  const dot = domain.lastIndexOf('.');
  const host = Array.from(dot > 0 ? domain.slice(0, dot) : domain);
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local[0] ?? ''}***@${host[0] ?? ''}***${tld}`;
}

/**
 * Whether a nickname spells (part of) the e-mail: sign-up makes the e-mail's local part, cut to
 * the nickname limit, the nickname, and maskNickname would show most of it ("alice" -> "al***ce").
 */
function spellsEmail(nickname: string, email: string): boolean {
  const nick = nickname.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const local = (at > 0 ? email.slice(0, at) : email).toLowerCase();
  return local !== '' && (local.startsWith(nick) || nick.includes(local));
}

/** The public name of a ranked user. */
export function rankName(nickname: string | null, email: string): string {
  return nickname?.trim() && !spellsEmail(nickname, email) ? maskNickname(nickname) : maskEmailFully(email);
}
