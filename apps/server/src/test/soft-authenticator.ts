import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/**
 * A software passkey for tests: an ES256 (P-256) key pair that answers WebAuthn registration and assertion
 * requests as a platform authenticator with user verification would, with node:crypto. `origin` and
 * `rpId` are what the browser would put in its answers; a test changes them to play a phishing site.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  /** what the authenticator reports: user verified (a fingerprint, a PIN) */
  userVerified = true;

  constructor(
    public origin: string,
    public rpId: string,
    private readonly userHandle = 'a2FidXRvLXVzZXI',
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    if (!jwk.x || !jwk.y) throw new Error('no EC point');
    this.publicJwk = { x: jwk.x, y: jwk.y };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  private flags(attested: boolean): number {
    return 0x01 | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
  }

  private signCount(): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return count;
  }

  /** navigator.credentials.create's answer (attestation "none"), as RegistrationResponseJSON. */
  register(options: { challenge: string }) {
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, isoBase64URL.toBuffer(this.publicJwk.x)],
      [-3, isoBase64URL.toBuffer(this.publicJwk.y)],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      rpIdHash,
      Buffer.from([this.flags(true)]),
      this.signCount(),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const attStmt = new Map<string, string>();
    const attestation = new Map<string, string | Map<string, string> | Uint8Array>([
      ['fmt', 'none'],
      ['attStmt', attStmt],
      ['authData', new Uint8Array(authData)],
    ]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(isoCBOR.encode(attestation)),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get's answer, as AuthenticationResponseJSON. */
  assert(options: { challenge: string }) {
    this.counter += 1;
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    const authData = Buffer.concat([rpIdHash, Buffer.from([this.flags(false)]), this.signCount()]);
    const clientData = this.clientData('webauthn.get', options.challenge);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, createHash('sha256').update(clientData).digest()]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
