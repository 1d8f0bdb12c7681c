import argon2 from 'argon2';

/** OWASP's argon2id baseline (19 MiB, 2 passes): slow for a guesser, still quick for a sign-in. */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** A hash of a password nobody knows, verified when the e-mail is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;

export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword(`decoy-${Math.random()}`);
  const target = hash ?? (await decoy);
  try {
    return (await argon2.verify(target, password)) && hash !== undefined;
  } catch {
    return false;
  }
}
