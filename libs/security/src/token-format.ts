/** docs/api.md § Authentication 3: a token may contain only letters, digits, `.`, `-` and `_`. */
export const TOKEN_CHARACTERS = /^[A-Za-z0-9._-]+$/;

export function isWellFormedToken(token: string): boolean {
  return token.length > 0 && token.length <= 4096 && TOKEN_CHARACTERS.test(token);
}

/** Extracts the token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}
