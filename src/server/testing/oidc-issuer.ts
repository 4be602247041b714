import { generateKeyPairSync } from 'node:crypto';
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
  url = '';

  async start(clients: IssuerClient[], port = 0): Promise<this> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
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

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.#server) return resolve();
      this.#server.closeAllConnections();
      this.#server.close(() => resolve());
    });
  }
}
