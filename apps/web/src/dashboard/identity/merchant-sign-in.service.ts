import { Inject, Injectable } from '@nestjs/common';
import { MerchantLogins, normaliseEmail, SignInThrottle, verifyPassword } from '@app/credentials';

export type SignInOutcome = { ok: true; merchantId: string } | { ok: false; locked: boolean };

/**
 * E-mail and password against the stored argon2 hash. Failures count per e-mail address whether or
 * not it belongs to a merchant, and an unknown address costs the same hash check, so neither the
 * answer, the lock-out nor the timing tells a guesser which addresses exist.
 */
@Injectable()
export class MerchantSignIn {
  constructor(
    @Inject(MerchantLogins) private readonly logins: MerchantLogins,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
  ) {}

  async attempt(email: string, password: string): Promise<SignInOutcome> {
    const subject = `merchant:${normaliseEmail(email)}`;
    if (await this.throttle.lockedUntil(subject)) return { ok: false, locked: true };
    const login = await this.logins.findByEmail(email);
    if (login && (await verifyPassword(login.passwordHash, password))) {
      await this.throttle.reset(subject);
      return { ok: true, merchantId: login.merchantId };
    }
    if (!login) await verifyPassword(undefined, password);
    const locked = await this.throttle.recordFailure(subject);
    return { ok: false, locked: locked !== undefined };
  }
}
