/** Who may enter: ALLOWED_EMAIL_DOMAINS and ALLOWED_EMAILS. Both empty: everyone. */
export interface Allowlist {
  domains: readonly string[];
  emails: readonly string[];
}

export function isOpen(list: Allowlist): boolean {
  return list.domains.length === 0 && list.emails.length === 0;
}

export function isEmailAllowed(email: string, list: Allowlist): boolean {
  if (isOpen(list)) return true;
  const address = email.trim().toLowerCase();
  const domain = address.slice(address.lastIndexOf('@') + 1);
  return list.emails.includes(address) || list.domains.includes(domain);
}

/** The sentence a refused person reads: why, and what to do, without listing who is allowed. */
export function notAllowedMessage(email: string): string {
  return `${email} is not allowed to sign in to Clients Manager. Use your company account, or ask an administrator to allow this address.`;
}
