import { Type, type Static } from 'typebox';
import { Nullable, Text, Timestamp, Uuid } from './common.ts';

/**
 * Multi-factor sign-in (issue 40 item 12, decision 031): an authenticator app (TOTP, RFC 6238)
 * with one-use recovery codes, and passkeys (WebAuthn). A password account with a factor signs in
 * in two steps: the password answers an `MfaChallenge`, the second factor the sign-in itself.
 */
export const MFA_METHODS = ['totp', 'passkey', 'recovery_code'] as const;
export const MfaMethod = Type.Enum(MFA_METHODS);
export type MfaMethod = Static<typeof MfaMethod>;

/** How many recovery codes an enrolment hands out (each works once). */
export const MFA_RECOVERY_CODE_COUNT = 10;

/** The right password of an account with a second factor: what it may answer with, and until when. */
export const MfaChallenge = Type.Object({
  mfa_required: Type.Literal(true),
  /** Names this sign-in at POST /v1/auth/mfa/verify; works once, for 5 minutes. */
  mfa_token: Type.String(),
  expires_at: Timestamp,
  methods: Type.Array(MfaMethod),
});
export type MfaChallenge = Static<typeof MfaChallenge>;

const MfaToken = Text({ minLength: 1, maxLength: 200 });
/** A WebAuthn answer of the browser (`navigator.credentials`), as JSON text. */
const WebAuthnJson = Text({ minLength: 2, maxLength: 16000 });

/** The second step of a sign-in: one of a TOTP code, a recovery code or a passkey's assertion. */
export const MfaVerifyBody = Type.Object(
  {
    mfa_token: MfaToken,
    code: Type.Optional(Text({ minLength: 1, maxLength: 20 })),
    recovery_code: Type.Optional(Text({ minLength: 1, maxLength: 40 })),
    passkey: Type.Optional(WebAuthnJson),
  },
  { additionalProperties: false },
);
export type MfaVerifyBody = Static<typeof MfaVerifyBody>;

export const MfaTokenBody = Type.Object({ mfa_token: MfaToken }, { additionalProperties: false });
export type MfaTokenBody = Static<typeof MfaTokenBody>;

/** WebAuthn options for the browser (`navigator.credentials.get/create`), as @simplewebauthn makes them. */
export const WebAuthnOptions = Type.Object({ options: Type.Unknown() });
export type WebAuthnOptions = Static<typeof WebAuthnOptions>;

export const Passkey = Type.Object({
  id: Uuid,
  name: Type.String(),
  created_at: Timestamp,
  last_used_at: Nullable(Timestamp),
});
export type Passkey = Static<typeof Passkey>;

/** The caller's own second factors, and whether it must have one. */
export const MfaStatus = Type.Object({
  totp: Type.Boolean(),
  passkeys: Type.Array(Passkey),
  recovery_codes_left: Type.Integer(),
  /** The caller's organisation (or, for a platform admin, the platform) requires a factor. */
  required: Type.Boolean(),
});
export type MfaStatus = Static<typeof MfaStatus>;

/** A TOTP enrolment begun: the secret as text, as an otpauth:// URI and as an SVG QR code of it. */
export const TotpEnrolment = Type.Object({
  secret: Type.String(),
  otpauth_uri: Type.String(),
  qr_svg: Type.String(),
});
export type TotpEnrolment = Static<typeof TotpEnrolment>;

export const TotpConfirmBody = Type.Object(
  { code: Text({ minLength: 1, maxLength: 20 }) },
  { additionalProperties: false },
);
export type TotpConfirmBody = Static<typeof TotpConfirmBody>;

/** New recovery codes, shown this once (empty when the account already had some). */
export const RecoveryCodes = Type.Object({ recovery_codes: Type.Array(Type.String()) });
export type RecoveryCodes = Static<typeof RecoveryCodes>;

/** Proof that the caller is the account's holder before a factor is removed: its password or a code. */
export const MfaProofBody = Type.Object(
  {
    password: Type.Optional(Text({ minLength: 1, maxLength: 200 })),
    code: Type.Optional(Text({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type MfaProofBody = Static<typeof MfaProofBody>;

export const PasskeyRegisterBody = Type.Object(
  { name: Text({ maxLength: 100, nonBlank: true }), credential: WebAuthnJson },
  { additionalProperties: false },
);
export type PasskeyRegisterBody = Static<typeof PasskeyRegisterBody>;

export const PasskeyRegistered = Type.Object({
  passkey: Passkey,
  recovery_codes: Type.Array(Type.String()),
});
export type PasskeyRegistered = Static<typeof PasskeyRegistered>;

export const MfaResetBody = Type.Object(
  { reason: Text({ maxLength: 500, nonBlank: true }) },
  { additionalProperties: false },
);
export type MfaResetBody = Static<typeof MfaResetBody>;

/** The platform's own setting: platform admins must have a second factor. */
export const MfaPolicy = Type.Object(
  { admins_required: Type.Boolean() },
  { additionalProperties: false },
);
export type MfaPolicy = Static<typeof MfaPolicy>;
