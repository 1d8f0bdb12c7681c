import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiSecurity, type DocumentBuilder } from '@nestjs/swagger';
import { PROVIDER_SIGNATURE_HEADER } from '@app/payments';
import { AuditAuthGuard } from '../audit-auth.guard';
import { AdminAuthGuard, MerchantAuthGuard } from '../auth.guards';
import { ANSWERS_WITH_LIVEMODE } from '../livemode';
import { ApiProblems } from './api-problems';

/**
 * Each guard family and the security scheme the document states for it, in one decorator, so a
 * route cannot be guarded one way and documented another.
 */
const SCHEMES = {
  merchant: {
    name: 'x-api-secret',
    description:
      "A tenant's API secret (shown once when the merchant is registered). Its tenant decides the request's mode: `sk_test_…` opens the test tenant (the sandbox moves its money), `sk_live_…` the live one (the configured provider); keys from before modes (`sk_…`) open their tenant in the mode its history was given.",
  },
  admin: { name: 'x-admin-key', description: "An admin key: a staff member's own (`sfk_…`, from the CLI's `staff create`), whose decisions name them, or the deployment's shared ADMIN_API_KEY (named `admin`)" },
  auditor: { name: 'x-auditor-key', description: 'A read-only auditor key from POST /v1/admin/auditors' },
  sandboxSignature: {
    name: PROVIDER_SIGNATURE_HEADER,
    description: 'The sandbox provider’s HMAC-SHA256 of the timestamp header and the exact body, with its notification secret',
  },
  chapaSignature: { name: 'x-chapa-signature', description: 'Chapa’s HMAC-SHA256 of the exact body with the webhook secret' },
} as const;

export function withSecuritySchemes(builder: DocumentBuilder): DocumentBuilder {
  for (const [key, { name, description }] of Object.entries(SCHEMES)) builder.addApiKey({ type: 'apiKey', in: 'header', name, description }, key);
  return builder;
}

const refused = ApiProblems({ 401: ['AUTH_001'] });

/** The merchant API: `x-api-secret`; its answers say their mode (libs/http/src/livemode.ts). */
export const MerchantApi = () => applyDecorators(UseGuards(MerchantAuthGuard), SetMetadata(ANSWERS_WITH_LIVEMODE, true), ApiSecurity('merchant'), refused);

/** The staff API: `x-admin-key`. */
export const AdminApi = () => applyDecorators(UseGuards(AdminAuthGuard), ApiSecurity('admin'), refused);

/** The audit API: an auditor key, or the admin key (either one). */
export const AuditApi = () => applyDecorators(UseGuards(AuditAuthGuard), ApiSecurity('auditor'), ApiSecurity('admin'), refused);

/** Provider notifications: authenticated by the provider's signature over the exact body, checked in the handler. */
export const ProviderSignedApi = () => applyDecorators(ApiSecurity('sandboxSignature'), ApiSecurity('chapaSignature'), refused);

/** Open to anyone (health probes). */
export const PublicApi = () => ApiSecurity({});
