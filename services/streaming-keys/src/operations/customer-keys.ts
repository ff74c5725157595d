import { forbidden, type Identity } from '@bo/platform';
import { servicePagePaths, streamingServiceOf, type CustomerKey, type ServiceCode } from '@bo/proto';
import { displayStatus } from '../domain/keys';
import type { StreamingKey } from '../generated/prisma/client';
import { keyStore, type KeysDb } from '../store/key-store';

/**
 * The keys a customer session may see and use (ADR 15), for every customer route:
 * - a session with a key id: that key, and only while its account e-mail is the session's e-mail;
 * - a session without one: the keys the customer bought (buyer e-mail), never every profile of
 *   an account e-mail, which up to seven customers share.
 * Admins pass the platform's check of customer routes; they have no keys, so they are refused here.
 */
export async function sessionKeys(db: KeysDb, identity: Identity | null): Promise<StreamingKey[]> {
  if (identity?.kind !== 'customer') throw forbidden('Customer session required');
  const email = identity.email?.trim().toLowerCase();
  if (!email) return [];
  if (identity.keyId === null) return keyStore.boughtBy(db, email);
  const keyId = Number(identity.keyId);
  if (!Number.isSafeInteger(keyId) || keyId <= 0) return [];
  const key = await keyStore.find(db, keyId);
  return key && key.email.toLowerCase() === email ? [key] : [];
}

/** A key as its customer sees it: no account password, no buyer or chat details. */
export function customerKeyView(key: StreamingKey, now = new Date()): CustomerKey {
  const service = key.service as ServiceCode;
  return {
    id: key.id,
    key: key.key,
    service,
    serviceName: streamingServiceOf(service).name,
    email: key.email,
    profileNumber: key.profileNumber,
    expiresAt: key.expiresAt.toISOString(),
    status: displayStatus(key, now),
    servicePath: servicePagePaths[service],
  };
}
