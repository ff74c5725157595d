import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

/** The key file Google hands out for a service account (the fields clients read). */
export interface ServiceAccountCredentials {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
}

/** A service account whose public key the simulator checks signatures against. */
export class ServiceAccount {
  private constructor(
    readonly projectId: string,
    readonly clientEmail: string,
    readonly privateKeyId: string,
    readonly privateKeyPem: string,
    readonly publicKey: KeyObject,
  ) {}

  static generate(projectId = 'backoffice-sim'): ServiceAccount {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const email = `pricing-sheets@${projectId}.iam.gserviceaccount.com`;
    return new ServiceAccount(projectId, email, randomBytes(20).toString('hex'), pem, publicKey);
  }

  /** From an existing key file (so a fixed key survives restarts). Literal `\n` are unescaped. */
  static fromCredentials(credentials: Pick<ServiceAccountCredentials, 'project_id' | 'client_email' | 'private_key_id' | 'private_key'>): ServiceAccount {
    const pem = credentials.private_key.replaceAll('\\n', '\n');
    return new ServiceAccount(credentials.project_id, credentials.client_email, credentials.private_key_id, pem, createPublicKey(createPrivateKey(pem)));
  }

  /** The key file, with token_uri pointing at the simulator's /token. */
  credentials(simulatorUrl: string): ServiceAccountCredentials {
    return {
      type: 'service_account',
      project_id: this.projectId,
      private_key_id: this.privateKeyId,
      private_key: this.privateKeyPem,
      client_email: this.clientEmail,
      client_id: BigInt(`0x${this.privateKeyId.slice(0, 15)}`).toString(),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: `${simulatorUrl.replace(/\/$/, '')}/token`,
    };
  }
}
