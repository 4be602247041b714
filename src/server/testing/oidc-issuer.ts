import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface IssuerAccount {
  name: string;
  /** The provider's claim that it verified this address. */
  emailVerified: boolean;
  picture?: string;
}

export interface IssuerClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

/** A tiny avatar, as a data: URL so the app's Content-Security-Policy lets it show. */
export const PROVIDER_PICTURE =
  'data:image/svg+xml;base64,' +
  Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#e8590c"/></svg>',
  ).toString('base64');

/**
 * A real OpenID Provider (node-oidc-provider) on 127.0.0.1 for sign-in tests. Its development
 * login page takes any login, which becomes the account id and email; `accounts` sets the name,
 * picture and email_verified claim per address (default: verified, named after the address).
 */
export class OidcIssuer {
  readonly accounts = new Map<string, IssuerAccount>();
  #server: http.Server | undefined;
  #key: KeyObject | undefined;
  url = '';

  async start(clients: IssuerClient[], port = 0): Promise<this> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#key = privateKey;
    const jwk = {
      ...privateKey.export({ format: 'jwk' }),
      kid: 'test-key',
      alg: 'RS256',
      use: 'sig',
    };
    const configuration: Configuration = {
      clients: clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: [c.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      })),
      jwks: { keys: [jwk] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
      pkce: { required: () => true },
      features: { devInteractions: { enabled: true } },
      // The id token carries the claims, as Google's does.
      conformIdTokenClaims: false,
      findAccount: (_ctx, sub) => {
        const account = this.accounts.get(sub) ?? {
          name: sub.split('@')[0] ?? sub,
          emailVerified: true,
        };
        return {
          accountId: sub,
          claims: () => ({
            sub,
            email: sub,
            email_verified: account.emailVerified,
            name: account.name,
            ...(account.picture ? { picture: account.picture } : {}),
          }),
        };
      },
    };
    const provider = new Provider(this.url, configuration);
    server.on('request', provider.callback());
    this.#server = server;
    return this;
  }

  /**
   * An ID token for `clientId` signed with the issuer's key, as the provider would issue it
   * for `email`: what someone holding one could hand to a relying party directly.
   */
  idToken(clientId: string, email: string, nonce?: string): string {
    if (!this.#key) throw new Error('The issuer has not started');
    const now = Math.floor(Date.now() / 1000);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'RS256', kid: 'test-key', typ: 'JWT' })}.${part({
      iss: this.url,
      aud: clientId,
      sub: email,
      email,
      email_verified: true,
      name: email.split('@')[0],
      iat: now,
      exp: now + 600,
      ...(nonce ? { nonce } : {}),
    })}`;
    return `${unsigned}.${sign('sha256', Buffer.from(unsigned), this.#key).toString('base64url')}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.#server) return resolve();
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}
